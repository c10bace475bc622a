/**
 * Entry point: start the database (embedded when DATABASE_URL is unset), migrate, seed, listen.
 * SIGINT/SIGTERM drain the node within SHUTDOWN_GRACE_SECONDS — /readyz 503, screens told to
 * reconnect elsewhere, requests finished, jobs finished or handed back — close the hub, its
 * adapter and the pools, then stop the embedded cluster. A database outage never ends the process: the app answers 503 and
 * recovers by itself (see docs/operations.md).
 */
import http from 'node:http';
import { createApp } from './app.ts';
import { loadConfig, settingsOf } from './config.ts';
import { createPool } from './database/pool.ts';
import { withStartupLock } from './database/startup-lock.ts';
import { initORM, migrate } from './orm.ts';
import type { EmbeddedDatabase } from './embedded-postgres.ts';
import { createLogger, framed } from './logger.ts';
import type { LimiterStore } from './http/rate-limit.ts';
import { ensureInitialAdmin } from './modules/auth/admins.service.ts';
import { authModule } from './modules/auth/auth.module.ts';
import { MODULES } from './modules/index.ts';
import { seed } from './modules/seed/seed.ts';
import { postgresAdapter, redisAdapter } from './realtime/adapter.ts';
import { startJobQueue } from './jobs/queue.ts';
import { startMetricsServer } from './http/metrics.ts';
import { answerUnreadableRequests } from './http/protocol.ts';
import { shutdownPlan } from './shutdown-plan.ts';

const config = loadConfig(process.env, MODULES);
const auth = settingsOf(config, authModule);
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
      ownProcessGroup: true, // Ctrl-C reaches the server alone, which stops it after draining
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
    const first = await ensureInitialAdmin(orm.em.fork(), { username: auth.adminUsername, password: auth.adminPassword, logger });
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
    settings: config.settings,
    logger,
    webDist: config.webDist,
    allowedOrigins: config.allowedOrigins,
    limiterStore,
    trustProxy: config.trustProxy,
    fetchAllowHosts: config.fetchAllowHosts,
    // With a port of their own, the metrics are not on the main port at all.
    metricsToken: config.metrics.port ? undefined : config.metrics.token,
  });
  const metricsServer = config.metrics.port ? await startMetricsServer(config.metrics.port) : undefined;
  if (metricsServer) logger.info({ port: config.metrics.port }, 'metrics on their own port');
  const server = http.createServer(app.koa.callback());
  server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
  answerUnreadableRequests(server, logger);
  const hub = await app.attachHub({ server, adapter, nodeName: config.nodeName, shares: { holdMs: config.rebalanceSeconds * 1_000 } });
  await app.startJobs();

  // The drain (SIGTERM, SIGINT; docs/operations.md, "Running a cluster"): not ready, screens sent elsewhere,
  // requests and jobs finished or handed back, then everything of ours closed before the
  // database stops — all within SHUTDOWN_GRACE_SECONDS.
  const plan = shutdownPlan(config.shutdownGraceSeconds);
  let closing: Promise<void> | undefined;
  const drain = () =>
    (closing ??= (async () => {
      const began = Date.now();
      const until = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, began + ms - Date.now())).unref());
      app.drain.begin(); // /readyz 503; every answer closes its connection
      const screens = hub.drain(plan.spreadMs);
      logger.info({ graceSeconds: config.shutdownGraceSeconds, screensWithinMs: screens.spreadMs }, 'draining: not ready, screens moving to other nodes');
      // No new jobs from now; running ones get until the end of the drain, and what is still
      // running then is handed back to the queue (another node retries it). pg-boss resolves once
      // its pool is closed.
      const jobsStopped = Promise.race([
        queue.stop({ graceful: true, timeout: Math.max(1_000, plan.workMs) }).catch((err: unknown) => logger.warn({ err }, 'job queue did not stop cleanly')),
        until(plan.workMs + 1_000),
      ]);
      // Screens leave at random moments of their window, each once connected elsewhere. Until
      // they are gone and no request is in flight the node still answers — /readyz with 503 for
      // whoever polls it — then it stops listening: a proxy's next connection is refused and goes
      // to another node. With other nodes to go to it waits for its screens as long as the work
      // may run, less a second for requests still in flight: a busy cluster takes them more slowly
      // than they are told (at 3,000 screens, a restart's 1,500 were told within the 10 s window and
      // some had not moved at 11 s), and none should be cut off before it moved. Alone, they have
      // nowhere to go, and a quarter and a second past the window is enough.
      const screensWait = screens.elsewhere ? plan.screensMs : Math.min(screens.spreadMs * 1.25 + 1_000, plan.unreadyMs);
      await Promise.race([Promise.all([screens.gone, app.drain.idle()]), until(screensWait)]);
      server.close();
      await Promise.race([app.drain.idle(), until(plan.workMs)]);
      if (app.drain.inFlight > 0) logger.warn({ requests: app.drain.inFlight }, 'requests still running at the end of the grace period were cut off');
      server.closeAllConnections();
      await jobsStopped;
      app.stop();
      // The sockets left (a screen that ignored the notice reconnects by itself), then the
      // adapter's connection, the pools: nothing of ours is connected when the database stops.
      await hub.close();
      metricsServer?.close();
      await limiterPool?.end();
      await orm.close();
      logger.info({ ms: Date.now() - began }, 'drained');
    })());
  embedded?.setBeforeStop(drain);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return logger.info({ signal }, 'already stopping');
    stopping = true;
    logger.info({ signal }, 'received signal');
    // A last resort: every step above is bounded, but the process exits within the grace whatever hangs.
    setTimeout(() => {
      logger.error({ graceSeconds: config.shutdownGraceSeconds }, 'did not stop within SHUTDOWN_GRACE_SECONDS; exiting');
      process.exit(1);
    }, plan.graceMs).unref();
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
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue: in a rolling deploy a node takes a stopping node's share of screens
    // within a few seconds, and connections the kernel cannot queue time out at the proxy.
    server.listen({ port: config.port, host: config.host, backlog: 4096 }, () => resolve());
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
