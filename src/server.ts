/**
 * Entry point: start the database (embedded when DATABASE_URL is unset), migrate, seed, listen.
 * SIGINT/SIGTERM drain the HTTP server, close the hub, its adapter and the pools, then stop the
 * embedded cluster. A database outage never ends the process: the app answers 503 and
 * recovers by itself (see README, "Operations").
 */
import http from 'node:http';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createPool } from './database/pool.ts';
import { withStartupLock } from './database/startup-lock.ts';
import { initORM, migrate } from './db.ts';
import type { EmbeddedDatabase } from './embedded-postgres.ts';
import { createLogger, framed } from './logger.ts';
import type { LimiterStore } from './http/rate-limit.ts';
import { ensureInitialAdmin } from './modules/auth/admins.service.ts';
import { seed } from './modules/seed/seed.ts';
import { postgresAdapter, redisAdapter } from './realtime/adapter.ts';
import { startJobQueue } from './jobs/queue.ts';
import { startMetricsServer } from './http/metrics.ts';

const config = loadConfig();
// A person at a terminal reads lines; everything else (containers, files, CI) gets JSON.
const atTerminal = process.stdout.isTTY === true;
const logger = createLogger(config.logLevel, undefined, { pretty: atTerminal });

process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

let embedded: EmbeddedDatabase | undefined;

async function main(): Promise<void> {
  if (!config.databaseUrl) {
    // Loaded only when used: embedded-postgres installs exit hooks of its own on import.
    const { startEmbeddedPostgres } = await import('./embedded-postgres.ts');
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      logger,
      onGiveUp: (reason) => {
        logger.fatal(reason);
        process.exit(1);
      },
    });
  }
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const orm = await initORM({ url: databaseUrl, poolMax: config.dbPoolMax, logger });
  // Replicas started together on an empty database take turns here (one advisory lock).
  await withStartupLock(databaseUrl, async () => {
    const applied = await migrate(orm);
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
    await seed(orm.em.fork(), { demo: config.seedDemo, logger });
    const first = await ensureInitialAdmin(orm.em.fork(), { username: config.adminUsername, password: config.adminPassword, logger });
    if (first && atTerminal) {
      process.stdout.write(`\n${framed([`Sign in at /login as ${first.created.username}`, `Password: ${first.created.password}   (shown once)`, `Change it: npm run admin -- passwd ${first.created.username}`])}\n\n`);
    }
  });

  const adapter = config.redisUrl ? await redisAdapter(config.redisUrl, logger) : postgresAdapter(databaseUrl, logger);
  // Rate-limit counters: shared through the adapter's store when several nodes may run.
  const limiterPool =
    config.databaseUrl && !adapter.redisClient ? createPool({ connectionString: databaseUrl, max: 2, name: 'rate-limits', logger }) : undefined;
  const limiterStore: LimiterStore = adapter.redisClient
    ? { kind: 'redis', client: adapter.redisClient }
    : limiterPool
      ? { kind: 'postgres', pool: limiterPool }
      : { kind: 'memory' };

  // The job queue (pg-boss, schema pgboss in the same database; it creates its own tables).
  const queue = await startJobQueue({ url: databaseUrl, logger, settings: config.jobs });

  const app = createApp({
    orm,
    queue,
    jobs: config.jobs,
    platforms: config.platforms,
    quality: config.quality,
    logger,
    webDist: config.webDist,
    adminApiToken: config.adminApiToken,
    allowedOrigins: config.allowedOrigins,
    limiterStore,
    trustProxy: config.trustProxy,
    fetchAllowHosts: config.fetchAllowHosts,
    weather: config.weather,
    flipLeadMs: config.sceneFlipLeadMs,
    // With a port of their own, the metrics are not on the main port at all.
    metricsToken: config.metrics.port ? undefined : config.metrics.token,
  });
  const metricsServer = config.metrics.port ? await startMetricsServer(config.metrics.port) : undefined;
  if (metricsServer) logger.info({ port: config.metrics.port }, 'metrics on their own port');
  const server = http.createServer(app.koa.callback());
  server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
  const hub = await app.attachHub({ server, adapter, flipLeadMs: config.sceneFlipLeadMs });
  await app.startJobs();

  let closing: Promise<void> | undefined;
  const drain = () =>
    (closing ??= (async () => {
      logger.info('shutting down');
      app.stop();
      // Screens are disconnected (they reconnect to another node), the server closes, then the
      // adapter's pool: nothing of ours is connected when the database stops.
      const closed = hub.close();
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 5_000).unref();
      metricsServer?.close();
      await closed;
      // Running jobs get a few seconds to finish; what does not is retried by another node. pg-boss
      // says 'stopped' once its pool is closed: only then may the database go.
      await new Promise<void>((resolve) => {
        const done = setTimeout(resolve, 10_000);
        queue.once('stopped', () => (clearTimeout(done), resolve()));
        queue.stop({ graceful: true, timeout: 5_000 }).catch(() => resolve());
      });
      await limiterPool?.end();
      await orm.close();
    })());
  embedded?.setBeforeStop(drain);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'received signal');
    try {
      await drain();
      await embedded?.stop();
      logger.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    { port, database: embedded ? 'embedded' : 'DATABASE_URL', adapter: adapter.name },
    `Nature Wall is running at http://localhost:${port}`,
  );
}

main().catch(async (error: unknown) => {
  logger.fatal({ err: error }, error instanceof Error ? error.message : 'failed to start');
  await embedded?.stop().catch(() => undefined); // never leave an orphaned cluster behind
  process.exit(1);
});
