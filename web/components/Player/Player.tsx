/**
 * Plays one stream, whatever it is (see source.ts): a platform embed, an allow-listed webcam
 * page, HLS or a video file, or a link out. Always muted and autoplaying, never with controls.
 * It reports its health for the hub and retries direct streams with backoff (machine.ts).
 * Screens choose their own loading and failure words through renderLoading / renderError.
 */
import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import type { StreamDto } from '../../../src/shared/api/index.ts';
import { dropPlaybackAtom, setPlaybackAtom } from '../../features/screen/playback.ts';
import { countRender } from '../../lib/render-count.ts';
import { store } from '../../lib/store.ts';
import { DirectVideo } from './DirectVideo.tsx';
import { EmbedFrame } from './EmbedFrame.tsx';
import { hasMediaSource, loadHls } from './hls-loader.ts';
import { initialPlayerState, playerReducer, retryDelay, type MediaEvent, type PlayerPhase } from './machine.ts';
import { candidateUrls, isDirect, resolvePlayerSource } from '../../../src/shared/streams/player-source.ts';
import './player.css';

/** `playback`: the server's start and sync choice for an HLS stream (absent: the player's defaults). */
export type PlayerStream = Pick<StreamDto, 'id' | 'name' | 'url' | 'fallback_url'> & Partial<Pick<StreamDto, 'playback'>>;

export interface PlayerProps {
  stream: PlayerStream;
  /** Fullscreen players wait 1.5 s instead of 1 s before an embed counts as ready. */
  fullscreen?: boolean;
  fit?: 'cover' | 'contain';
  renderLoading?: (stream: PlayerStream) => ReactNode;
  renderError?: (retry: () => void, stream: PlayerStream) => ReactNode;
  onPhaseChange?: (phase: PlayerPhase) => void;
  /**
   * Mount the frame or video one task after the player (default): on a wall, a scene switch
   * then shows the new scene before five players start. A screen with one player needs no wait.
   */
  deferMedia?: boolean;
  /**
   * One of several players on the screen (a wall's tile, a viewer's card): hls.js transmuxes in
   * its worker, off the main thread the flips need. A lone player (a kiosk, a preview) transmuxes
   * inline and shows its first picture sooner: the worker's start cost a cold kiosk 150 ms.
   */
  oneOfMany?: boolean;
  /**
   * Waiting for its flip (an incoming tile, card or kiosk stage): it loads to its first picture
   * and holds there, so its next segments are not fetched and appended in the frames around the
   * instant; it loads on once the flip is past (DirectVideo.tsx).
   */
  held?: boolean;
}

export function PlayerLoading() {
  return (
    <div className="player__overlay player__overlay--loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>Connecting to stream...</p>
    </div>
  );
}

export function PlayerFailure({ name, onRetry }: { name: string; onRetry: () => void }) {
  return (
    <div className="player__overlay player__overlay--error" role="alert">
      <p className="player__error-title">Stream unavailable: {name}</p>
      <p className="player__error-text">The stream may be temporarily offline. Please try again later.</p>
      <button type="button" className="button button--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

/** A different address is a different player: its state starts afresh. */
export function Player(props: PlayerProps) {
  return <StreamPlayer key={`${props.stream.url} ${props.stream.fallback_url ?? ''}`} {...props} />;
}

function StreamPlayer({ stream, fullscreen = false, fit = 'cover', renderLoading, renderError, onPhaseChange, deferMedia = true, oneOfMany = false, held = false }: PlayerProps) {
  countRender();
  const playerId = useId();
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const candidates = useMemo(() => candidateUrls(stream), [stream]);
  const url = candidates[state.candidate] ?? stream.url;
  const source = useMemo(() => resolvePlayerSource(url, window.location.hostname), [url]);
  const direct = isDirect(source);
  const setPlayback = useSetAtom(setPlaybackAtom, { store });
  const dropPlayback = useSetAtom(dropPlaybackAtom, { store });

  const health = source.kind === 'link' ? 'error' : state.health;
  useEffect(() => {
    setPlayback({ playerId, streamId: stream.id, state: health });
  }, [playerId, stream.id, health, setPlayback]);
  useEffect(() => () => dropPlayback(playerId), [playerId, dropPlayback]);

  useEffect(() => onPhaseChange?.(state.phase), [state.phase, onPhaseChange]);

  const retry = useCallback(() => dispatch({ type: 'retry', manual: true, candidates: candidates.length }), [candidates.length]);
  const reload = useCallback(() => dispatch({ type: 'retry', manual: false, candidates: candidates.length }), [candidates.length]);

  // A failed direct stream tries again on its own, with backoff, until it plays.
  useEffect(() => {
    if (!direct || state.phase !== 'error') return;
    const timer = setTimeout(reload, retryDelay(state.attempt));
    return () => clearTimeout(timer);
  }, [direct, state.phase, state.attempt, state.generation, reload]);

  const onEvent = useCallback((type: MediaEvent) => dispatch({ type }), []);
  const title = `${stream.name} live stream`;

  // The frame or video element goes in one task after the player itself: creating a browsing
  // context or a decoder is the expensive part of a scene switch, and the new scene's names
  // and layout should be on screen before it starts.
  // A player waiting for its flip is out of sight and has nothing to wait for: it starts in the
  // push's own task, so its first picture is decoded well before the instant (a task and a render
  // later, on a busy wall, it was 50–300 ms closer to it).
  const [mediaMounted, setMediaMounted] = useState(!deferMedia || held);
  useLayoutEffect(() => {
    if (source.kind === 'hls' && hasMediaSource()) loadHls().catch(() => {}); // the video reports a failure
  }, [source.kind]);
  useEffect(() => {
    if (mediaMounted) return;
    const timer = setTimeout(() => setMediaMounted(true), 0);
    return () => clearTimeout(timer);
  }, [mediaMounted]);

  return (
    <div className={`player player--${state.phase}`} data-player-state={state.phase} data-stream-id={stream.id} data-source={source.kind}>
      {mediaMounted && source.kind === 'embed' && (
        <EmbedFrame key={`${source.src}#${state.generation}`} source={source} title={title} fullscreen={fullscreen} ready={state.phase === 'ready'} onEvent={onEvent} />
      )}
      {mediaMounted && direct && (
        <DirectVideo key={`${source.src}#${state.generation}`} source={source} playback={stream.playback ?? null} fit={fit} label={title} worker={oneOfMany} held={held} onEvent={onEvent} onStalledTooLong={reload} />
      )}
      {source.kind === 'link' && (
        <div className="player__overlay player__overlay--link">
          <p>This stream plays on {source.host}.</p>
          <a className="button button--small" href={source.href} target="_blank" rel="noopener noreferrer">
            Open stream
          </a>
        </div>
      )}
      {source.kind !== 'link' && state.phase === 'loading' && (renderLoading ? renderLoading(stream) : <PlayerLoading />)}
      {source.kind !== 'link' && state.phase === 'error' && (renderError ? renderError(retry, stream) : <PlayerFailure name={stream.name} onRetry={retry} />)}
    </div>
  );
}
