/**
 * The Live Wall (`/app`, spec §2): the selected scene's streams laid out by its layout_type on
 * one screen without scrolling, a clock, the scene switcher at the bottom edge, the gear button
 * and the fullscreen player. It follows the default scene until a scene is picked.
 */
import { ScreenBanner } from '../../components/ScreenBanner.tsx';
import { useAtom, useAtomValue } from 'jotai';
import { memo, useCallback, useEffect, useState } from 'react';
import type { SceneDto, SceneStreamDto } from '../../../src/shared/api/index.ts';
import { SELECTION_ALGORITHM_LABELS } from '../../../src/shared/constants.ts';
import { Clock } from '../../components/Clock.tsx';
import { ConnectionPill } from '../../components/ConnectionPill.tsx';
import { Brand } from '../../components/Brand.tsx';
import { StatusScreen } from '../../components/StatusScreen.tsx';
import { sceneRef } from '../../lib/api.ts';
import { store } from '../../lib/store.ts';
import { useElapsed } from '../../lib/useElapsed.ts';
import { FIRST_STATE_TIMEOUT_MS, useScreenConnection } from '../screen/session.ts';
import { useStagedStreams } from '../screen/staging.ts';
import { useWallScreen } from '../screen/screen-sides.ts';
import { useSceneList } from '../scenes/useSceneList.ts';
import { AdminMenu } from './AdminMenu.tsx';
import { wallSceneRefAtom } from './atoms.ts';
import { FullscreenPlayer } from './FullscreenPlayer.tsx';
import { tileBox, TILE_AREAS, wallLayout, type TileBox } from '../../components/wall-layout.ts';
import { Flip, sideProps, type FlipSide } from '../screen/Flip.tsx';
import { SceneSwitcher } from './SceneSwitcher.tsx';
import { WallTile } from './WallTile.tsx';
import { PairingScreen } from '../screen/pairing/PairingScreen.tsx';
import { pairingAtom, useEnrolledPage } from '../screen/enrolment.ts';
import './wall.css';

/** Streams the wall lays out (at most one per area). */
const onWall = (streams: readonly SceneStreamDto[]) => streams.slice(0, TILE_AREAS.length);

/** Each tile's box in a layout, by its index there; computed once per layout and count (a push and a flip's catch-up each ask twice). */
const boxes = new Map<string, readonly TileBox[]>();
function boxesOf(layoutType: string, count: number): readonly TileBox[] {
  const key = `${layoutType} ${count}`;
  let found = boxes.get(key);
  if (!found) {
    const layout = wallLayout(layoutType, count);
    found = TILE_AREAS.slice(0, count).map((area) => tileBox(layout, area)!);
    boxes.set(key, found);
  }
  return found;
}

/**
 * The header's right side: nothing in it depends on the scene, so a push's render and a flip's
 * catch-up (both on a wall's busiest path) pass it by.
 */
const WallAside = memo(function WallAside() {
  return (
    <div className="wall__aside">
      <ConnectionPill />
      <Clock />
      <AdminMenu />
    </div>
  );
});

/**
 * The tiles of what shows now and of what shows after the waiting flip, each with its box on
 * both sides: a stream in both keeps its element (and its player) and may change boxes.
 */
function WallGrid({ scene, streams, next, onOpen }: { scene: SceneDto; streams: SceneStreamDto[]; next: { scene: SceneDto; streams: SceneStreamDto[] } | null; onOpen: (s: SceneStreamDto) => void }) {
  const shown = onWall(streams);
  const incoming = next ? onWall(next.streams) : null;
  const staged = useStagedStreams(shown, incoming);
  const nowBoxes = boxesOf(scene.layout_type, shown.length);
  const nextBoxes = next && incoming ? boxesOf(next.scene.layout_type, incoming.length) : nowBoxes;
  const tiles = staged.map((tile) => {
    const now = tile.nowIndex !== null ? nowBoxes[tile.nowIndex]! : nextBoxes[tile.nextIndex!]!;
    const after = tile.nextIndex !== null ? nextBoxes[tile.nextIndex]! : now;
    return <WallTile key={tile.id} staged={tile} boxes={{ now, next: after }} waiting={next !== null} onOpen={onOpen} />;
  });
  const empty = (side?: FlipSide) => (
    <div className="wall-grid__empty" {...sideProps(side)}>
      <h2>No streams available</h2>
      <p>Configure streams in the admin panel</p>
    </div>
  );
  const emptyNow = shown.length === 0;
  const emptyNext = incoming ? incoming.length === 0 : emptyNow;
  return (
    <div className="wall-grid" data-layout={scene.layout_type}>
      {emptyNow && empty(emptyNext ? undefined : 'now')}
      {!emptyNow && emptyNext && empty('next')}
      {tiles}
    </div>
  );
}

/** The scene's name, description and selection line: one side of a flip. */
function WallHeading({ scene, side }: { scene: SceneDto; side?: FlipSide }) {
  return (
    <div className="wall__heading" {...sideProps(side)}>
      <Brand />
      <h1 className="wall__title">{scene.name}</h1>
      {scene.description && <p className="wall__description">{scene.description}</p>}
      <p className="wall__meta">
        {SELECTION_ALGORITHM_LABELS[scene.selection_algorithm]} selection · Max {scene.max_streams} streams
      </p>
    </div>
  );
}

export function LiveWall() {
  const [followed, setFollowed] = useAtom(wallSceneRefAtom, { store });
  const [generation, setGeneration] = useState(0);
  const [open, setOpen] = useState<SceneStreamDto | null>(null);
  // What shows after the waiting flip is drawn now, beside what shows.
  const { state, next, error } = useWallScreen();
  const list = useSceneList(state?.scene ?? null);
  const haveScenes = list.status === 'ready' && list.scenes.length > 0;

  // No default scene, or the followed one is gone: the first scene is selected (spec §2).
  const firstRef = list.scenes[0] ? sceneRef(list.scenes[0]) : null;
  useEffect(() => {
    if (state?.problem && firstRef && firstRef !== followed) setFollowed(firstRef);
  }, [state?.problem, firstRef, followed, setFollowed]);
  useScreenConnection(haveScenes ? { kind: 'wall', name: 'Live Wall', ...(followed ? { sceneSlug: followed } : {}) } : null, generation);
  const pairing = useAtomValue(pairingAtom, { store });
  useEnrolledPage();
  const timedOut = useElapsed(haveScenes && state === null && error === null && !pairing, FIRST_STATE_TIMEOUT_MS, generation);

  const pick = useCallback((scene: SceneDto) => setFollowed(sceneRef(scene)), [setFollowed]);
  const openStream = useCallback((stream: SceneStreamDto) => setOpen(stream), []);

  const title = <title>Live Wall · Nature Wall</title>;
  if (pairing) return <PairingScreen />;
  if (list.status === 'error' || error !== null || timedOut) {
    return (
      <StatusScreen
        tone="error"
        title="Oops!"
        action={
          <button
            type="button"
            className="button"
            onClick={() => {
              void list.reload();
              setGeneration((n) => n + 1);
            }}
          >
            Try Again
          </button>
        }
      >
        {title}
        <p>Failed to load scenes. Please check if the server is running.</p>
      </StatusScreen>
    );
  }
  if (list.status === 'ready' && list.scenes.length === 0) {
    return (
      <StatusScreen title="No Scenes Available">
        {title}
        <p>Please contact an administrator to set up some beautiful nature scenes.</p>
      </StatusScreen>
    );
  }
  if (!state?.scene) {
    return (
      <StatusScreen tone="loading" title="Loading Live Wall...">
        {title}
      </StatusScreen>
    );
  }

  const scene = state.scene;
  // The fullscreen stream follows pushes too (an edit to it shows at once), and closes if it left.
  const openStreamNow = open ? (state.streams.find((s) => s.id === open.id) ?? null) : null;
  return (
    <div className="wall" data-scene-id={scene.id}>
      <title>{`${scene.name} · Live Wall · Nature Wall`}</title>
      <Flip now={state.banner} next={next ? next.banner : undefined} render={(text, side) => <ScreenBanner text={text} side={side} />} />
      <header className="wall__header">
        <div className="wall__headings flip-stack">
          <Flip now={scene} next={next?.scene} render={(shown, side) => <WallHeading scene={shown} side={side} />} />
        </div>
        <WallAside />
      </header>
      <main className="wall__main">
        <WallGrid scene={scene} streams={state.streams} next={next} onOpen={openStream} />
      </main>
      <SceneSwitcher scenes={list.scenes} currentId={scene.id} onPick={pick} />
      {openStreamNow && <FullscreenPlayer stream={openStreamNow} onClose={() => setOpen(null)} />}
    </div>
  );
}
