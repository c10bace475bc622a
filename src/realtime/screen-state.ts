/**
 * Screen state on one node: what a registration is answered with, and what the walls and
 * kiosks connected here are pushed when scenes change. Screens are grouped by the reference
 * they follow (a slug or id, or the default scene), so each change is resolved once per
 * reference, not once per screen. Only this file emits screen state.
 */
import type { KioskState, Registration, ScreenState, WallState } from '../shared/events.ts';
import type { HubServer } from './io-server.ts';
import { parseTargetRoom, targetOf, targetRoom, type Target } from './rooms.ts';
import type { Affected, ResolvedScene, SceneDirectory } from './scene-directory.ts';

export function wallState(version: number, ref: string | null, resolved: ResolvedScene | null): WallState {
  return {
    kind: 'wall',
    version,
    follows: ref,
    scene: resolved?.scene ?? null,
    streams: resolved?.streams ?? [],
    problem: resolved ? null : ref === null ? 'no-default-scene' : 'scene-not-found',
  };
}

export function kioskState(version: number, ref: string | null, position: number, resolved: ResolvedScene | null): KioskState {
  const stream = resolved?.streams.find((s) => s.position === position) ?? null;
  return {
    kind: 'kiosk',
    version,
    follows: ref,
    position,
    scene: resolved?.scene ?? null,
    stream,
    problem: !resolved ? (ref === null ? 'no-default-scene' : 'scene-not-found') : stream ? null : 'no-stream-at-position',
  };
}

export interface ScreenStates {
  /** The full state for a registration, labelled with the highest version applied here. */
  stateFor(registration: Registration): Promise<ScreenState>;
  /** Pushes fresh state to the screens here that `scenes` concerns. */
  apply(version: number, scenes: Affected): Promise<void>;
  /** Pushes every screen here its current state, under `version` (after an outage). */
  resyncAll(version: number): Promise<void>;
  /** Raises the version registrations are labelled with. */
  seen(version: number): void;
}

export function createScreenStates(io: HubServer, directory: SceneDirectory, initialVersion: number): ScreenStates {
  /** Highest version this node has applied: snapshots are labelled with it (read before state). */
  let appliedVersion = initialVersion;
  /** Last scene id each followed reference resolved to on this node (null: unresolved). */
  const resolvedRefs = new Map<string, number | null>();
  const refKey = (ref: string | null) => ref ?? '';

  /** The followed targets that have screens on this node, grouped by reference. */
  function localTargets(): Map<string | null, Target[]> {
    const byRef = new Map<string | null, Target[]>();
    for (const [room, members] of io.of('/').adapter.rooms) {
      if (members.size === 0) continue;
      const target = parseTargetRoom(room);
      if (!target) continue;
      const list = byRef.get(target.ref) ?? [];
      list.push(target);
      byRef.set(target.ref, list);
    }
    return byRef;
  }

  /** Resolves a followed reference afresh and remembers the scene it resolved to. */
  async function refresh(ref: string | null): Promise<ResolvedScene | null> {
    const resolved = await directory.resolve(ref, { fresh: true });
    resolvedRefs.set(refKey(ref), resolved?.scene.id ?? null);
    return resolved;
  }

  /** Keeps presence's "scene shown" in step for every screen in the room. */
  function markShown(room: string, sceneId: number | null): void {
    for (const id of io.of('/').adapter.rooms.get(room) ?? []) {
      const presence = io.of('/').sockets.get(id)?.data.presence;
      if (presence) presence.sceneId = sceneId;
    }
  }

  /**
   * Resolves afresh every followed reference `relevant` picks (by what it showed before) and
   * pushes its screens on this node: kiosks their stream, walls what `pushWall` sends.
   */
  async function pushLocal(
    version: number,
    relevant: (ref: string | null, before: number | null | undefined) => boolean,
    pushWall: (room: string, ref: string | null, before: number | null | undefined, resolved: ResolvedScene | null) => void,
  ): Promise<void> {
    appliedVersion = Math.max(appliedVersion, version);
    for (const [ref, targets] of localTargets()) {
      const before = resolvedRefs.get(refKey(ref));
      if (!relevant(ref, before)) continue;
      const resolved = await refresh(ref);
      for (const target of targets) {
        const room = targetRoom(target);
        markShown(room, resolved?.scene.id ?? null);
        if (target.kind === 'kiosk') io.local.to(room).emit('kiosk:stream', kioskState(version, ref, target.position, resolved));
        else pushWall(room, ref, before, resolved);
      }
    }
  }

  io.of('/').adapter.on('delete-room', (room: string) => {
    const target = parseTargetRoom(room);
    if (target && !localTargets().has(target.ref)) resolvedRefs.delete(refKey(target.ref));
  });

  return {
    async stateFor(registration) {
      const version = appliedVersion; // read before the state: a push with a higher version may follow
      const target = targetOf(registration);
      if (!target) return { kind: registration.kind as 'admin' | 'rater', version };
      const resolved = await directory.resolve(target.ref);
      resolvedRefs.set(refKey(target.ref), resolved?.scene.id ?? null);
      return target.kind === 'wall' ? wallState(version, target.ref, resolved) : kioskState(version, target.ref, target.position, resolved);
    },

    async apply(version, scenes) {
      const touched = new Set(scenes.sceneIds);
      await pushLocal(
        version,
        (ref, before) => before === undefined || before === null || touched.has(before) || (ref === null && scenes.defaultChanged),
        (room, ref, before, resolved) => {
          if (resolved) {
            const payload = { version, scene: resolved.scene, streams: resolved.streams };
            io.local.to(room).emit(ref === null && scenes.defaultChanged ? 'scene:default-changed' : 'scene:updated', payload);
          } else if (typeof before === 'number') {
            io.local.to(room).emit('scene:deleted', { version, scene_id: before });
          } else {
            io.local.to(room).emit('screen:state', wallState(version, ref, null));
          }
        },
      );
    },

    resyncAll(version) {
      return pushLocal(
        version,
        () => true,
        (room, ref, _before, resolved) => io.local.to(room).emit('screen:state', wallState(version, ref, resolved)),
      );
    },

    seen(version) {
      appliedVersion = Math.max(appliedVersion, version);
    },
  };
}
