/**
 * A kiosk tablet (`/streams/:position`, `/scenes/:sceneSlug/:position`): one position of a
 * scene, full screen. It follows the default scene (or the named one) through the scene
 * controller, so a new default scene or an edited stream shows at once.
 */
import { useAtomValue } from 'jotai';
import { store } from '../../lib/store.ts';
import { ScreenBanner } from '../../components/ScreenBanner.tsx';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { ConnectionPill } from '../../components/ConnectionPill.tsx';
import { RefreshIcon } from '../../components/icons.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { StatusScreen } from '../../components/StatusScreen.tsx';
import { useElapsed } from '../../lib/useElapsed.ts';
import { Flip, sideProps } from '../screen/Flip.tsx';
import { FIRST_STATE_TIMEOUT_MS, useScreenConnection } from '../screen/session.ts';
import { useStagedStreams } from '../screen/staging.ts';
import { useKioskScreen } from '../screen/screen-sides.ts';
import { invalidPositionMessage, parseKioskPosition } from '../screen/kiosk-position.ts';
import { screenRegistration } from '../screen/registration.ts';
import { PairingScreen } from '../screen/pairing/PairingScreen.tsx';
import { pairingAtom, useEnrolledPage } from '../screen/enrolment.ts';
import './kiosk.css';

function KioskFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="kiosk__failure" role="alert">
      <h1>Stream Unavailable</h1>
      <p>{message}</p>
      <button type="button" className="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

export function KioskScreen() {
  const { position: rawPosition, sceneSlug } = useParams();
  const position = parseKioskPosition(rawPosition);
  const [generation, setGeneration] = useState(0);
  const [playerKey, setPlayerKey] = useState(0);
  const screen = screenRegistration('kiosk', { position: rawPosition, sceneSlug });
  useScreenConnection(screen?.registration ?? null, generation, screen?.options);
  // What this position shows after the waiting flip is drawn now, beneath.
  const { state, next, error } = useKioskScreen();
  const players = useStagedStreams(state?.stream ? [state.stream] : [], next?.stream ? [next.stream] : null);
  const pairing = useAtomValue(pairingAtom, { store });
  useEnrolledPage();
  const timedOut = useElapsed(position !== null && state === null && error === null && !pairing, FIRST_STATE_TIMEOUT_MS, generation);
  const retry = () => {
    setGeneration((n) => n + 1);
    setPlayerKey((n) => n + 1);
  };

  if (position === null) {
    return (
      <StatusScreen tone="error" title={invalidPositionMessage(rawPosition)}>
        <title>Kiosk · Nature Wall</title>
        <p>Kiosk pages are /streams/1 to /streams/5.</p>
      </StatusScreen>
    );
  }

  if (pairing) return <PairingScreen />;
  const pageTitle = <title>{`Stream ${position} · Nature Wall`}</title>;
  const couldNotLoad = `Stream ${position} could not be loaded`;

  let failure: string | null = null;
  if (error !== null) failure = `Error loading stream: ${error || 'Unknown error'}`;
  else if (timedOut) failure = couldNotLoad;
  else if (state?.problem === 'scene-not-found') failure = `Scene not found: ${sceneSlug ?? ''}`;
  else if (state?.problem === 'no-stream-at-position' || (state && !state.stream)) failure = `No stream available for position ${position}`;

  if (failure !== null) {
    return (
      <main className="kiosk kiosk--failed">
        {pageTitle}
        <KioskFailure message={failure} onRetry={retry} />
      </main>
    );
  }
  if (!state?.stream) {
    return (
      <StatusScreen tone="loading" title={`Loading Stream ${position}...`}>
        {pageTitle}
      </StatusScreen>
    );
  }

  const stream = state.stream;
  return (
    <main className="kiosk" data-stream-id={stream.id} data-scene-id={state.scene?.id ?? ''}>
      <title>{`${stream.name} · Stream ${position} · Nature Wall`}</title>
      <div className="kiosk__player">
        {/* The stream shown, and the one its position shows after the next flip, loading beneath. */}
        {players.map(({ id, now, next: after, role }) => (
          <div key={id} className={`kiosk__stage${role === 'kept' ? '' : ` kiosk__stage--${role}`}`} aria-hidden={role === 'incoming' || undefined} inert={role === 'incoming'}>
            <Player
              key={playerKey}
              stream={(now ?? after)!}
              deferMedia={false}
              held={role === 'incoming'}
              renderLoading={() => (
                <div className="player__overlay" role="status">
                  <span className="spinner" aria-hidden="true" />
                  <p>Loading Stream {position}...</p>
                </div>
              )}
              renderError={(retryPlayer) => <KioskFailure message={couldNotLoad} onRetry={retryPlayer} />}
            />
          </div>
        ))}
      </div>
      <Flip now={state.banner} next={next ? next.banner : undefined} render={(text, side) => <ScreenBanner text={text} side={side} />} />
      <header className="kiosk__label">
        <span className="kiosk__position" aria-label={`Position ${position}`}>
          {position}
        </span>
        <div className="kiosk__names flip-stack">
          <Flip
            now={{ name: stream.name, scene: state.scene?.name ?? null }}
            next={next ? { name: next.stream.name, scene: next.scene?.name ?? null } : undefined}
            render={(shown, side) => (
              <div {...sideProps(side)}>
                <h1 className="kiosk__name">{shown.name}</h1>
                {shown.scene && <p className="kiosk__scene">{shown.scene}</p>}
              </div>
            )}
          />
        </div>
        <ConnectionPill />
      </header>
      <button
        type="button"
        className="button button--ghost kiosk__refresh"
        onClick={retry} // spec §4: Refresh fetches the stream again and restarts the player
      >
        <RefreshIcon width={20} height={20} />
        Refresh Stream
      </button>
    </main>
  );
}
