/**
 * The REST contract, declared once per endpoint: method, path, who may call it, its inputs and
 * each answer it gives. The server mounts its handlers on these declarations (src/http/route.ts),
 * the access guard and the OpenAPI document (/api/openapi.json) are read off them, the API tests
 * validate every answer against that document, and the web client's types are generated from it
 * (web/lib/api-types.ts). Nothing about an endpoint is written twice.
 */
import type { z } from 'zod';
import type { Role } from '../roles.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone (screens, visitors, raters), or a signed-in account (or API
 * token) of at least this role (src/shared/roles.ts): the one declaration of who may do what.
 */
export type Access = 'public' | Role;

/** Success statuses an endpoint may answer, each with the schema of its body. */
export type SuccessStatus = 200 | 201 | 202;

/**
 * Error statuses an endpoint answers because of what it does (credentials refused, a lookup that
 * misses, a conflict, a page that cannot be read, a rate limit). Those that follow from its shape are added by the
 * OpenAPI builder: 400 with inputs, 413/415 with a body, 401/403 for administrators, 403 for
 * browser writes (CSRF), 503 while the database is away, 500.
 */
export type ErrorStatus = 401 | 404 | 405 | 409 | 422 | 429;

export interface EndpointSpec {
  method: HttpMethod;
  /** Under /api, in @koa/router's syntax: `/streams/:id`. */
  path: string;
  /** One line for the reference. */
  summary: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: Partial<Record<SuccessStatus, z.ZodType>>;
  /**
   * Which success status an answer goes with, where `responses` has more than one (the server
   * answers with it; with one, that one). The one place a success status is chosen.
   */
  statusOf?(answer: unknown): SuccessStatus;
  errors?: readonly ErrorStatus[];
  /** Set for answers that are not JSON (the reference pages): their media type. */
  produces?: string;
  /** Answers carry an ETag and a matching If-None-Match gets 304 Not Modified (a picture). */
  conditional?: boolean;
  /** Answers that do not touch the database (no 503). */
  noDatabase?: boolean;
}

/** Declares an endpoint, keeping its literal types. */
export function endpoint<const S extends EndpointSpec>(spec: S): S {
  return spec;
}

type SchemaOf<S, K extends 'params' | 'query' | 'body'> = S extends { [P in K]: infer T extends z.ZodType } ? T : never;

/** What a handler sees once the inputs are parsed. */
export type InputOf<S extends EndpointSpec> = {
  [K in 'params' | 'query' | 'body' as SchemaOf<S, K> extends never ? never : K]: z.output<SchemaOf<S, K>>;
};

/** What a handler may answer: the body of any of its success statuses. */
export type AnswerOf<S extends EndpointSpec> = z.output<NonNullable<S['responses'][keyof S['responses']]>>;
