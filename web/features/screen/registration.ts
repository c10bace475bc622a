/**
 * What each screen page registers as, from its path's parameters: one rule for the page's own
 * mount and for the entry script, which connects a screen before its page has rendered
 * (session.ts connectEarly) — the two must agree for the page to adopt that connection.
 */
import type { Registration } from '../../../src/shared/events.ts';
import type { ScreenPageName } from '../../../src/shared/screen-pages.ts';
import { KIOSK_REFETCH_MS, parseKioskPosition } from './kiosk-position.ts';

export interface ScreenParams {
  sceneSlug?: string;
  position?: string;
}

/** The registration and session options of a screen page, or null when it shows nothing to follow yet. */
export function screenRegistration(page: ScreenPageName, { sceneSlug, position: raw }: ScreenParams): { registration: Registration; options: { resyncEveryMs?: number } } | null {
  const scene = sceneSlug ? { sceneSlug } : {};
  if (page === 'viewer') return { registration: { kind: 'wall', name: 'Scene viewer', ...scene }, options: {} };
  if (page === 'kiosk') {
    const position = parseKioskPosition(raw);
    if (position === null) return null;
    return { registration: { kind: 'kiosk', name: `Kiosk ${position}`, position, ...scene }, options: { resyncEveryMs: KIOSK_REFETCH_MS } };
  }
  return null; // the Live Wall registers once it knows which scene its viewer follows
}
