/** The wall state this screen shows, plus why it may have none yet. */
import { useAtomValue } from 'jotai';
import type { KioskState, WallState } from '../../../src/shared/events.ts';
import { store } from '../../lib/store.ts';
import { connectionStatusAtom, screenStateAtom } from './atoms.ts';
import { registrationErrorAtom } from './connection.ts';

export function useWallState(): { state: WallState | null; error: string | null; status: string } {
  const state = useAtomValue(screenStateAtom, { store });
  const error = useAtomValue(registrationErrorAtom, { store });
  const status = useAtomValue(connectionStatusAtom, { store });
  return { state: state?.kind === 'wall' ? state : null, error, status };
}

export function useKioskState(): { state: KioskState | null; error: string | null; status: string } {
  const state = useAtomValue(screenStateAtom, { store });
  const error = useAtomValue(registrationErrorAtom, { store });
  const status = useAtomValue(connectionStatusAtom, { store });
  return { state: state?.kind === 'kiosk' ? state : null, error, status };
}
