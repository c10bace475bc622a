/**
 * A direct stream in a muted, looping, autoplaying <video> without controls: files through the
 * element itself, HLS through hls.js (its chunk is fetched only here, when an HLS stream is on
 * screen) or the browser's own HLS where it has no Media Source Extensions (iPhone Safari).
 */
import { useEffect, useRef } from 'react';
import type HlsType from 'hls.js';
import { clockAtom } from '../../features/screen/atoms.ts';
import { countEffect } from '../../lib/render-count.ts';
import { store } from '../../lib/store.ts';
import { loopErrorMs, programErrorMs, SYNC_PERIOD_MS, syncStep } from './live-sync.ts';
import { syncLatencyMs, type PlaybackHints } from '../../../src/shared/streams/playback.ts';
import { STALL_REPORT_MS, STALL_RETRY_MS, type MediaEvent } from './machine.ts';
import { hasMediaSource, loadHls } from './hls-loader.ts';
import type { PlayerSource } from '../../../src/shared/streams/player-source.ts';

type DirectSource = Extract<PlayerSource, { kind: 'hls' | 'file' }>;

interface DirectVideoProps {
  source: DirectSource;
  /** The server's choice for this stream: its shared latency and the variant to start at. */
  playback: PlaybackHints | null;
  fit: 'cover' | 'contain';
  onEvent: (event: MediaEvent) => void;
  /** A stall went on too long: rebuild the player. */
  onStalledTooLong: () => void;
  label: string;
}

const HLS_MIME = 'application/vnd.apple.mpegurl';
/** How long after a player leaves its decoder and connection are released. */
const TEARDOWN_DELAY_MS = 250;

/** hls.js wherever MSE exists (one code path for retries and errors); native HLS otherwise. */
function useNativeHls(video: HTMLVideoElement): boolean {
  return !hasMediaSource() && video.canPlayType(HLS_MIME) !== '';
}

function play(video: HTMLVideoElement): void {
  video.muted = true; // React sets no muted attribute: make autoplay's precondition explicit
  void video.play().catch(() => {
    /* autoplay refused: the first user interaction plays it (lib/interaction.ts) */
  });
}

export function DirectVideo({ source, playback, fit, onEvent, onStalledTooLong, label }: DirectVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const events = useRef({ onEvent, onStalledTooLong, playback });
  events.current = { onEvent, onStalledTooLong, playback };

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    countEffect();
    const emit = (event: MediaEvent) => events.current.onEvent(event);
    let cancelled = false;
    let destroyHls: (() => void) | undefined;

    // Stall watch: 'waiting' without progress is reported, and after a while the player reloads.
    let stallReport: ReturnType<typeof setTimeout> | undefined;
    let stallRetry: ReturnType<typeof setTimeout> | undefined;
    const clearStall = () => {
      clearTimeout(stallReport);
      clearTimeout(stallRetry);
      stallReport = stallRetry = undefined;
    };
    const onWaiting = () => {
      if (stallRetry) return;
      stallReport = setTimeout(() => emit('stalled'), STALL_REPORT_MS);
      stallRetry = setTimeout(() => events.current.onStalledTooLong(), STALL_RETRY_MS);
    };
    let lastTime = -1;
    const onProgress = () => {
      if (video.currentTime !== lastTime && !video.paused) {
        lastTime = video.currentTime;
        clearStall();
        emit('playing');
      }
    };
    const onCanPlay = () => {
      emit('ready');
      if (video.paused) play(video);
    };
    const onError = () => emit('error');

    // One signal removes every listener below when the effect ends.
    const listeners = new AbortController();
    const listen = (type: string, handler: () => void) => video.addEventListener(type, handler, { signal: listeners.signal });
    listen('canplay', onCanPlay);
    listen('playing', onProgress);
    listen('timeupdate', onProgress);
    listen('waiting', onWaiting);
    listen('stalled', onWaiting);
    listen('error', onError);

    // The same moment on every screen (live-sync.ts): steered on the server's clock, once a
    // screen knows it (the console and other pages have no clock and play as they come).
    let hlsPlayer: HlsType | undefined;
    const steer = setInterval(() => {
      const clock = store.get(clockAtom);
      if (!clock || video.paused || video.readyState < 2) return;
      const serverNow = performance.now() + clock.offsetMs;
      let error: number;
      if (hlsPlayer) {
        const shown = hlsPlayer.playingDate;
        const details = hlsPlayer.latestLevelDetails;
        if (!shown || !details) return; // no program date-time: hls.js's own live position
        // One latency on every screen: the server's, or the same rule on the same playlist.
        error = programErrorMs(shown.getTime(), serverNow, events.current.playback?.sync_latency_ms ?? syncLatencyMs(details.targetduration));
      } else if (source.kind === 'file' && video.loop && Number.isFinite(video.duration)) {
        error = loopErrorMs(video.currentTime, video.duration, serverNow);
      } else return;
      const step = syncStep(error);
      if (step.kind === 'seek') {
        const to = video.currentTime + step.bySeconds;
        video.currentTime = hlsPlayer ? to : ((to % video.duration) + video.duration) % video.duration;
      } else if (video.playbackRate !== step.rate) video.playbackRate = step.rate;
    }, SYNC_PERIOD_MS);

    const start = () => {
      if (source.kind === 'hls' && !useNativeHls(video)) {
        loadHls()
          .then((Hls) => {
            if (cancelled) return;
            if (!Hls.isSupported()) return emit('error');
            const hls = new Hls({
              maxBufferLength: 12, // live cameras: a short buffer, five of them on a wall
              backBufferLength: 10,
              liveDurationInfinity: true,
              startFragPrefetch: true, // fetch the first segment without waiting for the MediaSource
              enableWorker: true, // transmuxing off the main thread: five HD streams must not jank the wall (CSP: worker-src blob:)
            });
            let mediaRecoveries = 0;
            hls.on(Hls.Events.ERROR, (_event, data) => {
              if (!data.fatal) return;
              if (data.type === Hls.ErrorTypes.MEDIA_ERROR && mediaRecoveries++ < 1) return hls.recoverMediaError();
              emit('error'); // the player's backoff rebuilds everything, hls.js included
            });
            const startAt = events.current.playback?.start_bandwidth;
            if (startAt) {
              // The variant the server's analysis found cheap to start (its first segment comes
              // soonest); ABR climbs from there once it has measured the link.
              hls.once(Hls.Events.MANIFEST_PARSED, (_event, data) => {
                const level = data.levels.findIndex((l) => l.bitrate === startAt);
                if (level >= 0) hls.startLevel = level;
              });
            }
            hls.loadSource(source.src);
            hls.attachMedia(video);
            play(video);
            hlsPlayer = hls;
            destroyHls = () => hls.destroy();
          })
          .catch(() => {
            if (!cancelled) emit('error'); // the chunk did not load (offline, deploy in between)
          });
      } else {
        video.src = source.src;
        play(video);
      }
    };
    start();

    return () => {
      cancelled = true;
      clearInterval(steer);
      clearStall();
      listeners.abort();
      const destroy = destroyHls;
      video.pause(); // at once and cheap: it decodes nothing more
      setTimeout(() => {
        // The teardown waits until a flip's frames are past (on every wall of a venue at once, it
        // would otherwise compete with them); then the connection and decoder go, not at GC.
        destroy?.();
        video.removeAttribute('src');
        video.load();
      }, TEARDOWN_DELAY_MS);
    };
  }, [source.kind, source.src]);

  return (
    <video
      ref={videoRef}
      className={`player__media player__media--${fit}`}
      muted
      autoPlay
      loop
      playsInline
      preload="auto"
      disablePictureInPicture
      aria-label={label}
    >
      Your browser does not support the video tag.
    </video>
  );
}
