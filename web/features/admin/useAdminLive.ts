/**
 * Keeps the console live: opens its one socket, registers it as an admin with the hub, and runs
 * every feature's live slice (live-slices.ts) — each loads its state over REST and listens to
 * its own pushes. Every push's version is noted first, so a fetch knows what it includes. A
 * reconnect loads everything again (what happened while away).
 */
import { useEffect } from 'react';
import { toast } from 'sonner';
import { isOutdated } from '../../lib/new-version.ts';
import { pageBuild } from '../../lib/page-build.ts';
import { openSocket } from '../../lib/socket.ts';
import { store } from '../../lib/store.ts';
import { notePushVersion, reconnectsAtom } from './live/live.ts';
import { ADMIN_LIVE } from './live-slices.ts';

const loadAll = () => ADMIN_LIVE.forEach((slice) => slice.load());

export function useAdminLive(): void {
  useEffect(() => {
    loadAll();
    const client = openSocket({
      registration: { kind: 'admin', name: 'Admin console' },
      onMessage: () => undefined,
      onError: (error) => toast.error('Live updates are unavailable', { description: error, id: 'admin-socket' }),
      // A console is not reloaded under someone's hands (a half-filled form): it offers to.
      onBuild: (build) => {
        if (isOutdated(pageBuild(), build))
          toast.info('A new version is available — reload', { id: 'new-version', duration: Infinity, action: { label: 'Reload', onClick: () => window.location.reload() } });
      },
    });
    const socket = client.socket;
    // Before any slice's handler: socket.io calls catch-all listeners first.
    socket.onAny((_event: string, payload: unknown) => notePushVersion(payload));
    let connectedBefore = false;
    socket.on('connect', () => {
      if (connectedBefore) {
        loadAll();
        store.set(reconnectsAtom, (n) => n + 1);
      }
      connectedBefore = true;
    });
    for (const slice of ADMIN_LIVE) slice.listen(socket);
    return () => client.close();
  }, []);
}
