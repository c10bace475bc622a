/**
 * Static files go out as the build compressed them: the .br or .gz beside each asset, picked by
 * Accept-Encoding, byte for byte — never compressed again per request (issue 30: brotli of the
 * 362 KB hls.js took 128 ms of a core on every cold load).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import compress from 'koa-compress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webApp } from '../../src/http/web.ts';

let dir: string;
let server: http.Server;
let base: string;
const script = Buffer.from(`/* an asset */ ${'console.log("nature");\n'.repeat(400)}`);
const brotli = brotliCompressSync(script);
const gzip = gzipSync(script, { level: 9 });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nw-web-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(path.join(dir, 'assets/app-abc.js'), script);
  await writeFile(path.join(dir, 'assets/app-abc.js.br'), brotli);
  await writeFile(path.join(dir, 'assets/app-abc.js.gz'), gzip);
  await writeFile(path.join(dir, 'assets/plain-abc.js'), script); // no compressed siblings
  const koa = new Koa();
  koa.use(compress({ threshold: 1024 })); // as the app has it: an answer already encoded is left alone
  koa.use(webApp(dir));
  server = http.createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Raw bytes as sent (no decoding: fetch would undo the encoding). */
function get(file: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${file}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('static assets', () => {
  it.each([
    ['br, gzip', 'br', brotli],
    ['gzip', 'gzip', gzip],
  ])('Accept-Encoding: %s gets the build\'s own %s file, byte for byte', async (accept, encoding, bytes) => {
    const res = await get('/assets/app-abc.js', accept);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.body.equals(bytes)).toBe(true);
  });

  it('a client that takes no encoding gets the file as it is', async () => {
    const res = await get('/assets/app-abc.js', 'identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(script)).toBe(true);
  });
});
