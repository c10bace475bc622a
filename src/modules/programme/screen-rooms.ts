/**
 * The rooms of what walls and kiosks follow: `scene:<ref>` for a wall (ref = slug or id,
 * `@default` for the default scene) and `kiosk:<ref>:<position>` for a kiosk. A push to a room
 * reaches every screen following that reference on a node, resolved once.
 */
export const DEFAULT_REF = '@default';

export type Target =
  | { kind: 'wall'; ref: string | null }
  | { kind: 'kiosk'; ref: string | null; position: number };

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
