/**
 * Process configuration from the environment, parsed once at start: the variables the process
 * itself reads (port, database, logging, the cluster's parts) and whatever settings the modules
 * it is handed declare (each module's `settings`). A bad value stops the process with one
 * readable message naming every bad variable. Every variable is listed in the README.
 * This file imports no feature: the module list comes from the caller (src/server.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import { flag, optionalText, port } from './env.ts';
import { parseAllowHosts } from './http/safe-fetch.ts';
import type { JobSettings } from './jobs/queue.ts';
import type { AnyModule } from './modules/module.ts';

const CoreEnv = {
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().min(1).default('./.data'),
  EMBEDDED_PG_PORT: port.optional().or(z.literal('').transform(() => undefined)),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: flag(true),
  WEB_DIST: z.string().min(1).default('dist/web'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ALLOWED_ORIGINS: z.string().default(''),
  TRUST_PROXY: flag(false),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional().or(z.literal('').transform(() => undefined)),
  FETCH_ALLOW_HOSTS: z.string().default(''),
  JOBS_ENABLED: flag(true),
  JOBS_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(600).default(30),
  JOBS_MONITOR_SECONDS: z.coerce.number().int().min(1).max(300).optional().or(z.literal('').transform(() => undefined)),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(1).max(600).default(20),
  NODE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1–32 letters, digits, _ or - (the name the load balancer knows this node by)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SCREEN_REBALANCE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(15),
  NODE_ENV: optionalText,
};

/** Every variable a process reads: the core's and those `modules` declare (the README's table lists them all). */
export function declaredVariables(modules: readonly AnyModule[]): string[] {
  return [...Object.keys(CoreEnv), ...modules.flatMap((m) => Object.keys(m.settings?.env ?? {}))];
}

/** Each module's settings, by module name (what `createApp` hands each module). */
export type ModuleSettings = Readonly<Record<string, unknown>>;

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number | undefined;
  dbPoolMax: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  seedDemo: boolean;
  webDist: string;
  redisUrl: string | undefined;
  /** Browser origins besides our own that may open sockets and send cookie-authenticated writes. */
  allowedOrigins: string[];
  trustProxy: boolean;
  /** METRICS_TOKEN (a bearer token for GET /metrics) or METRICS_PORT (the metrics on a port of their own); off without either. */
  metrics: { token: string | undefined; port: number | undefined };
  /** Hosts the safe fetcher may reach although they are not public: for tests' fixture servers only. */
  fetchAllowHosts: string[];
  /** Background jobs (pg-boss): whether this node works jobs, heartbeat and monitor periods. */
  jobs: JobSettings;
  /** SHUTDOWN_GRACE_SECONDS: on SIGTERM/SIGINT the node drains (screens, requests, jobs) and exits within this long. */
  shutdownGraceSeconds: number;
  /** NODE_NAME: the name the load balancer knows this node by; Socket.IO sessions get a cookie naming it (long-polling stickiness). */
  nodeName: string | undefined;
  /** SCREEN_REBALANCE_SECONDS: how long a node holds clearly more than its share of screens before it moves some (0: never). */
  rebalanceSeconds: number;
  production: boolean;
  /** The modules' settings, by module name. */
  settings: ModuleSettings;
};

function parseOrThrow<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  throw new Error(`Invalid configuration: ${problems}`);
}

/** A module's settings from an environment (its defaults from an empty one). */
export function readModuleSettings(module: AnyModule, env: NodeJS.ProcessEnv = {}): unknown {
  if (!module.settings) return undefined;
  return module.settings.read(parseOrThrow(z.object(module.settings.env), env) as Record<string, unknown>);
}

/** Reads the configuration of the process and of `modules`; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, modules: readonly AnyModule[] = []): Config {
  const declared: Record<string, z.ZodType> = { ...CoreEnv };
  for (const module of modules) {
    for (const [name, schema] of Object.entries(module.settings?.env ?? {})) {
      if (name in declared) throw new Error(`${name} is declared twice (module ${module.name})`);
      declared[name] = schema;
    }
  }
  const e = parseOrThrow(z.object(declared), env) as Record<string, unknown> & z.infer<z.ZodObject<typeof CoreEnv>>;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    dbPoolMax: e.DB_POOL_MAX,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    webDist: path.resolve(e.WEB_DIST),
    redisUrl: e.REDIS_URL,
    allowedOrigins: e.ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    fetchAllowHosts: parseAllowHosts(e.FETCH_ALLOW_HOSTS),
    jobs: { enabled: e.JOBS_ENABLED, heartbeatSeconds: e.JOBS_HEARTBEAT_SECONDS, monitorSeconds: e.JOBS_MONITOR_SECONDS },
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    nodeName: e.NODE_NAME,
    rebalanceSeconds: e.SCREEN_REBALANCE_SECONDS,
    production: e.NODE_ENV === 'production',
    settings: Object.fromEntries(modules.filter((m) => m.settings).map((m) => [m.name, m.settings!.read(e)])),
  };
}

/** One module's settings out of a configuration, typed. */
export function settingsOf<S>(config: Pick<Config, 'settings'>, module: AnyModule & { settings?: { read(env: Record<string, unknown>): S } }): S {
  return (config.settings[module.name] ?? readModuleSettings(module)) as S;
}
