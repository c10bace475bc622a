/**
 * Who this screen is, for the operator: a lasting device id (so the console knows it across
 * reconnects and lists it as "last seen" when it goes away), and a name — `?name=Lobby left`
 * in the screen's URL, or the page's default.
 */
import { atom } from 'jotai';
import type { Registration } from '../../../src/shared/events.ts';
import { SCREEN_DEVICE_COOKIE } from '../../../src/shared/screen-pages.ts';
import { heldCredential } from './enrolment.ts';

const DEVICE_KEY = 'nature-wall:device';

/** This browser's device id, created once and kept in localStorage (null where storage is blocked). */
export function screenDevice(): string | null {
  try {
    let id = localStorage.getItem(DEVICE_KEY);
    if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
      id = crypto.randomUUID();
      localStorage.setItem(DEVICE_KEY, id);
    }
    // The server reads it when the screen loads a page: the page's first state is then its own.
    document.cookie = `${SCREEN_DEVICE_COOKIE}=${id}; path=/; max-age=31536000; samesite=lax`;
    return id;
  } catch {
    return null;
  }
}

/** The `name` search parameter, trimmed to what the hub accepts, or `fallback`. */
export function screenName(fallback: string | undefined, search = typeof location === 'undefined' ? '' : location.search): string | undefined {
  const given = new URLSearchParams(search).get('name')?.trim().slice(0, 80);
  return given || fallback;
}

/** The `group` search parameter: the screen group this screen joins (set once at install), or undefined. */
export function screenGroup(search = typeof location === 'undefined' ? '' : location.search): string | undefined {
  return new URLSearchParams(search).get('group')?.trim().slice(0, 80) || undefined;
}

/**
 * The screen a page is, from what it registers as and its address: the registration it sends
 * (with its device id, its `?name=` and its `?group=`), and whether its address installs it as a
 * screen — a kiosk, or a wall whose address names it or puts it in a group; a visitor's browser
 * on the public viewer is not one.
 */
export function screenOf(
  page: Registration,
  search = typeof location === 'undefined' ? '' : location.search,
): { registration: Registration; device: string | null; installed: boolean; asksToBeScreen: boolean } {
  const device = screenDevice();
  const name = screenName(page.name, search);
  const group = page.kind === 'wall' || page.kind === 'kiosk' ? screenGroup(search) : undefined;
  const registration = { ...page, ...(device ? { device } : {}), ...(name ? { name } : {}), ...(group ? { group } : {}) } as Registration;
  // A browser holding a credential was approved as a screen (or waits to be), whatever its address.
  const installed = page.kind === 'kiosk' || (page.kind === 'wall' && (group !== undefined || new URLSearchParams(search).has('name') || heldCredential() !== null));
  return { registration, device, installed, asksToBeScreen: asksToBeScreen(page, search) };
}

/**
 * Whether the address asks to be a screen when approval is on (issue 41): `?name=`, `?group=` or
 * `/pair` — it shows a pairing code until approved. A bare `/`, `/scenes/…` or `/streams/N` is a
 * public page that counts as no screen.
 */
export function asksToBeScreen(page: Registration, search: string, pathname = typeof location === 'undefined' ? '' : location.pathname): boolean {
  if (page.kind !== 'wall' && page.kind !== 'kiosk') return false;
  const params = new URLSearchParams(search);
  return params.has('name') || params.has('group') || pathname === '/pair';
}

/** Where a screen's last state is kept (last-state.ts): its page's registration (what it follows) and the group in its address, not its device or name. */
export const stateKey = (page: Registration, search?: string) => JSON.stringify([page, screenGroup(search) ?? null]);

/** Set by the operator's Identify command: the name to show, until when. */
export const identifyAtom = atom<{ name: string; until: number } | null>(null);

/** How long Identify shows the screen's name. */
export const IDENTIFY_MS = 5_000;
