import type { Middleware } from 'koa';

/** Health probes: answered while draining too, and never counted as work in flight. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * A node's drain, seen from HTTP: once begun (SIGTERM), /readyz answers 503 and every answer
 * closes its connection, so clients and proxies that keep connections open come back on a
 * new one (to another node, once this one stops listening). The requests being answered are
 * counted, so the server can close when the last one is done.
 */
export class Drain {
  #draining = false;
  #inFlight = 0;
  #idle = new Set<() => void>();

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
