/**
 * The REST calls the end-to-end tests (and bench/wall.ts) make, as an administrator: every
 * request carries `Authorization: Bearer $ADMIN_API_TOKEN` (writes need an administrator once
 * access control is on; until then the header is ignored).
 */
import type { SceneCreate, SceneDto, StreamDto } from '../../../src/shared/api/index.ts';

export interface Api {
  base: string;
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
  createStream(body: Partial<StreamDto> & { name: string; url: string }): Promise<StreamDto>;
  updateStream(id: number, fields: Partial<StreamDto>): Promise<StreamDto>;
  createScene(body: Partial<SceneCreate> & { name: string }): Promise<SceneDto>;
  setDefaultScene(sceneId: number): Promise<void>;
}

export function apiClient(base: string, token = process.env.ADMIN_API_TOKEN ?? ''): Api {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /api${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
  return {
    base,
    request,
    createStream: (body) => request<StreamDto>('POST', '/streams', body),
    updateStream: async (id, fields) => (await request<{ stream: StreamDto }>('PUT', '/streams', { id, ...fields })).stream,
    createScene: (body) => request<SceneDto>('POST', '/scenes', body),
    setDefaultScene: async (sceneId) => {
      await request('PUT', '/config/default-scene', { scene_id: sceneId });
    },
  };
}
