/**
 * What a screen page renders: the state it shows, the side drawn ahead of a waiting flip (one rule
 * for every page, src/shared/screen-stage.ts `drawnAhead`), and why it may have nothing yet.
 */
import { useAtomValue } from 'jotai';
import type { KioskState, WallState } from '../../../src/shared/events.ts';
import type { KioskAhead, WallAhead } from '../../../src/shared/screen-stage.ts';
import type { ConnectionStatus } from '../../../src/shared/screen-client.ts';
import { store } from '../../lib/store.ts';
import { connectionStatusAtom, nextSideAtom, screenStateAtom } from './atoms.ts';
import { registrationErrorAtom } from './session.ts';

interface ScreenSides<S, A> {
  state: S | null;
  /** Drawn now, out of sight, and shown at the flip's instant (null: no flip waits with something to show). */
  next: A | null;
  error: string | null;
  status: ConnectionStatus;
}

function useScreenSides<K extends 'wall' | 'kiosk'>(kind: K) {
  const state = useAtomValue(screenStateAtom, { store });
  const next = useAtomValue(nextSideAtom, { store });
  const error = useAtomValue(registrationErrorAtom, { store });
  const status = useAtomValue(connectionStatusAtom, { store });
  return { state: state?.kind === kind ? state : null, next: next?.kind === kind ? next : null, error, status };
}

export const useWallScreen = () => useScreenSides('wall') as ScreenSides<WallState, WallAhead>;
export const useKioskScreen = () => useScreenSides('kiosk') as ScreenSides<KioskState, KioskAhead>;
