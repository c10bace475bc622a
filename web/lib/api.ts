/**
 * The REST client of every page: it calls an endpoint of the contract by its name
 * (`call('scene.get', { params: { idOrSlug } })`); the method and path come from ROUTES and the
 * inputs' and answer's types from the declarations the server mounts (src/shared/api/*.ts,
 * imported as types only, so a screen never downloads a schema). A failed call throws an
 * ApiError carrying the server's `{error}` sentence, so pages can show it as it is.
 */
import type { z } from 'zod';
import type { ErrorDto, SceneDto } from '../../src/shared/api/index.ts';
import type { AnswerOf, EndpointSpec } from '../../src/shared/api/contract.ts';
import type { Endpoints } from '../../src/shared/api/endpoints.ts';
import { ROUTES, type RouteName } from '../../src/shared/api/routes.ts';

export class ApiError extends Error {
  readonly status: number;
  /** A refusal's Retry-After (429, 503): how many seconds the caller should wait; null when it did not say. */
  readonly retryAfterSeconds: number | null;
  constructor(status: number, message: string, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Retry-After in seconds (the delay form; an HTTP date is read as the time until it). */
function retryAfterOf(response: Response): number | null {
  const header = response.headers.get('retry-after');
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}

function isErrorDto(body: unknown): body is ErrorDto {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
}

/** Path and query values travel as text: a value the schema reads as a number (an id, a limit) may be given as one. */
type UrlInput<T extends z.ZodType> = {
  [F in keyof z.input<T>]: F extends keyof z.output<T> ? (NonNullable<z.output<T>[F]> extends number ? z.input<T>[F] | z.output<T>[F] : z.input<T>[F]) : z.input<T>[F];
};

type InputPart<S extends EndpointSpec, K extends 'params' | 'query' | 'body'> = S[K] extends z.ZodType
  ? { [P in K]: K extends 'body' ? z.input<S[K]> : UrlInput<S[K]> }
  : { [P in K]?: never };

/** What a call gives: path parameters, query and body, as the endpoint's schemas take them. */
export type CallInput<S extends EndpointSpec> = InputPart<S, 'params'> & InputPart<S, 'query'> & InputPart<S, 'body'>;

type NoInput<S extends EndpointSpec> = S extends { params: z.ZodType } | { body: z.ZodType } ? false : S extends { query: infer Q extends z.ZodType } ? (Record<string, never> extends z.input<Q> ? true : false) : true;

/** `/scenes/:idOrSlug` with `{idOrSlug: 'ocean'}` → `/api/scenes/ocean?…` */
export function urlOf(endpoint: { path: string }, input: { params?: unknown; query?: unknown }): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = endpoint.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const search = query.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

/**
 * Calls the endpoint named `name` with its inputs and answers its typed result. An endpoint
 * without required inputs may be called with none: `call('scene.list')`.
 */
export async function call<N extends RouteName>(
  name: N,
  ...args: NoInput<Endpoints[N]> extends true ? [input?: CallInput<Endpoints[N]>] : [input: CallInput<Endpoints[N]>]
): Promise<AnswerOf<Endpoints[N]>> {
  const endpoint = ROUTES[name];
  const input = (args[0] ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
  let response: Response;
  try {
    response = await fetch(urlOf(endpoint, input), {
      method: endpoint.method,
      headers: { accept: 'application/json', ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'The server could not be reached');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, isErrorDto(body) ? body.error : `Request failed (${response.status})`, retryAfterOf(response));
  return body as AnswerOf<Endpoints[N]>;
}

/**
 * Some endpoints answer by action (`?action=…`, a body's shape): the contract declares the union,
 * and a call that names its action narrows the answer to that action's member.
 */
export const narrow = <T>(answer: Promise<unknown>) => answer as Promise<T>;

export const api = {
  activeScenes: () => call('scene.list', { query: { active: 'true' } }),
  defaultScene: () => call('defaultScene.get'),
  scene: (idOrSlug: string) => call('scene.get', { params: { idOrSlug } }),
  sceneStreams: (idOrSlug: string) => call('scene.streams', { params: { idOrSlug } }),
};

/** How a scene is addressed in routes: its slug, or its id when it has none (spec §2). */
export function sceneRef(scene: Pick<SceneDto, 'id' | 'slug'>): string {
  return scene.slug ?? String(scene.id);
}
