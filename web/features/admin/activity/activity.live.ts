/** The activity journal's live slice: the version of the newest journaled write (the tab fetches again when it moves). */
import { atom } from 'jotai';
import { store } from '../../../lib/store.ts';
import type { LiveSlice } from '../live/live.ts';

export const activityVersionAtom = atom(0);

export const activityLive: LiveSlice = {
  name: 'activity',
  load: () => undefined, // the tab fetches (again after a reconnect: useLiveFetch)
  listen(socket) {
    socket.on('activity:recorded', ({ version }) => store.set(activityVersionAtom, (v) => Math.max(v, version)));
  },
};
