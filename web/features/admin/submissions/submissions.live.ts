/**
 * The submissions' live slice: the pending count (the tab's badge) and the version of the
 * newest push about submissions — the tab fetches its filtered page again when it moves.
 */
import { atom } from 'jotai';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { fetchValue, pushValue, type LiveSlice, type LiveValue } from '../live/live.ts';

const pendingAtom = atom<LiveValue<number>>(null);
/** Waiting for review, for the tab's badge. */
export const pendingCountAtom = atom((get) => get(pendingAtom)?.value ?? 0);
/** The version of the newest push about submissions (0 until one arrives). */
export const submissionsVersionAtom = atom(0);

function pushed({ version, pending }: { version: number; pending: number }): void {
  pushValue(pendingAtom, pending, version);
  store.set(submissionsVersionAtom, (v) => Math.max(v, version));
}

export const submissionsLive: LiveSlice = {
  name: 'submissions',
  load() {
    void fetchValue(pendingAtom, async () => (await adminApi.pendingCount()).pending, null); // the tab shows its own errors
  },
  listen(socket) {
    socket.on('submission:created', pushed);
    socket.on('submission:reviewed', pushed);
    socket.on('submissions:bulk-reviewed', pushed);
  },
};
