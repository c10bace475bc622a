import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import type { SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';
import type { WallState } from '../../src/shared/events.ts';
import { applyScreenMessage, type ScreenMessage } from '../../src/shared/screen-state.ts';
import { followAtom, screenMessageAtom, screenStateAtom } from '../../web/features/screen/atoms.ts';

const scene = (id: number) => ({ id, name: `Scene ${id}` }) as SceneDto;
const streams = (...ids: number[]) => ids.map((id, i) => ({ id, position: i + 1 }) as SceneStreamDto);
const wall = { kind: 'wall' as const, follows: null };

const pushed = (version: number, sceneId: number, ...ids: number[]): ScreenMessage => ({
  type: 'scene',
  payload: { version, scene: scene(sceneId), streams: streams(...ids) },
});
const snapshot = (version: number, sceneId: number): ScreenMessage => ({
  type: 'state',
  state: { kind: 'wall', version, follows: null, scene: scene(sceneId), streams: [], problem: null },
});

describe('applyScreenMessage: the version rule', () => {
  it.each([
    ['applies a higher version', 5, pushed(6, 2), 2],
    ['ignores a lower version (a late push)', 5, pushed(4, 2), 1],
    ['ignores the same version (a repeated push)', 5, pushed(5, 2), 1],
    ['ignores a stale snapshot after reconnect', 5, snapshot(3, 2), 1],
    ['applies a newer snapshot after reconnect', 5, snapshot(9, 2), 2],
  ])('%s', (_rule, currentVersion, message, expectedScene) => {
    const current: WallState = { kind: 'wall', version: currentVersion, follows: null, scene: scene(1), streams: [], problem: null };
    const next = applyScreenMessage(current, message, wall) as WallState;
    expect(next.scene?.id).toBe(expectedScene);
  });

  it('takes anything when the screen shows nothing yet', () => {
    expect(applyScreenMessage(null, pushed(1, 3, 7), wall)).toMatchObject({ version: 1, scene: { id: 3 } });
  });

  it('marks a deleted scene as not found', () => {
    const current = applyScreenMessage(null, pushed(1, 3, 7), wall);
    expect(applyScreenMessage(current, { type: 'scene-deleted', payload: { version: 2, scene_id: 3 } }, wall)).toMatchObject({
      scene: null, streams: [], problem: 'scene-not-found',
    });
  });

  it('ignores a kiosk state for another position, and wall pushes on a kiosk', () => {
    const kioskTarget = { kind: 'kiosk' as const, follows: null, position: 2 };
    const other = { type: 'kiosk' as const, state: { kind: 'kiosk' as const, version: 3, follows: null, position: 4, scene: null, stream: null, problem: null } };
    expect(applyScreenMessage(null, other, kioskTarget)).toBeNull();
    expect(applyScreenMessage(null, pushed(3, 1), kioskTarget)).toBeNull();
  });
});

describe('the web store honours versions', () => {
  it('a stale version is ignored by the client store', () => {
    const store = createStore();
    store.set(followAtom, wall);
    store.set(screenMessageAtom, pushed(10, 1, 5, 6));
    store.set(screenMessageAtom, pushed(8, 2, 9)); // late push from before
    store.set(screenMessageAtom, pushed(10, 3, 9)); // duplicate version
    expect(store.get(screenStateAtom)).toMatchObject({ version: 10, scene: { id: 1 } });
    store.set(screenMessageAtom, pushed(11, 4, 9));
    expect(store.get(screenStateAtom)).toMatchObject({ version: 11, scene: { id: 4 } });
  });

  it('following something else starts over', () => {
    const store = createStore();
    store.set(followAtom, wall);
    store.set(screenMessageAtom, pushed(10, 1));
    store.set(followAtom, { kind: 'wall', follows: 'ocean' });
    expect(store.get(screenStateAtom)).toBeNull();
    store.set(screenMessageAtom, snapshot(4, 7));
    expect(store.get(screenStateAtom)).toMatchObject({ version: 4, scene: { id: 7 } });
  });
});
