/**
 * Which scene each wall and kiosk follows is decided by the server (this module's rules:
 * takeover, address, own scene, group schedule, group, building schedule, default), through a
 * ScreenRouter (screen-routing.ts makes the programme's; ADDRESS_ROUTER follows the address).
 */
import type { DomainChange } from '../../domain/changes.ts';
import type { Registration } from '../../shared/events.ts';
import type { ShownRule } from '../../shared/schedules/rules.ts';

/** What a wall or kiosk said about itself that the rules read. */
export interface RouteFacts {
  kind: 'wall' | 'kiosk';
  device: string | null;
  /** The group slug in its address (`?group=`), which it joins. */
  group: string | null;
  /** The scene slug or id in its address (`/scenes/<slug>`). */
  address: string | null;
  position: number | null;
}

/** The reference a screen follows (slug or id as text; null: the default scene), its group and why. */
export interface Route {
  ref: string | null;
  rule: ShownRule;
  groupId: number | null;
  /** A takeover's line for the screen to show over the scene. */
  banner?: string | undefined;
}

export interface ScreenRouter {
  /**
   * `join: false`: a look, not a registration (a page's HTML) — a group in the address is
   * followed, not joined. `at`: decide for that instant (a change's flip instant), not now.
   */
  route(facts: RouteFacts, options?: { join?: boolean; at?: number }): Promise<Route>;
  /**
   * Whether committed changes may move screens (the programme changed); the router forgets
   * what it cached about them. Called on every node for every change.
   */
  changed(changes: readonly DomainChange[]): boolean;
}

/** The facts of a wall's or kiosk's registration; null for consoles and raters. */
export function routeFactsOf(registration: Registration): RouteFacts | null {
  if (registration.kind !== 'wall' && registration.kind !== 'kiosk') return null;
  return {
    kind: registration.kind,
    device: registration.device ?? null,
    group: registration.group ?? null,
    address: registration.sceneSlug ?? null,
    position: registration.kind === 'kiosk' ? registration.position : null,
  };
}

/** Without a programme: the address, or the default scene. */
export const ADDRESS_ROUTER: ScreenRouter = {
  route: async (facts) => ({ ref: facts.address, rule: facts.address ? 'address' : 'default', groupId: null }),
  changed: () => false,
};
