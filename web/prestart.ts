/**
 * A kiosk's camera, started before the app. A screen page's HTML carries its first state
 * (src/http/web-hints.ts); for a kiosk showing an HLS camera it also loads this small entry,
 * async, beside the app's: hls.js fetches, transmuxes and decodes the first segment into a
 * full-screen video over the page while the app's code is evaluated and React renders, and the
 * app's player takes that video, playing, when it mounts (Player/prestarted.ts). Before, the
 * camera's first request waited for all of that (bench:wall, WALL_TIMELINE=1: the picture came
 * 300–400 ms after the app's video was in the page). Nothing depends on it: anything unexpected
 * and the app's player starts its own, as on every other page.
 */
import Hls from 'hls.js/light';
import type { ScreenState } from '../src/shared/events.ts';
import { SCREEN_STATE_ELEMENT } from '../src/shared/screen-pages.ts';
import { candidateUrls, resolvePlayerSource } from '../src/shared/streams/player-source.ts';
import { hasMediaSource } from './components/Player/hls-loader.ts';
import { offerPrestarted, playerAsked } from './components/Player/prestarted.ts';
import { createHls, playMuted } from './components/Player/start-media.ts';

function prestart(): void {
  const carried = document.getElementById(SCREEN_STATE_ELEMENT)?.textContent;
  // The app ran first (its code was cached) and its player has started the camera itself.
  if (!carried || playerAsked() || !hasMediaSource() || !Hls.isSupported()) return;
  const state = JSON.parse(carried) as ScreenState;
  if (state.kind !== 'kiosk' || !state.stream) return;
  // The address the app's player will resolve (Player.tsx), so it knows this is its camera.
  const source = resolvePlayerSource(candidateUrls(state.stream)[0]!, window.location.hostname);
  if (source.kind !== 'hls') return;
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  // Where the kiosk's player will be (full screen, the picture covering it), over the page until
  // the player takes it: the camera is seen from its first frame, the kiosk's name comes with
  // the app. Transparent until that frame; clicks go through to the page.
  holder.style.cssText = 'position:fixed;inset:0;z-index:2147483647;pointer-events:none;overflow:hidden';
  const video = document.createElement('video');
  video.muted = true;
  video.autoplay = true;
  video.loop = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.disablePictureInPicture = true;
  video.style.cssText = 'width:100%;height:100%;object-fit:cover;display:block';
  holder.append(video);
  document.body.append(holder);
  const hls = createHls(Hls, { worker: false, playback: state.stream.playback ?? null });
  const started = { src: source.src, Hls, hls, video, holder, failed: false };
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) started.failed = true;
  });
  hls.loadSource(source.src);
  hls.attachMedia(video);
  playMuted(video);
  offerPrestarted(started);
}

try {
  prestart();
} catch {
  /* the app's player starts its own */
}
