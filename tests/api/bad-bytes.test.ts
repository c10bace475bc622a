/**
 * Bad bytes from anyone (issue 29): text is judged once at the edge, a statement's error is
 * never an outage, bodies end cleanly, the HTTP parser's refusals are answered, and every
 * refused login counts. Each test that sends bad logins runs on a server of its own, so the
 * shared servers' login budgets are never spent here.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDto } from '../../src/shared/api/index.ts';
import { createPool } from '../../src/database/pool.ts';
import { createLogger } from '../../src/logger.ts';
import { Scene } from '../../src/modules/scenes/scene.entity.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  const em = app.orm.em.fork();
  await buildStream(em, { name: 'Bear cam', url: 'https://example.org/bears.m3u8' });
  await buildScene(em, { name: 'Forest' });
});
afterAll(async () => app?.close());

/** Sends raw bytes and reads until the server closes (or `ms` pass): the whole answer as text. */
async function rawExchange(baseUrl: string, write: (socket: net.Socket) => Promise<void>, ms = 20_000): Promise<string> {
  const { port } = new URL(baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', resolve);
    socket.once('error', () => resolve());
    setTimeout(resolve, ms).unref();
  });
  await write(socket);
  await ended;
  socket.destroy();
  return Buffer.concat(chunks).toString('latin1');
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as ErrorDto;

describe('text is judged once, at the edge', () => {
  it.each([
    ['a NUL in a stream search', 'GET', '/api/streams?q=a%00b', undefined, 'q: Contains a control character (U+0000 at character 2)'],
    ['a NUL in a scene reference', 'GET', '/api/scenes/a%00b', undefined, 'idOrSlug: Contains a control character (U+0000'],
    ['a NUL in a scene\'s streams reference', 'GET', '/api/scenes/a%00b/streams', undefined, 'idOrSlug: Contains a control character (U+0000'],
    ['a NUL in the analytics search', 'GET', '/api/streams/analytics?q=a%00b', undefined, 'q: Contains a control character'],
    ['a NUL in a submission search', 'GET', '/api/submissions?q=a%00b', undefined, 'q: Contains a control character'],
    ['a NUL in a submitter filter', 'GET', '/api/submissions?submitted_by=a%00b', undefined, 'submitted_by: Contains a control character'],
    ['a NUL in a platform filter', 'GET', '/api/submissions?platform=a%00b', undefined, 'platform: Contains a control character'],
    ['a NUL in a bulk rejection', 'POST', '/api/submissions/reject-matching', { filter: { q: 'a\u0000b' } }, 'filter.q: Contains a control character'],
    ['a NUL in a scene name', 'POST', '/api/scenes', { name: 'a\u0000b' }, 'name: Contains a control character'],
    ['a NUL in a stream name', 'POST', '/api/streams', { name: 'a\u0000b', url: 'https://example.org/x.m3u8' }, 'name: Contains a control character'],
    ['a C1 control (U+0085) in a name', 'POST', '/api/scenes', { name: 'a\u0085b' }, 'name: Contains a control character (U+0085 at character 2)'],
    ['a C1 control (U+009B) in a name', 'POST', '/api/scenes', { name: 'a\u009Bb' }, 'name: Contains a control character (U+009B'],
    ['a right-to-left override in a name', 'POST', '/api/scenes', { name: 'gpj.\u202Eexe' }, 'name: Contains a bidirectional override (U+202E at character 5)'],
    ['an isolate in a name', 'POST', '/api/streams', { name: 'a\u2066b', url: 'https://example.org/y.m3u8' }, 'name: Contains a bidirectional override (U+2066'],
    ['a name of zero-width spaces only', 'POST', '/api/scenes', { name: '\u200b\u200b' }, 'name: Must contain a visible character'],
    ['a newline in a single-line name', 'POST', '/api/scenes', { name: 'a\nb' }, 'name: Contains a line break'],
    ['a tab in a search', 'GET', '/api/streams?q=a%09b', undefined, 'q: Contains a tab'],
    ['a carriage return in a description', 'POST', '/api/scenes', { name: 'CR', description: 'a\rb' }, 'description: Contains a carriage return (U+000D at character 2)'],
  ])('%s is a 400 naming the field and the reason', async (_case, method, path, body, message) => {
    const before = await app.orm.em.fork().count(Scene, {});
    const res = await app.request<ErrorDto>(method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.error.startsWith(message)).toBe(true);
    expect(await app.orm.em.fork().count(Scene, {})).toBe(before);
    expect(app.app.availability.available).toBe(true);
  });

  it('a lone surrogate is refused, not stored as U+FFFD', async () => {
    // JSON.stringify would replace it; the escape is written by hand, as a hostile client would.
    const res = await app.request<ErrorDto>('POST', '/api/scenes', '{"name":"edge\\ud800x"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name: Contains an unpaired surrogate (U+D800 at character 5): not valid Unicode text');
    expect(await app.orm.em.fork().count(Scene, { name: { $like: 'edge%' } })).toBe(0);
  });

  it.each([
    ['a name twice', '{"name":"First","name":"Second"}', 'Duplicate name "name" in the body: each name may appear once (bodies are I-JSON, RFC 7493)'],
    ['a name twice in a nested object', '{"name":"Nested","slots":[{"stream_id":1,"stream_id":2}]}', 'Duplicate name "stream_id" in an object of the body: each name may appear once'],
  ])('a body with %s is refused (I-JSON), not read with the last one winning', async (_case, body, message) => {
    const before = await app.orm.em.fork().count(Scene, {});
    const res = await app.request<ErrorDto>('POST', '/api/scenes', body);
    expect(res.status).toBe(400);
    expect(res.body.error.startsWith(message)).toBe(true);
    expect(await app.orm.em.fork().count(Scene, {})).toBe(before);
  });

  it.each([
    ['an overlong dot (C0 AE)', [0xc0, 0xae]],
    ['a lone continuation byte', [0x80]],
    ['a truncated four-byte sequence', [0xf0, 0x9f, 0x98]],
    ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ])('a body with %s is refused as invalid UTF-8, not stored as U+FFFD', async (_case, bytes) => {
    const before = await app.orm.em.fork().count(Scene, {});
    const body = Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from(bytes), Buffer.from('bytes"}')]);
    const res = await fetch(`${app.baseUrl}/api/scenes`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorDto).error).toBe('Request body is not valid UTF-8 (an overlong or broken byte sequence); JSON bodies must be UTF-8 (RFC 8259)');
    expect(await app.orm.em.fork().count(Scene, {})).toBe(before);
  });

  it('a 100,000-character query is answered 431 with a sentence, a status every operation documents', async () => {
    const res = await fetch(`${app.baseUrl}/api/streams?q=${'a'.repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(((await res.json()) as ErrorDto).error).toBe('The request line and headers are too large: at most 16 KB together (a long query counts)');
    const document = (await (await fetch(`${app.baseUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((o) => !o.responses['431'])).toEqual([]);
  });

  it('UTF-8 of every length still reads as written (two, three and four bytes)', async () => {
    const created = await app.request<{ name: string }>('POST', '/api/scenes', { name: 'Élan – 熊 🐻' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Élan – 熊 🐻');
  });

  it('multi-line text keeps its tabs and newlines; a right-to-left name keeps its marks', async () => {
    const created = await app.request<{ name: string; description: string }>('POST', '/api/scenes', { name: '\u200Fמצלמת דובים\u200F', description: 'Line one\n\tLine two' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('\u200Fמצלמת דובים\u200F');
    expect(created.body.description).toBe('Line one\n\tLine two');
  });

  it('socket registrations keep the same rule (a screen name with a NUL is refused before the journal)', async () => {
    const { Registration } = await import('../../src/shared/events.ts');
    const refused = Registration.safeParse({ kind: 'wall', name: 'lobby\u0000' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('Contains a control character (U+0000 at character 6)');
    expect(Registration.safeParse({ kind: 'wall', name: 'Lobby wall' }).success).toBe(true);
  });
});

describe('ids are one strict rule', () => {
  it.each([
    ['a string id in a body', 'PUT', '/api/streams', { id: ' 1', name: 'x' }],
    ['a digit-string id in a body', 'PUT', '/api/streams', { id: '1', name: 'x' }],
    ['a fractional id', 'PUT', '/api/streams', { id: 1.5, name: 'x' }],
    ['id 0', 'PUT', '/api/streams', { id: 0, name: 'x' }],
    ['an id past 2³¹ − 1', 'PUT', '/api/streams', { id: 2 ** 31, name: 'x' }],
    ['a space before a path id', 'GET', '/api/streams/%201', undefined],
    ['a leading zero in a path id', 'GET', '/api/streams/01', undefined],
    ['a path id past 2³¹ − 1', 'GET', '/api/streams/2147483648', undefined],
    ['a hex limit', 'GET', '/api/streams?limit=0x10', undefined],
    ['an exponent limit', 'GET', '/api/streams?limit=1e1', undefined],
    ['an exponent cursor', 'GET', '/api/submissions?cursor=1e3', undefined],
    ['a negative cursor', 'GET', '/api/submissions?cursor=-1', undefined],
  ])('%s is refused with a 400', async (_case, method, path, body) => {
    const before = await app.orm.em.fork().findOneOrFail(Stream, { name: 'Bear cam' });
    const res = await app.request<ErrorDto>(method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^(id|limit|cursor): /);
    const after = await app.orm.em.fork().findOneOrFail(Stream, { id: before.id });
    expect(after.name).toBe('Bear cam');
  });

  it('the strict forms are accepted', async () => {
    const stream = await app.orm.em.fork().findOneOrFail(Stream, { name: 'Bear cam' });
    expect((await app.request('GET', `/api/streams/${stream.id}`)).status).toBe(200);
    expect((await app.request('GET', '/api/streams?limit=16')).status).toBe(200);
    expect((await app.request('GET', '/api/submissions?cursor=1000')).status).toBe(200);
  });
});

describe('an outage is an outage; a bad statement is not', () => {
  it('a NUL the database refuses is not taken for an outage', async () => {
    const connection = app.orm.em.getConnection();
    const failures: unknown[] = [];
    for (const sql of ["select 'a\u0000b' as x", 'select ?::text as x']) {
      await connection.execute(sql, sql.includes('?') ? ['a\u0000b'] : []).catch((error: unknown) => failures.push(error));
    }
    expect(failures).toHaveLength(2);
    for (const failure of failures) expect(app.app.availability.noteFailure(failure)).toBe(false);
    expect(app.app.availability.available).toBe(true);
  });

  it('while the database is away, a valid token or session is answered 503, never 401', async () => {
    const token = await app.request<{ token: string }>('POST', '/api/auth/tokens', { name: 'outage probe', role: 'admin' });
    expect(token.status).toBe(201);
    const bearer = { authorization: `Bearer ${token.body.token}` };
    expect((await app.anonymous('GET', '/api/team', undefined, { headers: bearer })).status).toBe(200);
    // The watch is told of a refused connection, as a pool would report one.
    expect(app.app.availability.noteFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    try {
      for (const path of ['/api/team', '/api/streams/analytics', '/api/auth/me']) {
        const res = await app.anonymous<ErrorDto>('GET', path, undefined, { headers: bearer });
        expect(res.status, path).toBe(503);
        expect(res.body.error).toBe('Database unavailable, try again shortly');
      }
    } finally {
      expect(await app.app.availability.check()).toBe(true);
    }
    expect((await app.anonymous('GET', '/api/team', undefined, { headers: bearer })).status).toBe(200);
  });
});

describe('bodies end cleanly, and the HTTP parser\'s refusals are answered', () => {
  it.each([
    ['a bogus gzip body', 'gzip', 400, 'Request body could not be decoded as gzip (Content-Encoding)'],
    ['a body over the limit', 'identity', 413, 'Request body is too large'],
  ])('a client that writes 5 MB of %s before it reads gets its answer', async (_case, encoding, status, sentence) => {
    const body = Buffer.alloc(5 * 1024 * 1024, 'x');
    body.write('{"username":"');
    const answer = await rawExchange(app.baseUrl, async (socket) => {
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      for (let at = 0; at < body.length; at += 64 * 1024) {
        if (socket.destroyed) break; // a reset under the writes fails the expectations below
        if (!socket.write(body.subarray(at, at + 64 * 1024))) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
      }
    });
    expect(statusOf(answer)).toBe(status);
    expect(bodyOf(answer).error).toBe(sentence);
  });

  it('the connection stays usable after a refused body it kept alive', async () => {
    const answer = await rawExchange(app.baseUrl, async (socket) => {
      const junk = Buffer.alloc(300_000, 'y');
      socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: br\r\nContent-Length: ${junk.length}\r\n\r\n`);
      socket.write(junk);
      socket.write('GET /api/scenes HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    });
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([400, 200]);
  });

  it.each([
    ['an unknown method', 'FOO /api/scenes HTTP/1.1\r\nHost: x\r\n\r\n', 'The request method is not one HTTP knows'],
    ['a broken request line', 'GET /api/scenes HTTX/1.1\r\n\r\n', 'The request could not be read as HTTP'],
    ['a header with a control character', 'GET /api/scenes HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 'The request could not be read as HTTP'],
  ])('%s gets a JSON 400 and a closed connection, not a dropped socket', async (_case, request, sentence) => {
    const answer = await rawExchange(app.baseUrl, async (socket) => void socket.write(request, 'latin1'));
    expect(statusOf(answer)).toBe(400);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(bodyOf(answer).error).toBe(sentence);
  });

  it.each([
    ['TRACE', '/api/scenes', 'GET, HEAD, POST, PUT, DELETE'],
    ['PROPFIND', '/api/streams/1', 'GET, HEAD'],
    ['TRACE', '/', 'GET, HEAD'],
  ])('%s %s is a 405 with Allow', async (method, path, allow) => {
    // fetch() refuses to send TRACE: the request is written by hand.
    const answer = await rawExchange(app.baseUrl, async (socket) => void socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    expect(statusOf(answer)).toBe(405);
    expect(/\r\nAllow: ([^\r]*)\r\n/i.exec(answer)?.[1]?.split(', ').sort()).toEqual(allow.split(', ').sort());
    expect(bodyOf(answer).error).toBe(`Method ${method} is not allowed here`);
  });
});

describe('abuse is counted', () => {
  it('every refused login counts, and a NUL in a username never reaches the limiter store', async () => {
    // A server of its own, with its limits in PostgreSQL as a cluster keeps them.
    const logger = createLogger('silent');
    const pool = createPool({ connectionString: app.db.url, max: 2, name: 'rate-limits', logger });
    const limited = await startTestApp({ database: app.db, appOptions: { limiterStore: { kind: 'postgres', pool } } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) {
        const body = i % 3 === 0 ? { username: 'a\u0000b', password: 'xxxxxxxxxxxxxxxx' } : i % 3 === 1 ? '{"username": ' : { username: 'nobody', password: 'wrong password!' };
        statuses.push((await limited.anonymous('POST', '/api/auth/login', body)).status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 400 || s === 401)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429]);
      // The store holds hashes: no key carries a client's text.
      const keys = await pool.query<{ key: string }>('select key from rate_limits');
      expect(keys.rows.length).toBeGreaterThan(0);
      for (const { key } of keys.rows) expect(key).toMatch(/^nw:login-(ip|ip-user|user|user-slowed|device):[A-Za-z0-9_-]{32}$/);
      expect(limited.app.availability.available).toBe(true);
    } finally {
      await limited.close();
      await pool.end();
    }
  });
});

describe('a NUL login flood', () => {
  it('twice a second for 10 s: GET /api/scenes polled every 50 ms is 200 every time, and /readyz stays 200', async () => {
    const own = await startTestApp({ database: app.db });
    try {
      const stop = Date.now() + 10_000;
      const answers: number[] = [];
      const ready: number[] = [];
      const logins: number[] = [];
      const poll = (async () => {
        while (Date.now() < stop) {
          answers.push((await fetch(`${own.baseUrl}/api/scenes`)).status);
          if (answers.length % 10 === 0) ready.push((await fetch(`${own.baseUrl}/readyz`)).status);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const flood = (async () => {
        while (Date.now() < stop) {
          const res = await fetch(`${own.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"a\\u0000b","password":"xxxxxxxxxxxxxxxx"}' });
          logins.push(res.status);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      await Promise.all([poll, flood]);
      expect(logins.length).toBeGreaterThanOrEqual(15);
      // Refused for what it is (400), then limited (429) once the address spent its budget.
      expect(logins.every((s) => s === 400 || s === 429)).toBe(true);
      expect(answers.length).toBeGreaterThan(50);
      expect(answers.filter((s) => s !== 200)).toEqual([]);
      expect(ready.filter((s) => s !== 200)).toEqual([]);
      expect(own.app.availability.available).toBe(true);
    } finally {
      await own.close();
    }
  });
});

describe('socket events keep the same rule', () => {
  it('hostile registrations and reports are refused in the ack; the node stays up and a good registration works after', async () => {
    const { io } = await import('socket.io-client');
    const own = await startTestApp({ database: app.db, hub: true });
    const socket = io(own.baseUrl, { transports: ['websocket'], reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
      const register = (payload: unknown) =>
        new Promise<{ error?: string; data?: unknown }>((resolve) => (socket.emit as (...args: unknown[]) => void)('screen:register', payload, resolve));
      const hostile: unknown[] = [
        { kind: 'wall', name: 'lobby\u0000' },
        { kind: 'wall', sceneSlug: 'a\u0000b' },
        { kind: 'wall', group: 'g\u0085' },
        { kind: 'kiosk', position: 1, name: 'x'.repeat(10_000) },
        { kind: 'wall', name: '\u202Eevil' },
        { kind: 'kiosk', position: '1' },
        { kind: 'wall', device: 'short' },
        'not an object',
        null,
      ];
      for (const payload of hostile) {
        const answer = await register(payload);
        expect(answer.error, JSON.stringify(payload).slice(0, 80)).toBeTruthy();
      }
      const health = await new Promise<{ error?: string }>((resolve) =>
        (socket.emit as (...args: unknown[]) => void)('screen:health', { streams: [{ stream_id: 2 ** 40, state: 'playing' }] }, resolve),
      );
      expect(health.error).toBeTruthy();
      const good = await register({ kind: 'wall', name: 'Lobby wall' });
      expect(good.error).toBeUndefined();
      // A message over the socket's size limit (16 KB) ends that socket, not the node.
      const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      (socket.emit as (...args: unknown[]) => void)('screen:register', { kind: 'wall', name: 'x'.repeat(100_000) }, () => undefined);
      expect(await gone).toBe('transport close');
      expect((await fetch(`${own.baseUrl}/api/scenes`)).status).toBe(200);
      expect(own.app.availability.available).toBe(true);
    } finally {
      socket.close();
      await own.close();
    }
  });
});
