/**
 * Screen state on one node: what a registration is answered with, and what the walls and
 * kiosks connected here are pushed when scenes change. Screens are grouped by the reference
 * they follow (a slug or id, or the default scene), so each change is resolved once per
 * reference, not once per screen. Only this file emits screen state; the hub carries it.
 */
import type { KioskState, ScreenState, WallState } from '../../shared/events.ts';
import type { HubLink } from '../../realtime/screen-feature.ts';
import type { HubSocket } from '../../realtime/io-server.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { pushesSent } from '../../metrics.ts';
import { refKey, type Affected, type ResolvedScene, type SceneDirectory, type SceneResolution } from '../scenes/scene-directory.ts';
import { parseTargetRoom, targetRoom, type Target } from './screen-rooms.ts';
import type { Route, RouteFacts } from './screen-router.ts';
import type { AssignmentFeed, ToldScreen } from './screen-assignments.ts';
import { serverNow } from '../../realtime/clock.ts';

/** What the screen feature keeps on a wall's or kiosk's socket (`socket.data.screen`). */
export interface ScreenSocket extends ToldScreen {
  /** What it said about itself that decides what it shows (decided again when the programme changes). */
  facts: RouteFacts;
  /** The takeover line it was last sent (a takeover that keeps its scene but changes the line still reaches it). */
  banner: string | undefined;
}

export const screenDataOf = (socket: HubSocket): ScreenSocket | undefined => socket.data.screen as ScreenSocket | undefined;

export function wallState(version: number, ref: string | null, resolved: ResolvedScene | null, at?: number, banner?: string): WallState {
  return {
    kind: 'wall',
    version,
    ...(at === undefined ? {} : { at }),
    ...(banner ? { banner } : {}),
    follows: ref,
    scene: resolved?.scene ?? null,
    streams: resolved?.streams ?? [],
    problem: resolved ? null : ref === null ? 'no-default-scene' : 'scene-not-found',
  };
}

export function kioskState(version: number, ref: string | null, position: number, resolved: ResolvedScene | null, at?: number, banner?: string): KioskState {
  const stream = resolved?.streams.find((s) => s.position === position) ?? null;
  return {
    kind: 'kiosk',
    version,
    ...(at === undefined ? {} : { at }),
    ...(banner ? { banner } : {}),
    follows: ref,
    position,
    scene: resolved?.scene ?? null,
    stream,
    problem: !resolved ? (ref === null ? 'no-default-scene' : 'scene-not-found') : stream ? null : 'no-stream-at-position',
  };
}

export interface ScreenStates {
  /**
   * The full state for a wall or kiosk following `target`, labelled `version` (the highest the
   * hub has applied here). `track: false` (a page's HTML, no socket): what it resolved is not
   * remembered for pushes. `socket`: the screen it is for, told it from now (the assignment feed).
   */
  stateFor(target: Target, version: number, options?: { track?: boolean; banner?: string | undefined; socket?: HubSocket }): Promise<ScreenState>;
  /**
   * Decides again what every wall and kiosk here follows (the programme changed): a screen whose
   * reference changes moves rooms and is pushed its new state once, to be shown at `at`.
   * Returns the sockets that moved, with their new route.
   */
  reroute(version: number, at: number, route: (facts: RouteFacts) => Promise<Route>): Promise<{ socket: HubSocket; route: Route; sceneId: number | null }[]>;
  /** The followed references with screens here that a change touching `scenes` must re-resolve. */
  refsToRefresh(scenes: Affected): (string | null)[];
  /** Pushes fresh state to the screens here that `scenes` concerns, from the change's resolution, to be shown at `at`. */
  apply(version: number, scenes: Affected, resolution: SceneResolution, at: number): void;
  /** Every followed reference with screens here (a resync re-resolves them all). */
  localRefs(): (string | null)[];
  /** Pushes every screen here its current state, under `version` (after an outage). */
  resyncAll(version: number, resolution: SceneResolution): void;
}

export function createScreenStates(link: HubLink, directory: Pick<SceneDirectory, 'resolve' | 'resolveChange'>, assignments: Pick<AssignmentFeed, 'told'>): ScreenStates {
  const { io } = link;
  /** Last scene id each followed reference resolved to on this node (null: unresolved). */
  const resolvedRefs = new Map<string, number | null>();

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

  /**
   * Keeps presence's "scene shown" in step for every screen in the room (told with its next
   * presence push), and tells the assignment feed what each was handed, from `at`.
   */
  function markShown(room: string, target: Target, resolved: ResolvedScene | null, at: number): void {
    for (const id of io.of('/').adapter.rooms.get(room) ?? []) {
      const socket = io.of('/').sockets.get(id);
      if (!socket) continue;
      link.shown(socket, { scene_id: resolved?.scene.id ?? null }, false);
      assignments.told(screenDataOf(socket), target, resolved, at);
    }
  }

  /** Whether a reference must be re-resolved for a change touching `scenes`, by what it showed before. */
  const touchedBy = (scenes: Affected) => {
    const touched = new Set(scenes.sceneIds);
    return (ref: string | null) => {
      const before = resolvedRefs.get(refKey(ref));
      return before === undefined || before === null || touched.has(before) || (ref === null && scenes.defaultSceneId !== null);
    };
  };

  /**
   * Pushes the screens on this node that follow one of the resolved references: kiosks their
   * stream, walls what `pushWall` sends. Nothing is read here: the change's resolution has it.
   */
  function pushLocal(
    version: number,
    resolution: SceneResolution,
    pushWall: (room: string, ref: string | null, before: number | null | undefined, resolved: ResolvedScene | null) => void,
    at?: number,
  ): void {
    for (const [ref, targets] of localTargets()) {
      if (!resolution.byRef.has(refKey(ref))) continue;
      const resolved = resolution.byRef.get(refKey(ref)) ?? null;
      const before = resolvedRefs.get(refKey(ref));
      resolvedRefs.set(refKey(ref), resolved?.scene.id ?? null);
      for (const target of targets) {
        const room = targetRoom(target);
        if (target.kind === 'kiosk') io.local.to(room).emit('kiosk:stream', kioskState(version, ref, target.position, resolved, at));
        else pushWall(room, ref, before, resolved);
        pushesSent.inc({ event: target.kind === 'kiosk' ? 'kiosk:stream' : 'scene' });
        // After the emit: what follows it costs the push nothing.
        markShown(room, target, resolved, at ?? serverNow());
      }
    }
  }

  io.of('/').adapter.on('delete-room', (room: string) => {
    const target = parseTargetRoom(room);
    if (target && !localTargets().has(target.ref)) resolvedRefs.delete(refKey(target.ref));
  });

  return {
    async stateFor(target, version, { track = true, banner, socket } = {}) {
      const resolved = await directory.resolve(target.ref);
      if (track) resolvedRefs.set(refKey(target.ref), resolved?.scene.id ?? null);
      if (socket) assignments.told(screenDataOf(socket), target, resolved, serverNow());
      return target.kind === 'wall' ? wallState(version, target.ref, resolved, undefined, banner) : kioskState(version, target.ref, target.position, resolved, undefined, banner);
    },

    refsToRefresh(scenes) {
      const touched = touchedBy(scenes);
      return [...localTargets().keys()].filter(touched);
    },

    apply(version, scenes, resolution, at) {
      pushLocal(
        version,
        resolution,
        (room, ref, before, resolved) => {
          if (resolved) {
            const payload = { version, at, scene: resolved.scene, streams: resolved.streams };
            io.local.to(room).emit(ref === null && scenes.defaultSceneId !== null ? 'scene:default-changed' : 'scene:updated', payload);
          } else if (typeof before === 'number') {
            io.local.to(room).emit('scene:deleted', { version, at, scene_id: before });
          } else {
            io.local.to(room).emit('screen:state', wallState(version, ref, null, at));
          }
        },
        at,
      );
    },

    async reroute(version, at, route) {
      const moves: { socket: HubSocket; from: string | null; target: Target; route: Route }[] = [];
      for (const kind of [KIND_ROOMS.wall, KIND_ROOMS.kiosk]) {
        for (const id of io.of('/').adapter.rooms.get(kind) ?? []) {
          const socket = io.of('/').sockets.get(id);
          const data = socket ? screenDataOf(socket) : undefined;
          if (!socket || !data) continue;
          const facts = data.facts;
          const next = await route(facts);
          const target: Target = facts.kind === 'kiosk' ? { kind: 'kiosk', ref: next.ref, position: facts.position ?? 1 } : { kind: 'wall', ref: next.ref };
          const from = [...socket.rooms].find((room) => parseTargetRoom(room)) ?? null;
          // A screen moves when what it follows changes, or the takeover's line does.
          if (from !== targetRoom(target) || data.banner !== next.banner) moves.push({ socket, from, target, route: next });
          else link.shown(socket, { rule: next.rule, group_id: next.groupId }, false);
        }
      }
      if (moves.length === 0) return [];
      const resolution = await directory.resolveChange({ sceneIds: [], refs: [...new Set(moves.map((m) => m.target.ref))] });
      return Promise.all(
        moves.map(async ({ socket, from, target, route: next }) => {
          const resolved = resolution.byRef.get(refKey(target.ref)) ?? null;
          resolvedRefs.set(refKey(target.ref), resolved?.scene.id ?? null);
          if (from && from !== targetRoom(target)) await socket.leave(from);
          await socket.join(targetRoom(target));
          socket.data.screen = { ...screenDataOf(socket)!, banner: next.banner } satisfies ScreenSocket;
          if (target.kind === 'kiosk') socket.emit('kiosk:stream', kioskState(version, target.ref, target.position, resolved, at, next.banner));
          else socket.emit('screen:state', wallState(version, target.ref, resolved, at, next.banner));
          assignments.told(screenDataOf(socket), target, resolved, at);
          return { socket, route: next, sceneId: resolved?.scene.id ?? null };
        }),
      );
    },

    localRefs: () => [...localTargets().keys()],

    resyncAll(version, resolution) {
      pushLocal(version, resolution, (room, ref, _before, resolved) => io.local.to(room).emit('screen:state', wallState(version, ref, resolved)));
    },
  };
}
