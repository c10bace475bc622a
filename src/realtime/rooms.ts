/**
 * Room names. Every screen joins its kind's room (walls, kiosks, admins, raters) and, for
 * walls and kiosks, the room of what it follows: `scene:<ref>` for a wall (ref = slug or id,
 * `@default` for the default scene) and `kiosk:<ref>:<position>` for a kiosk.
 */
import type { Registration, ScreenKind } from '../shared/events.ts';

export const DEFAULT_REF = '@default';

export const KIND_ROOMS: Record<ScreenKind, string> = {
  wall: 'walls',
  kiosk: 'kiosks',
  admin: 'admins',
  rater: 'raters',
};

export type Target =
  | { kind: 'wall'; ref: string | null }
  | { kind: 'kiosk'; ref: string | null; position: number };

export function targetOf(registration: Registration): Target | null {
  if (registration.kind === 'wall') return { kind: 'wall', ref: registration.sceneSlug ?? null };
  if (registration.kind === 'kiosk') return { kind: 'kiosk', ref: registration.sceneSlug ?? null, position: registration.position };
  return null;
}

export function targetRoom(target: Target): string {
  const ref = target.ref ?? DEFAULT_REF;
  return target.kind === 'wall' ? `scene:${ref}` : `kiosk:${ref}:${target.position}`;
}

/** The target a room stands for, or null for any other room (kinds, socket ids). */
export function parseTargetRoom(room: string): Target | null {
  if (room.startsWith('scene:')) {
    const ref = room.slice(6);
    return { kind: 'wall', ref: ref === DEFAULT_REF ? null : ref };
  }
  const kiosk = /^kiosk:(.+):([1-5])$/.exec(room);
  if (kiosk) return { kind: 'kiosk', ref: kiosk[1] === DEFAULT_REF ? null : kiosk[1]!, position: Number(kiosk[2]) };
  return null;
}

/** Every console socket of one account (its role changed: each is told at once). */
export function accountRoom(accountId: number): string {
  return `account:${accountId}`;
}

/** Every socket of one admin session (so a logout can end them with one broadcast). */
export function sessionRoom(sessionHash: string): string {
  return `session:${sessionHash}`;
}
