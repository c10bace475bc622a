/**
 * The version a screen's registration is labelled with (screen-feature.ts, HubLink.pushing): a
 * screen that joins while a change is applied must either hear the change's push or be answered
 * under its version — never the change's state under the version before it (a change it would
 * seem to have missed: tests/cluster/nginx.test.ts saw it once, on a node just restarted).
 */
import { describe, expect, it } from 'vitest';
import { screenFeature } from '../../src/modules/programme/screen-feature.ts';
import { targetRoom } from '../../src/modules/programme/screen-rooms.ts';
import type { ScreenRouter } from '../../src/modules/programme/screen-router.ts';
import type { SceneDirectory, SceneResolution } from '../../src/modules/scenes/scene-directory.ts';
import type { HubLink } from '../../src/realtime/screen-feature.ts';

/** A node's rooms (with `members` sockets in the default scene's wall room), and what it marked. */
function node(members: string[]) {
  const rooms = new Map<string, Set<string>>(members.length ? [[targetRoom({ kind: 'wall', ref: null }), new Set(members)]] : []);
  const marked: number[] = [];
  const emitted: string[] = [];
  const io = {
    of: () => ({ adapter: { rooms, on: () => undefined }, sockets: new Map() }),
    local: { to: () => ({ emit: (event: string) => void emitted.push(event) }) },
  };
  const link = { io, appliedVersion: () => marked.at(-1) ?? 17, pushing: (version: number) => void marked.push(version), shown: () => undefined } as unknown as HubLink;
  const router = { route: async () => ({ ref: null, rule: 'default', groupId: null }), changed: () => false } as unknown as ScreenRouter;
  let resolveChange: (r: SceneResolution) => void = () => undefined;
  const directory = {
    invalidate: () => undefined,
    resolve: async () => null,
    resolveChange: () => new Promise<SceneResolution>((resolve) => (resolveChange = resolve)),
  } as unknown as SceneDirectory;
  const feature = screenFeature({ router, directory, flipLeadMs: 800, assignments: { told: () => undefined } })(link);
  const apply = (version: number) => feature.apply({ version, changes: [], facts: { screens: { at: 0, scenes: { sceneIds: [], defaultSceneId: 5 } } } } as never);
  return { feature, apply, marked, emitted, finishResolve: (r: SceneResolution) => resolveChange(r) };
}

describe('the version a registration is labelled with', () => {
  it('moves in the same tick as the change on a node with nothing to push (a node just restarted)', async () => {
    const n = node([]);
    const applying = n.apply(18);
    // Before anything else can run: a screen registering from here on is labelled 18.
    expect(n.marked).toEqual([18]);
    await applying;
    expect(n.emitted).toEqual([]);
  });

  it('moves only with the push on a node whose screens show the change (never past what they were shown)', async () => {
    const n = node(['socket-1']);
    const applying = n.apply(18);
    await Promise.resolve();
    expect(n.marked).toEqual([]); // the change's state is still being read
    n.finishResolve({ byRef: new Map([['', null]]) } as unknown as SceneResolution);
    await applying;
    expect(n.marked).toEqual([18]);
    expect(n.emitted.length).toBeGreaterThan(0);
  });
});
