/**
 * A platform player in an iframe (autoplaying, muted). It counts as ready on its load event or
 * after 1 s (1.5 s fullscreen), since a cross-origin frame says little about itself. YouTube
 * does say whether it plays (its JS API is on): if it has not started 5 s after ready, a
 * tap-to-play overlay offers to reload the frame (spec §4).
 */
import { useEffect, useRef, useState } from 'react';
import { EMBED_READY_FULLSCREEN_MS, EMBED_READY_MS, TAP_TO_PLAY_MS, type MediaEvent } from './machine.ts';
import type { PlayerSource } from '../../../src/shared/streams/player-source.ts';
import { youtubeIsPlaying } from './youtube.ts';
import { countEffect } from '../../lib/render-count.ts';

type EmbedSource = Extract<PlayerSource, { kind: 'embed' }>;

interface EmbedFrameProps {
  source: EmbedSource;
  title: string;
  fullscreen: boolean;
  ready: boolean;
  onEvent: (event: MediaEvent) => void;
}

export function EmbedFrame({ source, title, fullscreen, ready, onEvent }: EmbedFrameProps) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [reloads, setReloads] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [showTap, setShowTap] = useState(false);
  const emit = useRef(onEvent);
  emit.current = onEvent;

  // Ready on load, or after the spec's timeout whichever comes first.
  useEffect(() => {
    countEffect();
    const timer = setTimeout(() => emit.current('ready'), fullscreen ? EMBED_READY_FULLSCREEN_MS : EMBED_READY_MS);
    return () => clearTimeout(timer);
  }, [fullscreen, reloads, source.src]);

  // YouTube reports its state over postMessage once we say we are listening.
  useEffect(() => {
    if (source.platform !== 'youtube') return;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frameRef.current?.contentWindow) return;
      if (youtubeIsPlaying(event.data)) setPlaying(true);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [source.platform]);

  useEffect(() => {
    if (source.platform !== 'youtube' || !ready || playing) {
      setShowTap(false);
      return;
    }
    const timer = setTimeout(() => setShowTap(true), TAP_TO_PLAY_MS);
    return () => clearTimeout(timer);
  }, [source.platform, ready, playing, reloads]);

  const onLoad = () => {
    emit.current('ready');
    if (source.platform === 'youtube') {
      frameRef.current?.contentWindow?.postMessage(JSON.stringify({ event: 'listening', id: title, channel: 'widget' }), new URL(source.src).origin);
    }
  };

  return (
    <>
      <iframe
        key={reloads}
        ref={frameRef}
        className="player__media player__frame"
        src={source.src}
        title={title}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        loading="eager"
        onLoad={onLoad}
        onError={() => emit.current('error')}
      />
      {showTap && (
        <button
          type="button"
          className="player__tap"
          onClick={() => {
            setShowTap(false);
            setPlaying(false);
            setReloads((n) => n + 1);
          }}
        >
          <span className="player__tap-icon" aria-hidden="true">▶</span>
          Tap to play
        </button>
      )}
    </>
  );
}
