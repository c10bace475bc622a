/**
 * The scene viewer (`/` follows the default scene, `/scenes/:sceneSlug` one scene): header with
 * the scene name and clock, a card per stream, and the bar of scenes. Everything it shows
 * comes from the scene controller, so when the default scene switches `/` switches with it,
 * without a reload.
 */
import { useAtomValue } from 'jotai';
import { store } from '../../lib/store.ts';
import { ScreenBanner } from '../../components/ScreenBanner.tsx';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Clock } from '../../components/Clock.tsx';
import { ConnectionPill } from '../../components/ConnectionPill.tsx';
import { Brand } from '../../components/Brand.tsx';
import { StatusScreen } from '../../components/StatusScreen.tsx';
import { useElapsed } from '../../lib/useElapsed.ts';
import { FIRST_STATE_TIMEOUT_MS, useScreenConnection } from '../screen/session.ts';
import { screenRegistration } from '../screen/registration.ts';
import { useStagedStreams } from '../screen/staging.ts';
import { useWallScreen } from '../screen/screen-sides.ts';
import { useSceneList } from '../scenes/useSceneList.ts';
import type { SceneDto } from '../../../src/shared/api/index.ts';
import { Flip, sideProps, type FlipSide } from '../screen/Flip.tsx';
import { SceneBar } from './SceneBar.tsx';
import { StreamCard } from './StreamCard.tsx';
import { PairingScreen } from '../screen/pairing/PairingScreen.tsx';
import { pairingAtom, useEnrolledPage } from '../screen/enrolment.ts';
import './viewer.css';

/** The scene's name and description: one side of a flip. */
function ViewerHeading({ scene, side }: { scene: SceneDto | null; side?: FlipSide }) {
  return (
    <div className="viewer__heading" {...sideProps(side)}>
      <Brand />
      <h1 className="viewer__title">{scene?.name ?? 'Nature Wall'}</h1>
      {scene?.description && <p className="viewer__description">{scene.description}</p>}
    </div>
  );
}

export function SceneViewer() {
  const { sceneSlug } = useParams();
  const [generation, setGeneration] = useState(0);
  useScreenConnection(screenRegistration('viewer', { sceneSlug })?.registration ?? null, generation);
  // What shows after the waiting flip is drawn now, beside what shows.
  const { state, next, error } = useWallScreen();
  const cards = useStagedStreams(state?.streams ?? [], next ? next.streams : null);
  const scene = state?.scene ?? null;
  const list = useSceneList(scene);
  const pairing = useAtomValue(pairingAtom, { store });
  useEnrolledPage();
  const timedOut = useElapsed(state === null && error === null && !pairing, FIRST_STATE_TIMEOUT_MS, generation);
  const retry = () => setGeneration((n) => n + 1);
  const retryButton = (
    <button type="button" className="button" onClick={retry}>
      Retry
    </button>
  );

  // Waiting for approval (or asking for a code): the code, nothing else plays.
  if (pairing) return <PairingScreen />;
  if (error !== null || timedOut) {
    return (
      <StatusScreen tone="error" title={error ?? 'Failed to load scene data'} action={retryButton}>
        <title>Nature Wall</title>
      </StatusScreen>
    );
  }
  if (!state) {
    return (
      <StatusScreen tone="loading" title="Loading scene...">
        <title>Nature Wall</title>
      </StatusScreen>
    );
  }

  const bar = <SceneBar scenes={list.scenes} currentId={scene?.id ?? null} />;
  const title = scene?.name ?? 'Nature Wall';

  return (
    <div className="viewer" data-scene-id={scene?.id ?? ''}>
      <title>{`${title} · Nature Wall`}</title>
      <Flip now={state.banner} next={next ? next.banner : undefined} render={(text, side) => <ScreenBanner text={text} side={side} />} />
      <header className="viewer__header">
        <div className="viewer__headings flip-stack">
          <Flip now={scene} next={next ? next.scene : undefined} render={(shown, side) => <ViewerHeading scene={shown} side={side} />} />
        </div>
        <div className="viewer__aside">
          <ConnectionPill />
          <Clock />
        </div>
      </header>
      <main className="viewer__main">
        {state.problem === 'scene-not-found' ? (
          <section className="viewer__state viewer__state--error" role="alert">
            <h2>Scene not found: {sceneSlug ?? ''}</h2>
            {retryButton}
          </section>
        ) : state.streams.length === 0 ? (
          <section className="viewer__state">
            <h2>No streams available</h2>
            <p>Configure streams in the admin panel</p>
          </section>
        ) : (
          <div className="viewer__cards">
            {cards.map((card) => (
              <StreamCard key={card.id} staged={card} waiting={next !== null} />
            ))}
          </div>
        )}
      </main>
      {bar}
    </div>
  );
}
