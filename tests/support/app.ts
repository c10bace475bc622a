/** The real app on a real HTTP server (port 0) over a fresh database, plus a small JSON client. */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApp, type HubAttachment, type NatureWall } from '../../src/app.ts';
import { readModuleSettings } from '../../src/config.ts';
import { alertsModule } from '../../src/modules/alerts/alerts.module.ts';
import { backupsModule } from '../../src/modules/backups/backups.module.ts';
import { authModule } from '../../src/modules/auth/auth.module.ts';
import { discoveryModule } from '../../src/modules/discovery/discovery.module.ts';
import { evaluationModule } from '../../src/modules/evaluation/evaluation.module.ts';
import type { AnyModule, ModuleDefinition } from '../../src/modules/module.ts';
import { platformsModule } from '../../src/modules/platforms/platforms.module.ts';
import { programmeModule } from '../../src/modules/programme/programme.module.ts';
import { qualityModule } from '../../src/modules/quality/quality.module.ts';
import { scenesModule } from '../../src/modules/scenes/scenes.module.ts';
import { screensModule } from '../../src/modules/screens/screens.module.ts';
import { weatherModule } from '../../src/modules/weather/weather.module.ts';
import type { Orm } from '../../src/db.ts';
import { initORM } from '../../src/orm.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { postgresAdapter, redisAdapter } from '../../src/realtime/adapter.ts';
import type { DomainChange } from '../../src/domain/changes.ts';
import type { Hub } from '../../src/realtime/hub.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { DEFAULT_JOB_SETTINGS, startJobQueue, type JobQueue, type JobSettings } from '../../src/jobs/queue.ts';
import { responseChecker, type ResponseCheck } from './contract.ts';
import { answerUnreadableRequests } from '../../src/http/protocol.ts';

export interface TestResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  baseUrl: string;
  orm: Orm;
  db: TestDatabase;
  app: NatureWall;
  /** The scene controller, when started with `hub`. */
  hub: Hub | undefined;
  /** Every change the app published, in order. */
  published: DomainChange[];
  /** The job queue (pg-boss), when started with `jobs`. */
  queue: JobQueue | undefined;
  /**
   * JSON request as an admin (the ADMIN_API_TOKEN bearer); the answer's body is typed as the
   * caller expects (tests assert it anyway). Every answer is checked against the served OpenAPI
   * document first: a status or a body it does not declare fails the test.
   */
  request<T = unknown>(method: string, path: string, body?: unknown, init?: RequestInit): Promise<TestResponse<T>>;
  /** The same request with no credentials at all (a visitor, a screen). */
  anonymous<T = unknown>(method: string, path: string, body?: unknown, init?: RequestInit): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

/** The ADMIN_API_TOKEN every test app accepts. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const adminHeaders = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** The modules whose settings tests change, by name. */
const TUNABLE = { backups: backupsModule, screens: screensModule, alerts: alertsModule, auth: authModule, discovery: discoveryModule, evaluation: evaluationModule, platforms: platformsModule, programme: programmeModule, quality: qualityModule, scenes: scenesModule, weather: weatherModule };
type SettingsOfModule<M> = M extends ModuleDefinition<infer S, infer _A> ? S : never;
/** Per module, the settings a test changes (the rest keep their defaults). */
export type SettingsOverrides = { [K in keyof typeof TUNABLE]?: Partial<SettingsOfModule<(typeof TUNABLE)[K]>> };

export interface TestAppOptions {
  logger?: Logger;
  /**
   * Start the Socket.IO hub; `cluster: true` uses the Postgres adapter like production,
   * `redisUrl` the Redis Streams adapter.
   */
  hub?: boolean | (Partial<HubAttachment> & { cluster?: boolean; redisUrl?: string });
  /** Share another test app's database (a second node). */
  database?: TestDatabase;
  appOptions?: Partial<Parameters<typeof createApp>[0]>;
  /** Module settings besides the defaults (and the admin token every test uses). */
  settings?: SettingsOverrides;
  /** Start the job queue (pg-boss) and this node's workers; settings override the defaults. */
  jobs?: boolean | Partial<JobSettings>;
  /** Do not check answers against the OpenAPI document (a test of broken answers on purpose). */
  skipContractCheck?: boolean;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.database ?? (await createTestDatabase());
  const ownsDatabase = !options.database;
  const logger = options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const orm = await initORM({ url: db.url, logger });
  const published: DomainChange[] = [];
  const jobSettings: JobSettings | undefined = options.jobs
    ? { ...DEFAULT_JOB_SETTINGS, heartbeatSeconds: 10, monitorSeconds: 1, ...(options.jobs === true ? {} : options.jobs) }
    : undefined;
  const queue = jobSettings ? await startJobQueue({ url: db.url, logger, settings: jobSettings, max: 3 }) : undefined;
  const overrides: SettingsOverrides = {
    ...options.settings,
    auth: { adminApiToken: TEST_ADMIN_TOKEN, ...options.settings?.auth },
    // Suites test screens as a closed-LAN venue has them (every wall and kiosk address is one);
    // enrolment's own suites (tests/realtime/enrolment.test.ts) turn approval on.
    screens: { approval: false, ...options.settings?.screens },
  };
  const settings = Object.fromEntries(
    Object.entries(overrides).map(([name, override]) => [name, { ...(readModuleSettings(TUNABLE[name as keyof typeof TUNABLE] as AnyModule) as object), ...override }]),
  );
  const app = createApp({
    ...(queue ? { queue, jobs: jobSettings } : {}),
    orm,
    logger,
    settings,
    onChanges: (changes) => published.push(...changes),
    // No test resolves a real name: the network beyond this machine is never a target.
    fetchResolver: async (hostname) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests resolve no names)`), { code: 'ENOTFOUND' });
    },
    ...options.appOptions,
  });
  const server = http.createServer(app.koa.callback());
  // Every connection, upgraded ones too (closeAllConnections() leaves WebSockets alone): a
  // client that lingers must not keep close() waiting on the HTTP server.
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  answerUnreadableRequests(server, logger);
  let hub: Hub | undefined;
  if (options.hub) {
    const { cluster, redisUrl, ...hubOptions } = options.hub === true ? { cluster: false, redisUrl: undefined } : options.hub;
    const adapter = redisUrl ? await redisAdapter(redisUrl, logger) : cluster ? postgresAdapter(db.url, logger) : undefined;
    hub = await app.attachHub({
      server,
      ...(adapter ? { adapter } : {}),
      presenceDebounceMs: 50,
      ...hubOptions,
    });
  }
  await app.startJobs();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Every answer is checked against the document the app serves (tests/support/contract.ts).
  let checker: Promise<ResponseCheck> | undefined;
  const checked = async <T>(method: string, path: string, answer: TestResponse<T>): Promise<TestResponse<T>> => {
    if (options.skipContractCheck) return answer;
    checker ??= fetch(`${baseUrl}/api/openapi.json`).then(async (res) => responseChecker((await res.json()) as Parameters<typeof responseChecker>[0]));
    const problem = (await checker)(method, path, answer.status, answer.headers.get('content-type'), answer.body);
    if (problem) throw new Error(`Contract drift: ${problem}\nbody: ${JSON.stringify(answer.body).slice(0, 2000)}`);
    return answer;
  };

  return {
    baseUrl,
    orm,
    db,
    app,
    hub,
    published,
    queue,
    request: async <T>(method: string, path: string, body?: unknown, init?: RequestInit) =>
      checked(method, path, await send<T>(baseUrl, method, path, body, { ...init, headers: { ...adminHeaders, ...(init?.headers as Record<string, string>) } })),
    anonymous: async <T>(method: string, path: string, body?: unknown, init?: RequestInit) => checked(method, path, await send<T>(baseUrl, method, path, body, init)),
    async close() {
      app.stop();
      server.closeAllConnections();
      const serverClosed = step('hub and HTTP server', hub ? hub.close() : new Promise<void>((resolve) => server.close(() => resolve())));
      for (const socket of connections) socket.destroy();
      await serverClosed;
      await step('job queue', queue?.stop({ graceful: false }));
      await step('ORM', orm.close());
      if (ownsDatabase) await step('test database', db.drop());
    },
  };
}

/** Awaits one step of a test app's close, and says which one if it hangs (CI logs show only the hook's timeout). */
async function step<T>(name: string, work: Promise<T> | undefined): Promise<T | undefined> {
  const slow = setTimeout(() => process.stderr.write(`test app close: "${name}" still waiting after 15 s\n`), 15_000);
  try {
    return await work;
  } finally {
    clearTimeout(slow);
  }
}

async function send<T>(baseUrl: string, method: string, path: string, body?: unknown, init?: RequestInit): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...(init?.headers as Record<string, string>) };
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    ...init,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
