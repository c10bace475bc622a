/** The real app on a real HTTP server (port 0) over a fresh database, plus a small JSON client. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.ts';
import { initORM, type Orm } from '../../src/db.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { noopPublisher, type ChangePublisher, type DomainChange } from '../../src/realtime/changes.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export interface TestResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  baseUrl: string;
  orm: Orm;
  db: TestDatabase;
  /** Every change the app published, in order. */
  published: DomainChange[];
  /** JSON request; the answer's body is typed as the caller expects (tests assert it anyway). */
  request<T = unknown>(method: string, path: string, body?: unknown, init?: RequestInit): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export async function startTestApp(options: { publisher?: ChangePublisher; logger?: Logger } = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const logger = options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const orm = await initORM({ url: db.url, logger });
  const published: DomainChange[] = [];
  const inner = options.publisher ?? noopPublisher;
  const publisher: ChangePublisher = {
    async publish(changes) {
      published.push(...changes);
      await inner.publish(changes);
    },
  };
  const app = createApp({ orm, logger, publisher });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    orm,
    db,
    published,
    async request<T>(method: string, path: string, body?: unknown, init?: RequestInit): Promise<TestResponse<T>> {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        ...init,
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed as T, headers: res.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await orm.close();
      await db.drop();
    },
  };
}
