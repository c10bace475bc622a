/**
 * Whether PostgreSQL can be reached, as the whole node sees it. An outage is noticed by any
 * failed query (or by the background probe), logged once, and turned into 503s; while it lasts
 * a probe runs every second, and the first success logs once more and tells the listeners
 * (the hub resyncs its screens). Requests that need the database fail fast meanwhile instead
 * of each waiting for a connection timeout.
 */
import type { Logger } from '../logger.ts';

/** Thrown (and answered as 503) when the database cannot be reached. */
export class DatabaseUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('Database unavailable, try again shortly', cause === undefined ? undefined : { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * Node network errors, and — for errors our side raised without the server's answer — PostgreSQL's
 * connection-exception (08) and operator-intervention (57P) classes.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
  'terminating connection',
  'the database system is',
];

function isConnectionFailure(error: object): boolean {
  // An error the server sent says the connection works: a statement's error (severity ERROR, even
  // 08P01 "invalid message format" from a NUL byte) is the statement's; only FATAL and PANIC end
  // a session (shutting down, too many connections, refused).
  const severity = (error as { severity?: unknown }).severity;
  if (typeof severity === 'string') return severity === 'FATAL' || severity === 'PANIC';
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-4]$/.test(code) || code === '53300') return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && CONNECTION_MESSAGES.some((m) => message.includes(m));
}

/** True when `error` (or anything in its cause chain) says the database could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; depth++) {
    if (e instanceof DatabaseUnavailableError || isConnectionFailure(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export interface AvailabilityOptions {
  /** Succeeds when the database answers (e.g. `select 1`). */
  probe: () => Promise<unknown>;
  logger: Logger;
  /** Probe period during an outage. */
  retryMs?: number;
  /** Probe period while healthy, so an outage is noticed without traffic (0: never). */
  watchMs?: number;
}

export class DatabaseAvailability {
  readonly #options: Required<AvailabilityOptions>;
  readonly #log: Logger;
  readonly #listeners = new Set<() => void>();
  #down: { since: number; error: string } | null = null;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: AvailabilityOptions) {
    this.#options = { retryMs: 1_000, watchMs: 5_000, ...options };
    this.#log = options.logger.child({ component: 'database' });
    this.#schedule();
  }

  get available(): boolean {
    return this.#down === null;
  }

  /** The outage under way (since when, and the error that began it), or null. */
  get outage(): { since: number; error: string } | null {
    return this.#down ? { ...this.#down } : null;
  }

  /** Throws DatabaseUnavailableError during an outage: callers answer 503 at once. */
  assertAvailable(): void {
    if (this.#down) throw new DatabaseUnavailableError();
  }

  /** Looks at a failure; when it is a connection failure, marks an outage. Returns whether it was. */
  noteFailure(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    if (!this.#down && !this.#stopped) {
      const message = error instanceof Error ? error.message : String(error);
      this.#down = { since: Date.now(), error: message };
      this.#log.warn({ error: message }, 'database unavailable: answering 503 until it is back');
      this.#schedule();
    }
    return true;
  }

  /** Called once each time the database comes back after an outage. */
  onRecovered(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Probes now: true when the database answers (and ends an outage if there was one). */
  async check(): Promise<boolean> {
    try {
      await this.#options.probe();
    } catch (error) {
      this.noteFailure(error);
      return false;
    }
    const down = this.#down;
    if (down) {
      this.#down = null;
      this.#log.info({ outageMs: Date.now() - down.since }, 'database available again');
      this.#schedule();
      for (const listener of this.#listeners) {
        try {
          listener();
        } catch (err) {
          this.#log.error({ err }, 'database recovery listener failed');
        }
      }
    }
    return true;
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    const delay = this.#down ? this.#options.retryMs : this.#options.watchMs;
    if (this.#stopped || delay <= 0) return;
    this.#timer = setTimeout(() => void this.check().finally(() => this.#schedule()), delay);
    this.#timer.unref();
  }
}
