/**
 * The hub's own rooms: every socket joins its kind's room (walls, kiosks, admins, raters); a
 * console joins its session's and its account's. What a wall or kiosk follows has rooms of the
 * screen feature's (src/modules/programme/screen-rooms.ts).
 */
import type { ScreenKind } from '../shared/events.ts';

export const KIND_ROOMS: Record<ScreenKind, string> = {
  wall: 'walls',
  kiosk: 'kiosks',
  admin: 'admins',
  rater: 'raters',
};

/** Every console socket of one account (its role changed: each is told at once). */
export function accountRoom(accountId: number): string {
  return `account:${accountId}`;
}

/** Every socket of one admin session (so a logout can end them with one broadcast). */
export function sessionRoom(sessionHash: string): string {
  return `session:${sessionHash}`;
}
