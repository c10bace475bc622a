/**
 * A direct stream in a muted, looping, autoplaying <video> without controls: files through the
 * element itself, HLS through hls.js (its chunk is fetched only here, when an HLS stream is on
 * screen) or the browser's own HLS where it has no Media Source Extensions (iPhone Safari).
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import type HlsType from 'hls.js';
import type { LevelDetails } from 'hls.js';
import { clockAtom } from '../../features/screen/atoms.ts';
import { renditionStep } from '../../features/screen/rendition-step.ts';
import { flipIsNear, msUntilFlip } from '../../features/screen/flip-scheduler.ts';
import { heldSeekAllowed, HOLD_MAX_MS, quietLoads, shouldHold } from './flip-hold.ts';
import { countEffect } from '../../lib/render-count.ts';
import { store } from '../../lib/store.ts';
import { freshSeekBudget, keyframeStart, learnSeekLead, loopErrorMs, programErrorMs, programStartPosition, seekTarget, spendSeek, SYNC_PERIOD_MS, syncStep } from './live-sync.ts';
import { planProgramSync, syncLatencyMs, type PlaybackHints, type ProgramPlan } from '../../../src/shared/streams/playback.ts';
import { pictureAdvanced, pictureSample, PROGRESS_CHECK_MS, STALL_REPORT_MS, STALL_RETRY_MS, type MediaEvent, type PictureSample } from './machine.ts';
import { hasMediaSource, loadHls } from './hls-loader.ts';
import { takePrestarted, type Prestarted } from './prestarted.ts';
import { createHls, playMuted as play } from './start-media.ts';
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
  /** Transmux HLS in hls.js's worker (Player's `oneOfMany`), not on the main thread. */
  worker: boolean;
  /** Waiting for its flip: load to the first picture, then hold until this turns false (Player's `held`). */
  held: boolean;
}

const HLS_MIME = 'application/vnd.apple.mpegurl';
/** A media element's time ranges (buffered, seekable) as [start, end] pairs. */
const rangesOf = (ranges: TimeRanges) => Array.from({ length: ranges.length }, (_, i) => [ranges.start(i), ranges.end(i)] as [number, number]);
/** Playlist loads the camera's clock skew is judged over (the largest: the freshest load). */
const SKEW_LOADS = 4;
/** How long after a player leaves its decoder and connection are released. */
const TEARDOWN_DELAY_MS = 250;
/**
 * How far this screen's players aim ahead of the shared moment when they start and when they
 * seek (live-sync.ts `learnSeekLead`): what loading and decoding there took on this screen, the
 * same for every tile of it.
 */
const screenLeads = { startMs: 300, seekMs: 300 };

/** hls.js wherever MSE exists (one code path for retries and errors); native HLS otherwise. */
function useNativeHls(video: HTMLVideoElement): boolean {
  return !hasMediaSource() && video.canPlayType(HLS_MIME) !== '';
}

/**
 * A kiosk's camera started before the app (web/prestart.ts) takes the place of the element React
 * rendered, playing as it is (a media element moved within the page keeps playing); `restore`
 * puts React's back before React removes or reuses it.
 */
function adoptVideo(own: HTMLVideoElement, started: Prestarted): { video: HTMLVideoElement; restore: () => void } {
  const { video } = started;
  video.className = own.className;
  // Already seen: not faded in again as a new player's picture is (player.css), for two frames.
  video.style.cssText = 'transition:none';
  requestAnimationFrame(() => requestAnimationFrame(() => (video.style.cssText = '')));
  video.setAttribute('aria-label', own.getAttribute('aria-label') ?? '');
  own.replaceWith(video);
  started.holder.remove();
  return { video, restore: () => video.replaceWith(own) };
}

export function DirectVideo({ source, playback, fit, onEvent, onStalledTooLong, label, worker, held }: DirectVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const events = useRef({ onEvent, onStalledTooLong, playback });
  events.current = { onEvent, onStalledTooLong, playback };
  const holding = useRef({ held, release: () => {} });
  holding.current.held = held;
  // The flip is past: load on (React renders the tile as kept after the flip's frames).
  useEffect(() => {
    if (!held) holding.current.release();
  }, [held]);

  // Everything the player does while its source stays, with its cleanup.
  const run = (): (() => void) | undefined => {
    const own = videoRef.current;
    if (!own) return;
    countEffect();
    const prestarted = source.kind === 'hls' && !worker ? takePrestarted(source.src) : null;
    const adopted = prestarted ? adoptVideo(own, prestarted) : null;
    const video = adopted?.video ?? own;
    const emit = (event: MediaEvent) => events.current.onEvent(event);
    let cancelled = false;
    let destroyHls: (() => void) | undefined;

    // Progress is judged by the picture, not by events: a seek fires 'timeupdate' too, and a tile
    // the sync kept seeking looked alive while it showed one frame. Each second: did the decoder
    // present new frames (or, where the browser cannot count them, the playhead move)? A tile
    // that has not advanced for a while is reported stalled, then rebuilt.
    let advancedAt = performance.now();
    let seen: PictureSample | null = null;
    let reportedStall = false;
    let sought = false;
    const watch = setInterval(() => {
      const now = performance.now();
      if (flipIsNear(now)) return void (advancedAt += PROGRESS_CHECK_MS); // its turn is put off, not counted against it
      const sample = pictureSample(video);
      const played = pictureAdvanced(seen, sample, sought);
      sought = false;
      if (video.paused || played) {
        // Paused: autoplay refused, waiting for a touch (lib/interaction.ts) — not a stall.
        advancedAt = now;
        if (!video.paused) {
          reportedStall = false;
          emit('playing');
        }
      } else if (now - advancedAt >= STALL_RETRY_MS) {
        advancedAt = now;
        events.current.onStalledTooLong();
      } else if (now - advancedAt >= STALL_REPORT_MS && !reportedStall) {
        reportedStall = true;
        emit('stalled');
      }
      seen = sample;
    }, PROGRESS_CHECK_MS);
    const onCanPlay = () => {
      emit('ready');
      if (video.paused) play(video);
    };
    const onError = () => emit('error');

    // One signal removes every listener below when the effect ends.
    const listeners = new AbortController();
    const listen = (type: string, handler: () => void, once = false) => video.addEventListener(type, handler, { signal: listeners.signal, once });
    listen('canplay', onCanPlay);
    listen('error', onError);
    listen('seeking', () => (sought = true));

    // A waiting player's hold: from its first picture until its flip is past (or HOLD_MAX_MS).
    let stopped: ReturnType<typeof setTimeout> | undefined;
    let holdSpent = false;
    const release = () => {
      if (stopped === undefined) return;
      clearTimeout(stopped);
      stopped = undefined;
      hlsPlayer?.startLoad(-1); // on from where it stands
    };
    holding.current.release = release;
    const hold = () => {
      if (!hlsPlayer || !shouldHold({ held: holding.current.held, holding: stopped !== undefined, spent: holdSpent, readyState: video.readyState, seeking: video.seeking, msUntilFlip: msUntilFlip() })) return;
      hlsPlayer.stopLoad();
      stopped = setTimeout(() => {
        holdSpent = true; // a flip this late is late or gone: it plays on
        release();
      }, HOLD_MAX_MS);
    };
    for (const type of ['loadeddata', 'canplay', 'seeked']) listen(type, hold);

    // The same moment on every screen (live-sync.ts): steered on the server's clock, once a
    // screen knows it (the console and other pages have no clock and play as they come), and
    // only as far as the camera's playlist allows.
    let hlsPlayer: HlsType | undefined;
    const skews: number[] = [];
    let plan: ProgramPlan | null = null;
    let seekBudget = freshSeekBudget();
    // A seek aimed at the moment: where it landed is read once the player plays again.
    let landing = false;
    const readPlaylist = (details: LevelDetails) => {
      const clock = store.get(clockAtom);
      const edge = details.fragments.at(-1);
      if (!clock || !edge?.programDateTime) return;
      const loadedAt = performance.now() - details.age * 1000 + clock.offsetMs;
      skews.push(edge.programDateTime + edge.duration * 1000 - loadedAt);
      if (skews.length > SKEW_LOADS) skews.shift();
    };
    /** How this camera is followed: the shared moment as far as its playlist allows, or its live edge. */
    const planFor = (details: LevelDetails): ProgramPlan | null => {
      if (skews.length === 0) return null; // no program date-time (or no clock yet): hls.js's own live position
      const reading = { windowMs: details.totalduration * 1000, targetDurationMs: details.targetduration * 1000, skewMs: Math.max(...skews) };
      const latency = events.current.playback?.sync_latency_ms ?? syncLatencyMs(details.targetduration, details.totalduration);
      // Until it has decided once, the analysis's word: a camera it found off starts at its edge.
      plan = planProgramSync(reading, latency, plan ? plan.kind === 'edge' : events.current.playback?.camera_skew_ms != null);
      return plan;
    };
    /**
     * The first playlist, before hls.js picks its first segment: its live start (three target
     * durations behind the edge, whatever the segments' phase — 1 to 3 s behind the moment on a
     * 2 s camera) is put on the segment start nearest the moment (within a second: its keyframe
     * shows at once), by hls.js's own target latency; the steer's rate closes the rest. Else the
     * sync's seek that closed the gap came after the tile was on screen: a visible jump, and on a
     * busy screen a segment to fetch and decode, the tile behind again and sought again.
     */
    const startAtMoment = (hls: HlsType, details: LevelDetails) => {
      const clock = store.get(clockAtom);
      const edge = details.fragments.at(-1);
      const planned = planFor(details);
      if (!clock || !edge?.programDateTime || planned?.kind !== 'follow') return;
      const target = performance.now() + clock.offsetMs - planned.latencyMs + screenLeads.startMs;
      const moment = programStartPosition({ start: edge.start, programDateTime: edge.programDateTime }, { start: details.fragmentStart, end: details.edge }, target);
      const from = hls.liveSyncPosition;
      const latency = hls.targetLatency;
      if (moment === null || from === null || latency === null) return;
      // On a keyframe near the moment (live-sync.ts): the steer closes the rest after the flip.
      const at = keyframeStart(moment, { segmentStarts: details.fragments.map((f) => f.start), edge: details.edge, targetDuration: details.targetduration });
      hls.targetLatency = Math.max(0, latency + from - at);
      // Where its first picture played against the moment, less the keyframe's own offset: read
      // when it first plays, not by the steer after the flip, when a held tile's stalls would
      // count as a late start.
      listen('playing', () => {
        const shown = hls.playingDate;
        const now = store.get(clockAtom);
        if (shown && now) screenLeads.startMs = learnSeekLead(screenLeads.startMs, programErrorMs(shown.getTime(), performance.now() + now.offsetMs, planned.latencyMs) - (at - moment) * 1000);
      }, true);
    };
    let quiet = false;
    const steer = setInterval(() => {
      hold(); // a long lead: it holds once its flip is near
      // No new segment load starts in the frames around a flip (flip-hold.ts). Asserted each
      // turn: hls.js's startLoad (a hold's release) resumes buffering on its own.
      const wasQuiet = quiet;
      // Media where it stands, or a segment on its way: not a buffer it has just sought away from,
      // which leaves the new position to load.
      const here = video.currentTime;
      const segmentAsked = rangesOf(video.buffered).some(([from, to]) => here >= from && here < to) || hlsPlayer?.inFlightFragments.main?.frag != null;
      quiet = quietLoads({ readyState: video.readyState, segmentAsked }, msUntilFlip());
      if (quiet && hlsPlayer?.bufferingEnabled) hlsPlayer.pauseBuffering();
      else if (!quiet && wasQuiet) hlsPlayer?.resumeBuffering();
      const clock = store.get(clockAtom);
      if (!clock || video.paused || video.readyState < 2 || flipIsNear()) return;
      const serverNow = performance.now() + clock.offsetMs;
      let error: number;
      if (hlsPlayer) {
        const shown = hlsPlayer.playingDate;
        const details = hlsPlayer.latestLevelDetails;
        const followed = details && planFor(details);
        if (!shown || !followed) return; // no program date-time: hls.js's own live position
        const flagged = followed.kind === 'edge' ? String(Math.round(followed.skewMs)) : '';
        if (video.dataset.cameraSkew !== flagged) video.dataset.cameraSkew = flagged; // no attribute write (and style invalidation) four times a second
        if (followed.kind === 'edge') {
          // The camera's clock is off by more than its window allows: its live edge, as hls.js plays it.
          if (video.playbackRate !== 1) video.playbackRate = 1;
          return;
        }
        error = programErrorMs(shown.getTime(), serverNow, followed.latencyMs);
      } else if (source.kind === 'file' && video.loop && Number.isFinite(video.duration)) {
        error = loopErrorMs(video.currentTime, video.duration, serverNow);
      } else return;
      if (landing && !video.seeking && video.readyState >= 3) {
        screenLeads.seekMs = learnSeekLead(screenLeads.seekMs, error); // playing again after a seek: how far off it landed
        landing = false;
      }
      const step = syncStep(error, renditionStep() > 0);
      if (step.kind === 'seek') {
        const to = video.currentTime + step.bySeconds;
        const ahead = to + screenLeads.seekMs / 1000; // the moment moves on while the seek loads and decodes
        // Never outside what hls.js can play: it would snap back, and the two would fight.
        const seekable = () => rangesOf(video.seekable);
        const target = hlsPlayer ? (seekTarget(ahead, seekable()) ?? seekTarget(to, seekable())) : ((ahead % video.duration) + video.duration) % video.duration;
        if (target === null) return;
        const waiting = holding.current.held && stopped !== undefined;
        if (waiting && !heldSeekAllowed(msUntilFlip())) return; // after the flip: it keeps the picture it has
        if (quiet) return; // it could not load the new position now
        const spent = spendSeek(seekBudget, performance.now());
        seekBudget = spent.budget;
        if (spent.allowed) {
          video.currentTime = target;
          landing = true;
          if (waiting) release(); // it loads from the new position, and holds again at its picture there
        }
        // Not yet (a screen that cannot keep up): it plays on at its own pace, not pushed faster.
        else if (video.playbackRate !== 1) video.playbackRate = 1;
      } else if (video.playbackRate !== step.rate) video.playbackRate = step.rate;
    }, SYNC_PERIOD_MS);

    /** This player's handling of its hls.js: errors, each playlist, the start on the moment. */
    const follow = (Hls: typeof HlsType, hls: HlsType) => {
      let mediaRecoveries = 0;
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR && mediaRecoveries++ < 1) return hls.recoverMediaError();
        emit('error'); // the player's backoff rebuilds everything, hls.js included
      });
      // LEVEL_UPDATED: hls.js sends it inside its handling of a loaded playlist, before it
      // picks a segment to load (LEVEL_LOADED's listeners here would come after that). A camera
      // started before the app has picked its first segment already: its playlist is read as is.
      const loaded = hls.latestLevelDetails;
      if (loaded) readPlaylist(loaded);
      let started = loaded !== null;
      hls.on(Hls.Events.LEVEL_UPDATED, (_event, data) => {
        readPlaylist(data.details);
        if (!started) startAtMoment(hls, data.details);
        started = true;
      });
      hlsPlayer = hls;
      destroyHls = () => hls.destroy();
    };

    const start = () => {
      if (prestarted) {
        follow(prestarted.Hls, prestarted.hls);
        // Its 'canplay' may be past: what the listener above would have said, said now.
        if (video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) onCanPlay();
        else if (video.paused) play(video);
      } else if (source.kind === 'hls' && !useNativeHls(video)) {
        loadHls()
          .then((Hls) => {
            if (cancelled) return;
            if (!Hls.isSupported()) return emit('error');
            const hls = createHls(Hls, { worker, playback: events.current.playback });
            follow(Hls, hls);
            hls.loadSource(source.src);
            hls.attachMedia(video);
            play(video);
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
      clearTimeout(stopped);
      stopped = undefined;
      clearInterval(steer);
      clearInterval(watch);
      listeners.abort();
      const destroy = destroyHls;
      video.pause(); // at once and cheap: it decodes nothing more
      adopted?.restore(); // before React removes its element (a layout effect's cleanup comes first)
      setTimeout(() => {
        // The teardown waits until a flip's frames are past (on every wall of a venue at once, it
        // would otherwise compete with them); then the connection and decoder go, not at GC.
        destroy?.();
        video.removeAttribute('src');
        video.load();
      }, TEARDOWN_DELAY_MS);
    };
  };
  // A lone player (a kiosk: no worker) starts loading in the task that put its video in the page,
  // not after the browser has painted it (a cold kiosk's first frame came 35 ms sooner). A wall's
  // tiles start after the paint, as before: started in the push's own task, its new tiles had
  // their picture at the flip less often (docs/benchmarks.md, bench:wall).
  useLayoutEffect(() => (worker ? undefined : run()), [source.kind, source.src, worker]);
  useEffect(() => (worker ? run() : undefined), [source.kind, source.src, worker]);

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
