/**
 * What this screen shows is what it starts from next time, should its server be away then
 * (../last-state.ts keeps it per address): written a second after a change — never in the flip's
 * frame — and at once when the page goes.
 */
import { store } from '../../../lib/store.ts';
import { screenStateAtom } from '../atoms.ts';
import { stateKey } from '../identity.ts';
import { keepLastState } from '../last-state.ts';
import { later } from '../../../lib/later.ts';
import { definePart } from './part.ts';

/** How long after a change a screen writes what it shows to its storage (off the flip's frame). */
const KEEP_AFTER_MS = 1_000;

export const lastStatePart = definePart({
  name: 'last state',
  follows: [screenStateAtom],
  start(session) {
    const key = stateKey(session.page);
    const keep = later(() => keepLastState(key, store.get(screenStateAtom)), KEEP_AFTER_MS);
    window.addEventListener('pagehide', keep.now);
    return {
      changed: keep.ask,
      stop() {
        window.removeEventListener('pagehide', keep.now);
        keep.now();
      },
    };
  },
});
