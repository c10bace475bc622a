import type { Middleware } from 'koa';

/** Health probes: answered while draining too, and never counted as work in flight. */
const PROBES = new Set(['/healthz', '/readyz']);

/** Reads a proxy may send to another node (idempotent: nginx retries them, deploy/nginx/nature-wall.conf). */
const READS = new Set(['GET', 'HEAD']);

/**
 * A node's drain, seen from HTTP: once begun (SIGTERM), /readyz answers 503 and every answer
 * closes its connection, so clients and proxies that keep connections open come back on a
 * new one (to another node, once this one stops listening). The requests being answered are
 * counted, so the server can close when the last one is done.
 *
 * Behind a proxy (TRUST_PROXY), reads that arrive while draining are answered 504 at once: the
 * shipped nginx passes a 504 on to the next node (`proxy_next_upstream … http_504`) and counts it
 * as the node's failure, so after a few it sends this node nothing for a while — writes included,
 * which it cannot pass on once sent. Open-source nginx learns that a node is going no other way,
 * and a write that reaches a node in the instant it stops listening is answered 502. (Not 503:
 * that is the API's answer while the database is away, the same on every node, which must reach
 * the client with its Retry-After, not be retried.) Writes are still taken and answered.
 */
export class Drain {
  readonly #behindProxy: boolean;
  #draining = false;
  #inFlight = 0;
  #idle = new Set<() => void>();

  constructor(options: { behindProxy?: boolean } = {}) {
    this.#behindProxy = options.behindProxy ?? false;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** Requests being answered now (health probes not counted). */
  get inFlight(): number {
    return this.#inFlight;
  }

  begin(): void {
    this.#draining = true;
  }

  /** Resolves when no request is in flight (at once when none is). */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  middleware(): Middleware {
    return async (ctx, next) => {
      if (this.#draining) ctx.set('Connection', 'close');
      if (PROBES.has(ctx.path)) return next();
      if (this.#draining && this.#behindProxy && READS.has(ctx.method)) {
        ctx.status = 504;
        ctx.set('Retry-After', '1');
        ctx.body = { error: 'This node is shutting down; ask another one' };
        return;
      }
      this.#inFlight++;
      // Done when the answer has left (or the client went away), not when the handlers return:
      // a body may still be streaming.
      ctx.res.once('close', () => {
        if (--this.#inFlight > 0) return;
        for (const resolve of this.#idle) resolve();
        this.#idle.clear();
      });
      await next();
    };
  }
}
