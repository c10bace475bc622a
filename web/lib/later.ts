/**
 * Work that must not run where it is asked for: a store subscriber runs inside the flip's frame
 * (issue 30), so writing the browser's storage there would lengthen the frame a wall flips on.
 * `later(fn, ms)` runs `fn` once, `ms` after the first ask since it last ran; `now()` runs it at
 * once (a page going away), `cancel()` drops it.
 */
export function later(fn: () => void, ms: number): { ask(): void; now(): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    fn();
  };
  return {
    ask: () => {
      timer ??= setTimeout(run, ms);
    },
    now: () => {
      clearTimeout(timer);
      run();
    },
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
