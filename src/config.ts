/**
 * Process configuration from the environment, parsed once at start. Every variable is listed
 * in the README; a bad value stops the process with a readable message instead of a surprise.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseAllowHosts } from './http/safe-fetch.ts';

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

const port = z.coerce.number().int().min(0).max(65535);

const EnvSchema = z.object({
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
  ADMIN_USERNAME: z.string().trim().min(1).max(64).default('admin'),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional().or(z.literal('').transform(() => undefined)),
  ADMIN_API_TOKEN: z.string().min(24, 'must be at least 24 characters').optional().or(z.literal('').transform(() => undefined)),
  TRUST_PROXY: flag(false),
  FETCH_ALLOW_HOSTS: z.string().default(''),
  WEATHER_API_KEY: z.string().optional().or(z.literal('').transform(() => undefined)),
  WEATHER_ENABLED: flag(true),
  WEATHER_BASE_URL: z.url().default('https://api.openweathermap.org'),
  NODE_ENV: z.string().default('development'),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number | undefined;
  dbPoolMax: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  seedDemo: boolean;
  webDist: string;
  redisUrl: string | undefined;
  /** Browser origins besides our own that may open sockets and send cookie-authenticated writes. */
  allowedOrigins: string[];
  adminUsername: string;
  adminPassword: string | undefined;
  adminApiToken: string | undefined;
  trustProxy: boolean;
  /** Hosts the safe fetcher may reach although they are not public: for tests' fixture servers only. */
  fetchAllowHosts: string[];
  weather: { apiKey: string | undefined; enabled: boolean; baseUrl: string };
  production: boolean;
};

/** Reads the configuration; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
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
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    adminApiToken: e.ADMIN_API_TOKEN,
    trustProxy: e.TRUST_PROXY,
    fetchAllowHosts: parseAllowHosts(e.FETCH_ALLOW_HOSTS),
    weather: { apiKey: e.WEATHER_API_KEY, enabled: e.WEATHER_ENABLED, baseUrl: e.WEATHER_BASE_URL },
    production: e.NODE_ENV === 'production',
  };
}
