/**
 * Errors as answers: every failure becomes `{error, details?}` with a 4xx status where the
 * caller can do something about it. Only a genuine bug is a 500, and it never leaks internals.
 */
import {
  CheckConstraintViolationException,
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException,
  DriverException,
} from '@mikro-orm/core';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { isDatabaseUnavailable, type DatabaseAvailability } from '../database/availability.ts';
import { DomainError, type DomainErrorKind } from '../domain/errors.ts';
import type { ErrorDto } from '../shared/api/index.ts';

export class HttpError extends Error {
  readonly status: number;
  readonly details: ErrorDto['details'];
  /** Flags the answer carries beside the sentence (ErrorDto's `queueEmpty`). */
  readonly flags: Pick<ErrorDto, 'queueEmpty'>;
  constructor(status: number, message: string, details?: ErrorDto['details'], flags: Pick<ErrorDto, 'queueEmpty'> = {}) {
    super(message);
    this.status = status;
    this.details = details;
    this.flags = flags;
  }
}

/** Seconds a client is told to wait during a database outage (the probe runs every second). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** Readable messages for the database's own rules, keyed by constraint name. */
const CONSTRAINT_MESSAGES: Record<string, [number, string]> = {
  streams_normalized_url_unique: [409, 'Duplicate stream detected'],
  scenes_slug_unique: [409, 'Another scene was just saved with the same name; please try again'],
  scene_streams_scene_position_unique: [409, 'Two streams cannot share a slot'],
  scene_streams_scene_stream_unique: [409, 'A stream can fill only one slot'],
  discovery_sources_name_unique: [409, 'A source with this name already exists'],
  discovery_jobs_one_active_per_source: [409, 'This source is already running'],
  submissions_pending_unique: [409, 'This stream was already submitted and is waiting for review.'],
};

/** Turns a zod failure into the answer of spec convention: "<field>: <message>" first. */
export function fromZodError(error: z.ZodError, where: string): HttpError {
  const details = error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : where,
    message: issue.message,
  }));
  const first = details[0];
  return new HttpError(400, first ? `${first.path}: ${first.message}` : 'Invalid request', details);
}

interface StatusError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
  message?: unknown;
}

/** Valid JSON that the body parser refused: a number, a string, true/false or null at the top. */
function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const NOT_AN_OBJECT = 'The request body must be a JSON object';
/** The JSON parser refuses prototype-poisoning keys (co-body's bourne); the document says so. */
export const PROTO_KEY = 'The request body must not use the key __proto__';

/** Errors raised by Koa and co-body (bad JSON, body too large) carry their own 4xx status. */
function clientErrorOf(error: unknown): HttpError | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as StatusError;
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 0;
  if (status < 400 || status >= 500) return null;
  if (e.type === 'entity.parse.failed' || error instanceof SyntaxError) {
    if (typeof e.message === 'string' && e.message.includes('forbidden prototype property')) return new HttpError(400, PROTO_KEY);
    return new HttpError(400, isJson((error as { body?: unknown }).body) ? NOT_AN_OBJECT : 'Invalid JSON body');
  }
  if (e.type === 'entity.too.large') return new HttpError(413, 'Request body is too large');
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') return new HttpError(415, 'Unsupported body encoding');
  return new HttpError(status, typeof e.message === 'string' && e.expose ? e.message : 'Bad request');
}

function fromDatabaseError(error: unknown): HttpError | null {
  if (!(error instanceof DriverException)) return null;
  const constraint = (error as DriverException & { constraint?: string }).constraint;
  const known = constraint ? CONSTRAINT_MESSAGES[constraint] : undefined;
  if (known) return new HttpError(known[0], known[1]);
  if (error instanceof UniqueConstraintViolationException) return conflict('This record already exists');
  if (error instanceof ForeignKeyConstraintViolationException) return conflict('A referenced record does not exist');
  if (error instanceof CheckConstraintViolationException || error instanceof NotNullConstraintViolationException) {
    return badRequest(`Value breaks the rule ${constraint ?? 'of the database'}`);
  }
  // SQLSTATE class 22 (data exception: out of range, bad encoding) is the caller's input.
  const code = (error as DriverException & { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('22')) return badRequest('A value is out of range or malformed');
  return null;
}

/** What each kind of domain error answers. */
const DOMAIN_STATUS: Record<DomainErrorKind, number> = { 'not-found': 404, conflict: 409, invalid: 400, unprocessable: 422 };

export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(DOMAIN_STATUS[error.kind], error.message);
  if (error instanceof z.ZodError) return fromZodError(error, 'body');
  return clientErrorOf(error) ?? fromDatabaseError(error);
}

/**
 * Outermost API middleware: answers every error as JSON; logs only the unexpected ones. A
 * database that cannot be reached is a 503 with Retry-After, reported to `availability` (which
 * logs the outage once), never a 500 per request.
 */
export function errorHandler(availability?: DatabaseAvailability): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const known = toHttpError(error);
      if (known) {
        ctx.status = known.status;
        ctx.body = { error: known.message, ...(known.details ? { details: known.details } : {}), ...known.flags } satisfies ErrorDto;
        return;
      }
      if (availability ? availability.noteFailure(error) : isDatabaseUnavailable(error)) {
        ctx.status = 503;
        ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
        ctx.body = { error: 'Database unavailable, try again shortly' } satisfies ErrorDto;
        return;
      }
      ctx.res.err = error instanceof Error ? error : new Error(String(error)); // picked up by the request log
      ctx.status = 500;
      ctx.body = { error: 'Internal server error' } satisfies ErrorDto;
    }
  };
}
