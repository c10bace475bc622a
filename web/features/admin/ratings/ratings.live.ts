/**
 * The ratings' live slice: raters' ratings arrive as an unversioned notice (evaluation:queue),
 * so it is counted; the tab fetches its lists again when the count moves.
 */
import { atom } from 'jotai';
import { store } from '../../../lib/store.ts';
import type { LiveSlice } from '../live/live.ts';

export const ratingsNewsAtom = atom(0);

export const ratingsLive: LiveSlice = {
  name: 'ratings',
  load: () => undefined, // the tab fetches (again after a reconnect: useLiveFetch)
  listen(socket) {
    socket.on('evaluation:queue', () => store.set(ratingsNewsAtom, (n) => n + 1));
  },
};
