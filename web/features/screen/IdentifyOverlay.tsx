/** The operator pressed Identify in the console: this screen shows its name in large type for 5 s. */
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { store } from '../../lib/store.ts';
import { identifyAtom } from './identity.ts';
import './identify.css';

export function IdentifyOverlay() {
  const [identify, setIdentify] = useAtom(identifyAtom, { store });
  useEffect(() => {
    if (!identify) return;
    const timer = setTimeout(() => setIdentify(null), Math.max(0, identify.until - Date.now()));
    return () => clearTimeout(timer);
  }, [identify, setIdentify]);
  if (!identify) return null;
  return (
    <div className="identify" role="status" aria-live="assertive">
      <p className="identify__label">This screen is</p>
      <p className="identify__name">{identify.name}</p>
    </div>
  );
}
