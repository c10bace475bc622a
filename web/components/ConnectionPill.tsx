/** Shown only while the link to the scene controller is down: the screen keeps playing. */
import { useAtomValue } from 'jotai';
import { connectionStatusAtom } from '../features/screen/atoms.ts';
import { store } from '../lib/store.ts';

export function ConnectionPill() {
  const status = useAtomValue(connectionStatusAtom, { store });
  if (status === 'connected') return null;
  return (
    <span className="connection-pill" role="status">
      Reconnecting…
    </span>
  );
}
