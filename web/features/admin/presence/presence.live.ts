/**
 * The presence slice: every screen the hub knows (online, and seen in the last day), for the
 * Screens tab and for the Scenes tab (how many walls follow the default). The
 * list is presence, not a change with a cluster version: each push is the whole list as a
 * node saw it, so pushes and fetches are ordered by when the console received or asked for
 * them (a fetch answered after a newer push is older than it, and is dropped).
 */
import { atom } from 'jotai';
import type { ScreenPresence } from '../../../../src/shared/events.ts';
import { applyVersioned } from '../../../../src/shared/live-records.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { reasonOf, showFailure } from '../feedback.ts';
import type { LiveSlice, LiveValue } from '../live/live.ts';

export const screensAtom = atom<{ list: LiveValue<readonly ScreenPresence[]>; error: string | null }>({ list: null, error: null });

/** Connected walls and kiosks that show the default scene because no other rule says otherwise (they switch with it). */
export const followingDefault = atom((get) => (get(screensAtom).list?.value ?? []).filter((s) => s.online && (s.kind === 'wall' || s.kind === 'kiosk') && (s.rule ?? (s.follows === null ? 'default' : 'address')) === 'default').length);

let received = 0;

function apply(list: readonly ScreenPresence[], order: number): void {
  store.set(screensAtom, (s) => ({ list: applyVersioned(s.list, list, order), error: null }));
}

export const presenceLive: LiveSlice = {
  name: 'presence',
  load() {
    const asked = ++received;
    adminApi.screens().then(
      (screens) => apply(screens, asked),
      (error: unknown) => {
        store.set(screensAtom, (s) => ({ ...s, error: reasonOf(error) }));
        showFailure('Failed to fetch screens', error);
      },
    );
  },
  listen(socket) {
    socket.on('screens:updated', (screens) => apply(screens, ++received));
  },
};
