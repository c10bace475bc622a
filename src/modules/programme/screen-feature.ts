/**
 * What each wall and kiosk shows, decided here and carried by the hub (realtime/screen-feature.ts):
 * the programme's rules say what a screen follows (screen-routing.ts), the scenes module what
 * that shows now (scene-directory.ts), screen-states.ts pushes it. A change that alters what
 * screens show gets one instant — its commit plus the flip lead, or a later one it asks for (a
 * schedule boundary) — the same for every screen on every node: they all flip together.
 */
import { requestedInstant } from '../../domain/changes.ts';
import { serverNow } from '../../realtime/clock.ts';
import type { HubLink, ScreenFeature, ScreenFeatureFactory, ScreenRegistration } from '../../realtime/screen-feature.ts';
import type { Affected, SceneDirectory } from '../scenes/scene-directory.ts';
import type { Target } from './screen-rooms.ts';
import { targetRoom } from './screen-rooms.ts';
import { routeFactsOf, type Route, type ScreenRouter } from './screen-router.ts';
import { createScreenStates, type ScreenSocket } from './screen-states.ts';
import type { AssignmentFeed } from './screen-assignments.ts';

/**
 * How long after a commit screens show a change, unless SCENE_FLIP_LEAD_MS says otherwise: long
 * enough for the push to reach a thousand walls and for each to load the incoming streams'
 * first pictures, short enough that an operator's click still feels immediate (docs/architecture.md,
 * "Walls in step", has the measurements behind it).
 */
export const DEFAULT_FLIP_LEAD_MS = 800;

/** What the committing node works out once for every node: the instant, and the scenes touched. */
interface ScreenFacts {
  at: number;
  scenes: Affected;
}

function targetOf(registration: ScreenRegistration, route: Route): Target {
  return registration.kind === 'kiosk' ? { kind: 'kiosk', ref: route.ref, position: registration.position } : { kind: 'wall', ref: route.ref };
}

export function screenFeature(deps: { router: ScreenRouter; directory: SceneDirectory; flipLeadMs: number; assignments: Pick<AssignmentFeed, 'told'> }): ScreenFeatureFactory {
  const { router, directory, flipLeadMs, assignments } = deps;
  return (link: HubLink): ScreenFeature => {
    const states = createScreenStates(link, directory, assignments);
    return {
      async register(socket, registration) {
        const facts = routeFactsOf(registration)!;
        const route = await router.route(facts);
        const target = targetOf(registration, route);
        socket.data.screen = { facts, banner: route.banner } satisfies ScreenSocket;
        await socket.join(targetRoom(target));
        const state = await states.stateFor(target, link.appliedVersion(), { banner: route.banner, socket });
        link.shown(socket, {
          follows: registration.sceneSlug ?? null,
          scene_id: state.kind === 'wall' || state.kind === 'kiosk' ? (state.scene?.id ?? null) : null,
          group_id: route.groupId,
          rule: route.rule,
          position: target.kind === 'kiosk' ? target.position : null,
        });
        return state;
      },

      async stateFor(registration) {
        const route = await router.route(routeFactsOf(registration)!, { join: false });
        return states.stateFor(targetOf(registration, route), link.appliedVersion(), { track: false, banner: route.banner });
      },

      async origin(changes): Promise<ScreenFacts> {
        // One instant for every screen on every node, taken once the change is committed.
        return { at: Math.max(serverNow() + flipLeadMs, requestedInstant(changes) ?? 0), scenes: await directory.affected(changes) };
      },

      async apply({ version, changes, facts }) {
        const { at, scenes } = facts.screens as ScreenFacts;
        directory.invalidate();
        const rerouting = router.changed(changes);
        const refs = states.refsToRefresh(scenes);
        // Nothing to push or move on this node (no screen here shows what changed — a node just
        // restarted, say): a registration from this tick on is labelled with this version, its
        // state read after it from the directory just invalidated. Marked only once the push was
        // made, a screen joining in between was answered the change under the version before it,
        // and never told the change came.
        if (refs.length === 0 && !rerouting) return link.pushing(version);
        if (refs.length > 0) {
          const resolution = await directory.resolveChange({ sceneIds: [], refs, defaultSceneId: scenes.defaultSceneId });
          link.pushing(version);
          states.apply(version, scenes, resolution, at);
        }
        // The programme changed (a group, a schedule, a takeover…): every screen here is decided
        // again, for the instant the screens will show it (a boundary is queued a lead early).
        if (rerouting) {
          for (const { socket, route, sceneId } of await states.reroute(version, at, (f) => router.route(f, { at }))) {
            link.shown(socket, { scene_id: sceneId, rule: route.rule, group_id: route.groupId });
          }
        }
      },

      async resync(version) {
        directory.invalidate();
        const resolution = await directory.resolveChange({ sceneIds: [], refs: states.localRefs() });
        link.pushing(version);
        states.resyncAll(version, resolution);
      },
    };
  };
}
