/**
 * What happens below the routes: requests Node's HTTP parser refuses (an unknown method, a broken
 * request line, headers too large) get a clean JSON answer and a closed connection instead of a
 * dropped socket, and methods no route serves (TRACE, PROPFIND…) a 405 naming those that are.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';

/** What the parser's refusals answer, by its error code (llhttp's HPE_* and Node's own). */
const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request line and headers are too large: at most 16 KB together (a long query counts)'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive'],
  HPE_INVALID_METHOD: [400, 'Bad Request', 'The request method is not one HTTP knows'],
};
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'The request could not be read as HTTP'];

/** Answers every request the HTTP parser refuses on `server` (and logs it at info: it is the client's). */
export function answerUnreadableRequests(server: http.Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset connection has nobody to answer; one whose answer has begun cannot take another.
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, sentence] = REFUSALS[error.code ?? ''] ?? BAD_REQUEST;
    const body = JSON.stringify({ error: sentence });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    logger.info({ code: error.code, status }, 'refused a request the HTTP parser could not read');
  });
}

/** Methods some route may serve; any other (TRACE, PROPFIND, CONNECT…) is answered here. */
const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * 405 with `Allow` for a method no route serves, before anything else looks at the request.
 * `allowedFor(path)` names the methods the path has (the API's routes; the pages' GET and HEAD).
 */
export function refuseUnservedMethods(allowedFor: (path: string) => readonly string[]): Middleware {
  return async (ctx, next) => {
    if (SERVED_METHODS.has(ctx.method)) return next();
    const allowed = allowedFor(ctx.path);
    ctx.status = 405;
    ctx.set('Allow', (allowed.length ? allowed : ['GET', 'HEAD']).join(', '));
    ctx.body = { error: `Method ${ctx.method} is not allowed here` };
  };
}
