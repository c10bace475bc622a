/**
 * JSON bodies: @koa/bodyparser, held to what the document promises — UTF-8 (RFC 8259: an
 * overlong or broken sequence is refused, not stored as U+FFFD) and I-JSON (RFC 7493: no name
 * twice in an object, where JSON.parse would keep the last) — plus a clear 400 when a body claims a Content-Encoding
 * (gzip, deflate, br) it does not have — zlib's own error carries no status and would
 * otherwise be a 500 — and a clean end for every body that was refused while still arriving.
 */
import type { IncomingMessage } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import { createScanner, type SyntaxKind } from 'jsonc-parser';
import type { Context } from 'koa';
import { unpairedSurrogate } from '../shared/api/text.ts';
import { HttpError, NOT_AN_OBJECT } from './errors.ts';

export const BODY_LIMIT = '100kb';

/**
 * What is read and thrown away of a refused body before its connection is closed instead: a
 * client that writes its whole body before it reads gets its answer (closing at once would reset
 * the connection under it, losing the answer), and nobody keeps a connection busy for long.
 */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;
export const DISCARD_LIMIT_MS = 10_000;

const CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * After a body was refused part-way (it could not be decoded, it was too large), the parser has
 * stopped reading it. The rest is read and thrown away before the answer goes out, so a client
 * that writes its whole body before it reads gets the answer (answering first and closing would
 * reset the connection under its writes, and the answer with it); past DISCARD_LIMIT_BYTES or
 * DISCARD_LIMIT_MS the connection is closed instead. A request read whole is left alone.
 */
export function discardUnreadBody(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.removeListener('data', count);
      resolve();
    };
    const close = () => {
      req.socket.destroy();
      done();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_LIMIT_BYTES) close();
    };
    const timer = setTimeout(close, DISCARD_LIMIT_MS);
    timer.unref();
    req.unpipe(); // from the decompressor, or the reader that gave up
    req.on('data', count);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

// Read as latin1: one character per byte, so the bytes can be judged as UTF-8 afterwards (the
// parser's own UTF-8 decoding replaces what is broken). JSON's syntax is ASCII, so what it
// accepts or refuses, and its refusal of prototype keys, is the same in either reading.
const parse = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'], encoding: 'latin1' });
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's text as UTF-8, or a 400 when its bytes are not. */
function utf8Text(latin1: string): string {
  try {
    return utf8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    throw new HttpError(400, 'Request body is not valid UTF-8 (an overlong or broken byte sequence); JSON bodies must be UTF-8 (RFC 8259)');
  }
}

/**
 * The first name an object of this JSON text repeats (I-JSON, RFC 7493 §2.3), and whether that
 * object is the body itself. A scan of tokens, not a recursive walk: a body nested 10,000 deep is
 * judged like any other.
 */
/** The tokens the scan reads (jsonc-parser's SyntaxKind: a const enum in its types, so named here). */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, comma: 5, string: 10, eof: 17 } as const satisfies Record<string, SyntaxKind>;

function firstDuplicateName(text: string): { name: string; topLevel: boolean } | null {
  type Open = { names: Set<string>; expectName: boolean } | null; // null: an array
  const open: Open[] = [];
  const scanner = createScanner(text, true);
  for (let token = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    const top = open.at(-1);
    switch (token) {
      case TOKEN.openBrace:
        open.push({ names: new Set(), expectName: true });
        break;
      case TOKEN.openBracket:
        open.push(null);
        break;
      case TOKEN.closeBrace:
      case TOKEN.closeBracket:
        open.pop();
        break;
      case TOKEN.comma:
        if (top) top.expectName = true;
        break;
      case TOKEN.string:
        if (top?.expectName) {
          const name = scanner.getTokenValue();
          if (top.names.has(name)) return { name, topLevel: open.length === 1 };
          top.names.add(name);
          top.expectName = false;
        }
        break;
      default:
        break;
    }
  }
  return null;
}

/**
 * Reads an endpoint's JSON body into `ctx.request.body` (the route pipeline calls it for
 * endpoints that declare one, after access was granted): a body that cannot be read is refused
 * with its 4xx and the rest of it discarded.
 */
export async function readJsonBody(ctx: Context): Promise<void> {
  try {
    await parse(ctx, async () => undefined);
  } catch (error) {
    await discardUnreadBody(ctx.req);
    const encoding = ctx.get('content-encoding').trim().toLowerCase();
    const hasStatus = typeof (error as { status?: unknown }).status === 'number';
    if (hasStatus || encoding === '' || encoding === 'identity') throw error;
    // Only a coding we know is named back: the header's text is the client's, not ours to echo.
    throw new HttpError(400, `Request body could not be decoded as ${CODINGS.has(encoding) ? `${encoding} (Content-Encoding)` : 'its Content-Encoding'}`);
  }
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof raw === 'string' && raw.length > 0) {
    const text = utf8Text(raw);
    const duplicate = firstDuplicateName(text);
    if (duplicate) {
      const message = `Duplicate name "${duplicate.name}" in ${duplicate.topLevel ? 'the body' : 'an object of the body'}: each name may appear once (bodies are I-JSON, RFC 7493)`;
      throw new HttpError(400, message);
    }
    ctx.request.body = JSON.parse(text) as unknown;
  }
  // Every body of this API is an object; a JSON array is valid JSON, but never an answer to that.
  if (Array.isArray(ctx.request.body)) throw new HttpError(400, NOT_AN_OBJECT);
  const illFormed = firstUnpairedSurrogate(ctx.request.body);
  if (illFormed) throw new HttpError(400, `${illFormed.path}: ${illFormed.problem}`, [{ path: illFormed.path, message: illFormed.problem }]);
}

/**
 * Bodies are I-JSON (RFC 7493): a string — a key too, and one no field reads — holding an
 * unpaired surrogate is refused, with where it is. Iterative: a body may nest deep.
 */
function firstUnpairedSurrogate(root: unknown): { path: string; problem: string } | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = unpairedSurrogate(value);
      if (problem) return { path: path || 'body', problem };
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        const problem = unpairedSurrogate(key);
        if (problem) return { path: at, problem: `Its name ${problem.charAt(0).toLowerCase()}${problem.slice(1)}` };
        stack.push([child, at]);
      }
    }
  }
  return null;
}
