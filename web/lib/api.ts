/**
 * The REST client of the screens: JSON in and out under /api. A failed call throws an
 * ApiError carrying the server's `{error}` sentence, so screens can show it as it is.
 */
import type { DefaultSceneDto, ErrorDto, SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

function isErrorDto(body: unknown): body is ErrorDto {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
}

export async function requestJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      ...init,
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    });
  } catch {
    throw new ApiError(0, 'The server could not be reached');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, isErrorDto(body) ? body.error : `Request failed (${response.status})`);
  return body as T;
}

export const api = {
  activeScenes: () => requestJson<SceneDto[]>('/scenes?active=true'),
  defaultScene: () => requestJson<DefaultSceneDto>('/config/default-scene'),
  scene: (idOrSlug: string) => requestJson<SceneDto>(`/scenes/${encodeURIComponent(idOrSlug)}`),
  sceneStreams: (idOrSlug: string) => requestJson<SceneStreamDto[]>(`/scenes/${encodeURIComponent(idOrSlug)}/streams`),
};

/** How a scene is addressed in routes: its slug, or its id when it has none (spec §2). */
export function sceneRef(scene: Pick<SceneDto, 'id' | 'slug'>): string {
  return scene.slug ?? String(scene.id);
}
