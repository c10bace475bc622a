/**
 * The spec's safety net for kiosks (refetch every 30 minutes): register again on the open socket.
 * The answer goes through the version rule like any, so an unchanged state is no re-render.
 */
import { definePart } from './part.ts';

export const resyncPart = definePart({
  name: 'resync',
  runs: (session) => session.resyncEveryMs !== undefined,
  start(session) {
    // Quietly: a refused safety net leaves the kiosk showing what it shows (the next push or reconnect corrects it).
    const timer = setInterval(() => session.register({ quiet: true }), session.resyncEveryMs);
    return { stop: () => clearInterval(timer) };
  },
});
