/**
 * Keeps a wall's or kiosk's display awake while it shows (the Screen Wake Lock API). The browser
 * drops the lock whenever the page is hidden, so it is taken again each time the page is
 * visible. Where the API is missing or refuses (an insecure origin, a battery saver), nothing
 * breaks: the device's own never-sleep setting has to do (docs/operations.md, "Screens in the field").
 */
import { definePart } from './part.ts';

type WakeLockSentinelLike = { release(): Promise<void>; addEventListener(type: 'release', listener: () => void): void };
type WakeLockLike = { request(type: 'screen'): Promise<WakeLockSentinelLike> };

/** Holds the lock until the returned function is called (the screen's session closes). */
export function holdWakeLock(nav: Navigator = navigator, doc: Document = document): () => void {
  const wakeLock = (nav as Navigator & { wakeLock?: WakeLockLike }).wakeLock;
  if (!wakeLock) return () => {};
  let sentinel: WakeLockSentinelLike | null = null;
  let released = false;

  const take = () => {
    if (released || sentinel || doc.visibilityState !== 'visible') return;
    wakeLock.request('screen').then(
      (lock) => {
        if (released) return void lock.release().catch(() => {});
        sentinel = lock;
        lock.addEventListener('release', () => {
          if (sentinel === lock) sentinel = null;
        });
      },
      () => {}, // refused: the display may sleep by the device's own settings
    );
  };
  const onVisibility = () => take();

  doc.addEventListener('visibilitychange', onVisibility);
  take();
  return () => {
    released = true;
    doc.removeEventListener('visibilitychange', onVisibility);
    void sentinel?.release().catch(() => {});
    sentinel = null;
  };
}

export const wakeLockPart = definePart({
  name: 'wake lock',
  start: () => ({ stop: holdWakeLock() }),
});
