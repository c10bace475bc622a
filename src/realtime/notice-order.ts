/**
 * Version order for what a node pushes. Two nodes that commit at the same instant take versions
 * n and n+1 in one order, but their notices can reach a third node in the other: pushed as they
 * come, a wall would hear n+1 first and then drop n (a screen keeps the highest version), so it
 * never hears change n as such, though the state it holds has it. Here each item waits for the
 * versions below it, for at most `holdMs`: a version can be taken and never announced (a resync
 * on another node, a publish that failed after its version), and a wall must not wait on it.
 */
export interface NoticeOrder {
  /** Hands `run` on in version order (at once if nothing is missing below `version`). */
  add(version: number, run: () => void): void;
  /** Resolves when nothing is held. */
  drained(): Promise<void>;
  /** How many items are held now (tests). */
  held(): number;
}

export function createNoticeOrder(options: {
  /** The last version already handed on (or known to be past) when the node started. */
  start: number;
  holdMs: number;
  /** Told when the hold ran out with versions still missing (the first one missing). */
  onGap?: ((missing: number) => void) | undefined;
}): NoticeOrder {
  let expected = options.start; // every version ≤ this was handed on or given up on
  const held = new Map<number, () => void>();
  let timer: NodeJS.Timeout | undefined;
  let waiters: (() => void)[] = [];

  function releaseContiguous(): void {
    for (let run = held.get(expected + 1); run; run = held.get(expected + 1)) {
      held.delete(++expected);
      run();
    }
  }

  function settle(): void {
    if (held.size > 0) {
      timer ??= setTimeout(giveUp, options.holdMs);
      return;
    }
    if (timer) clearTimeout(timer);
    timer = undefined;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  }

  /** The hold ran out: hand on everything held, lowest first, over the gaps. */
  function giveUp(): void {
    timer = undefined;
    options.onGap?.(expected + 1);
    for (const version of [...held.keys()].sort((a, b) => a - b)) {
      const run = held.get(version)!;
      held.delete(version);
      expected = Math.max(expected, version);
      run();
    }
    releaseContiguous();
    settle();
  }

  return {
    add(version, run) {
      if (version <= expected) {
        // Late (the hold gave up on it) or a duplicate: hand it on now; screens ignore what is older than they hold.
        run();
        return;
      }
      held.set(version, run);
      const before = expected;
      releaseContiguous();
      // A gap filled: what is still held waits afresh for the next one.
      if (expected !== before && timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      settle();
    },
    drained: () => (held.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
    held: () => held.size,
  };
}
