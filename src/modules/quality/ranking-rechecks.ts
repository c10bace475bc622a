/**
 * The budget that keeps "the best cameras now" fresh without analysing a pool of thousands all
 * the time: every RANKED_RECHECK_MINUTES the RANKED_RECHECK_STREAMS cameras the ranking puts
 * highest are analysed again (their activity moves fastest), and every hour the streams whose
 * daily profile says the coming hour is livelier than their usual day, up to the same number.
 * All of it waits in the `ranking` lane, below screens' failures and what screens show.
 */
import type { Logger } from '../../logger.ts';

export interface RecheckBudget {
  /** RANKED_RECHECK_MINUTES: how often the leaders are analysed again (0: never). */
  everyMinutes: number;
  /** RANKED_RECHECK_STREAMS: how many leaders each time, and how many profile picks an hour. */
  streams: number;
}

export const DEFAULT_RECHECK_BUDGET: RecheckBudget = { everyMinutes: 5, streams: 10 };

export function createRankingRechecks(deps: {
  budget: RecheckBudget;
  leaders: (limit: number) => Promise<number[]>;
  worthChecking: (limit: number) => Promise<number[]>;
  /** Queues an analysis in the ranking lane (false: one already waits). */
  enqueue: (streamId: number) => Promise<boolean>;
  logger: Logger;
}): { start(): void; stop(): void; round(kind: 'leaders' | 'profile'): Promise<number> } {
  const timers: NodeJS.Timeout[] = [];
  async function round(kind: 'leaders' | 'profile'): Promise<number> {
    const ids = await (kind === 'leaders' ? deps.leaders(deps.budget.streams) : deps.worthChecking(deps.budget.streams));
    let queued = 0;
    for (const id of ids) if (await deps.enqueue(id)) queued++;
    return queued;
  }
  const every = (ms: number, kind: 'leaders' | 'profile') => {
    const timer = setInterval(() => void round(kind).catch((err: unknown) => deps.logger.warn({ err, kind }, 'quality: ranking re-checks could not be queued')), ms);
    timer.unref();
    timers.push(timer);
  };
  return {
    round,
    start() {
      if (deps.budget.everyMinutes <= 0) return;
      every(deps.budget.everyMinutes * 60_000, 'leaders');
      every(3_600_000, 'profile');
    },
    stop: () => timers.forEach(clearInterval),
  };
}
