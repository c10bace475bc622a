/**
 * Process configuration from the environment, parsed once at start. Every variable is listed
 * in the README; a bad value stops the process with a readable message instead of a surprise.
 */
import type { AlertSettings } from './modules/alerts/alerts.jobs.ts';
import path from 'node:path';
import { z } from 'zod';
import { parseAllowHosts } from './http/safe-fetch.ts';
import type { JobSettings } from './jobs/queue.ts';
import type { PlatformSettings } from './modules/platforms/settings.ts';
import type { QualitySettings } from './modules/quality/quality.jobs.ts';
import { DEFAULT_FLIP_LEAD_MS } from './modules/programme/screen-feature.ts';

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

const port = z.coerce.number().int().min(0).max(65535);
const optionalText = z.string().optional().or(z.literal('').transform(() => undefined));

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
  SCENE_FLIP_LEAD_MS: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_FLIP_LEAD_MS),
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
  ADMIN_API_TOKEN: z
    .string()
    .min(24, 'must be at least 24 characters')
    .max(512, 'must be at most 512 characters')
    .regex(/^[\x21-\x7E]+$/, 'must be visible ASCII characters (what an Authorization header carries)')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TRUST_PROXY: flag(false),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().or(z.literal('').transform(() => undefined)),
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional().or(z.literal('').transform(() => undefined)),
  FETCH_ALLOW_HOSTS: z.string().default(''),
  WEATHER_API_KEY: z.string().optional().or(z.literal('').transform(() => undefined)),
  WEATHER_ENABLED: flag(true),
  WEATHER_BASE_URL: z.url().default('https://api.openweathermap.org'),
  YOUTUBE_API_KEY: optionalText,
  YOUTUBE_API_BASE_URL: z.url().default('https://www.googleapis.com'),
  YOUTUBE_OEMBED_URL: z.url().default('https://www.youtube.com/oembed'),
  TWITCH_CLIENT_ID: optionalText,
  TWITCH_CLIENT_SECRET: optionalText,
  TWITCH_API_BASE_URL: z.url().default('https://api.twitch.tv'),
  TWITCH_AUTH_BASE_URL: z.url().default('https://id.twitch.tv'),
  VIMEO_TOKEN: optionalText,
  VIMEO_API_BASE_URL: z.url().default('https://api.vimeo.com'),
  VIMEO_OEMBED_URL: z.url().default('https://vimeo.com/api/oembed.json'),
  DISCOVERY_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  JOBS_ENABLED: flag(true),
  JOBS_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(600).default(30),
  JOBS_MONITOR_SECONDS: z.coerce.number().int().min(1).max(300).optional().or(z.literal('').transform(() => undefined)),
  QUALITY_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  QUALITY_REANALYZE_HOURS: z.coerce.number().min(0.1).max(24 * 30).default(6),
  QUALITY_RECHECK_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
  QUALITY_SWEEP_CRON: z.string().trim().default('*/15 * * * *'),
  ALERT_CHECK_SECONDS: z.coerce.number().min(0.2).max(300).default(5),
  ALERT_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  ALERT_RETRY_SECONDS: z.coerce.number().min(0.5).max(3600).default(10),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(1).max(600).default(20),
  NODE_ENV: z.string().default('development'),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number | undefined;
  dbPoolMax: number;
  /** How long after a commit screens show a change (all at once). */
  sceneFlipLeadMs: number;
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
  /** METRICS_TOKEN (a bearer token for GET /metrics) or METRICS_PORT (the metrics on a port of their own); off without either. */
  metrics: { token: string | undefined; port: number | undefined };
  /** Hosts the safe fetcher may reach although they are not public: for tests' fixture servers only. */
  fetchAllowHosts: string[];
  weather: { apiKey: string | undefined; enabled: boolean; baseUrl: string };
  /** Discovery's platform credentials and base URLs (tests point these at fixture servers). */
  platforms: PlatformSettings;
  /** Quality analysis (QUALITY_*, FFMPEG_PATH, FFPROBE_PATH). */
  quality: QualitySettings;
  /** Alerts: how often conditions are looked at, attempts per message and the first retry's delay (doubling after). */
  alerts: AlertSettings;
  /** Background jobs (pg-boss): whether this node works jobs, how many discovery runs at once, heartbeat and monitor periods. */
  jobs: JobSettings;
  /** SHUTDOWN_GRACE_SECONDS: on SIGTERM/SIGINT the node drains (screens, requests, jobs) and exits within this long. */
  shutdownGraceSeconds: number;
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
    sceneFlipLeadMs: e.SCENE_FLIP_LEAD_MS,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    webDist: path.resolve(e.WEB_DIST),
    redisUrl: e.REDIS_URL,
    allowedOrigins: e.ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    adminApiToken: e.ADMIN_API_TOKEN,
    trustProxy: e.TRUST_PROXY,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    fetchAllowHosts: parseAllowHosts(e.FETCH_ALLOW_HOSTS),
    weather: { apiKey: e.WEATHER_API_KEY, enabled: e.WEATHER_ENABLED, baseUrl: e.WEATHER_BASE_URL },
    platforms: {
      youtube: { apiKey: e.YOUTUBE_API_KEY, baseUrl: e.YOUTUBE_API_BASE_URL, oembedUrl: e.YOUTUBE_OEMBED_URL },
      twitch: { clientId: e.TWITCH_CLIENT_ID, clientSecret: e.TWITCH_CLIENT_SECRET, apiBaseUrl: e.TWITCH_API_BASE_URL, authBaseUrl: e.TWITCH_AUTH_BASE_URL },
      vimeo: { token: e.VIMEO_TOKEN, apiBaseUrl: e.VIMEO_API_BASE_URL, oembedUrl: e.VIMEO_OEMBED_URL },
    },
    quality: {
      concurrency: e.QUALITY_CONCURRENCY,
      reanalyzeHours: e.QUALITY_REANALYZE_HOURS,
      recheckSeconds: e.QUALITY_RECHECK_SECONDS,
      tools: { ffmpeg: e.FFMPEG_PATH, ffprobe: e.FFPROBE_PATH },
      sampleSeconds: 8,
      sweepCron: e.QUALITY_SWEEP_CRON === 'off' ? null : e.QUALITY_SWEEP_CRON,
    },
    alerts: { checkSeconds: e.ALERT_CHECK_SECONDS, attempts: e.ALERT_DELIVERY_ATTEMPTS, retryDelaySeconds: e.ALERT_RETRY_SECONDS, retryDelayMaxSeconds: 600 },
    jobs: {
      enabled: e.JOBS_ENABLED,
      discoveryConcurrency: e.DISCOVERY_CONCURRENCY,
      heartbeatSeconds: e.JOBS_HEARTBEAT_SECONDS,
      monitorSeconds: e.JOBS_MONITOR_SECONDS,
    },
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    production: e.NODE_ENV === 'production',
  };
}
