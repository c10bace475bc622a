/**
 * Who this screen is, for the operator: a lasting device id (so the console knows it across
 * reconnects and lists it as "last seen" when it goes away), and a name — `?name=Lobby left`
 * in the screen's URL, or the page's default.
 */
import { atom } from 'jotai';
import { SCREEN_DEVICE_COOKIE } from '../../../src/shared/screen-pages.ts';

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

/** Set by the operator's Identify command: the name to show, until when. */
export const identifyAtom = atom<{ name: string; until: number } | null>(null);

/** How long Identify shows the screen's name. */
export const IDENTIFY_MS = 5_000;
