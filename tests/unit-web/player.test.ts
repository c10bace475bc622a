import { describe, expect, it } from 'vitest';
import { initialPlayerState, pictureAdvanced, playerReducer, retryDelay, type PictureSample, type PlayerEvent, type PlayerState } from '../../web/components/Player/machine.ts';
import { candidateUrls, resolvePlayerSource } from '../../src/shared/streams/player-source.ts';
import { youtubeIsPlaying } from '../../web/components/Player/youtube.ts';

const run = (events: PlayerEvent[], from: PlayerState = initialPlayerState) => events.reduce(playerReducer, from);
const retry = (manual: boolean, candidates = 1): PlayerEvent => ({ type: 'retry', manual, candidates });

describe('player states (spec §4)', () => {
  it.each<[string, PlayerEvent[], Partial<PlayerState>]>([
    ['starts loading', [], { phase: 'loading', health: 'loading' }],
    ['ready on canplay / frame load / timeout', [{ type: 'ready' }], { phase: 'ready', health: 'loading' }],
    ['playing is ready and healthy', [{ type: 'playing' }], { phase: 'ready', health: 'playing' }],
    ['a stall is reported, the picture stays', [{ type: 'playing' }, { type: 'stalled' }], { phase: 'ready', health: 'stalled' }],
    ['a stall ends when frames advance', [{ type: 'playing' }, { type: 'stalled' }, { type: 'playing' }], { health: 'playing' }],
    ['an error shows the failure', [{ type: 'error' }], { phase: 'error', health: 'error' }],
    ['a background retry keeps the failure up', [{ type: 'error' }, retry(false)], { phase: 'error', attempt: 1, generation: 1 }],
    ['a manual retry shows loading again', [{ type: 'error' }, retry(false), retry(true)], { phase: 'loading', attempt: 0, generation: 2 }],
    ['a retried stream that plays clears the failure and the backoff', [{ type: 'error' }, retry(false), { type: 'playing' }], { phase: 'ready', health: 'playing', attempt: 0 }],
    ['a stalled stream reloaded shows loading', [{ type: 'playing' }, { type: 'stalled' }, retry(false)], { phase: 'loading', health: 'loading' }],
    ['retries alternate with the fallback URL', [{ type: 'error' }, retry(false, 2)], { candidate: 1 }],
    ['and back to the stream URL', [{ type: 'error' }, retry(false, 2), { type: 'error' }, retry(false, 2)], { candidate: 0, attempt: 2 }],
    ['without a fallback, always the stream URL', [{ type: 'error' }, retry(false, 1), { type: 'error' }, retry(false, 1)], { candidate: 0 }],
  ])('%s', (_rule, events, expected) => {
    expect(run(events)).toMatchObject(expected);
  });

  it('backs off 1, 2, 5, 10, 30 s, then every minute', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(retryDelay)).toEqual([1000, 2000, 5000, 10_000, 30_000, 60_000, 60_000]);
  });

  it('returns the same state for repeated events (no re-render)', () => {
    const playing = run([{ type: 'playing' }]);
    expect(playerReducer(playing, { type: 'playing' })).toBe(playing);
    expect(playerReducer(playing, { type: 'ready' })).toBe(playing);
  });
});

describe('what a stream URL becomes on screen', () => {
  const host = 'wall.example.org';
  it.each([
    ['a YouTube video: the spec §9 embed', 'https://www.youtube.com/watch?v=J7ZrIDvqlic', { kind: 'embed', platform: 'youtube' }, /^https:\/\/www\.youtube\.com\/embed\/J7ZrIDvqlic\?autoplay=1&mute=1&controls=0/],
    ['a YouTube live channel', 'https://www.youtube.com/embed/live_stream?channel=UC9X6gGKDv2yhMoofoeS7-Gg', { kind: 'embed', platform: 'youtube' }, /live_stream\?.*channel=UC9X6gGKDv2yhMoofoeS7-Gg/],
    ['Twitch with this host as parent', 'https://www.twitch.tv/alveussanctuary', { kind: 'embed', platform: 'twitch' }, /parent=wall\.example\.org.*/],
    ['Vimeo, muted', 'https://vimeo.com/123456', { kind: 'embed', platform: 'vimeo' }, /player\.vimeo\.com\/video\/123456\?autoplay=1&muted=1/],
    ['EarthCam under its www host', 'https://earthcam.com/usa/newyork/?cam=x', { kind: 'embed', platform: 'earthcam' }, /^https:\/\/www\.earthcam\.com\/usa\/newyork\/\?cam=x$/],
    ['SkylineWebcams over https', 'http://www.skylinewebcams.com/en/webcam/italia.html', { kind: 'embed', platform: 'skylinewebcams' }, /^https:\/\/www\.skylinewebcams\.com\//],
  ])('%s', (_rule, url, shape, src) => {
    const source = resolvePlayerSource(url, host);
    expect(source).toMatchObject(shape);
    expect(source.kind === 'embed' && source.src).toMatch(src);
  });

  it.each([
    ['HLS', 'http://cams.example.org/live/index.m3u8', { kind: 'hls', src: 'http://cams.example.org/live/index.m3u8' }],
    ['HLS with a query', 'https://cdn.example.org/a/master.m3u8?token=1', { kind: 'hls' }],
    ['MP4', 'https://cdn.example.org/clip.mp4', { kind: 'file', mime: 'video/mp4' }],
    ['WebM', 'https://cdn.example.org/clip.webm', { kind: 'file', mime: 'video/webm' }],
    ['an arbitrary page: a link out, never a frame', 'https://explore.org/livecams/brown-bears', { kind: 'link', host: 'explore.org' }],
    ['a look-alike host: a link out', 'https://earthcam.com.evil.example/cam', { kind: 'link' }],
    ['FLV (no browser plays it): a link out', 'https://cdn.example.org/old.flv', { kind: 'link' }],
  ])('%s', (_rule, url, shape) => {
    expect(resolvePlayerSource(url, host)).toMatchObject(shape);
  });

  it('tries the fallback URL after the stream URL', () => {
    expect(candidateUrls({ url: 'a', fallback_url: 'b' })).toEqual(['a', 'b']);
    expect(candidateUrls({ url: 'a', fallback_url: null })).toEqual(['a']);
    expect(candidateUrls({ url: 'a', fallback_url: 'a' })).toEqual(['a']);
  });

  it.each([
    ['a playing report', JSON.stringify({ event: 'infoDelivery', info: { playerState: 1 } }), true],
    ['a paused report', JSON.stringify({ event: 'infoDelivery', info: { playerState: 2 } }), false],
    ['an object message', { event: 'infoDelivery', info: { playerState: 1 } }, true],
    ['noise', 'not json', false],
    ['null', null, false],
  ])('reads YouTube %s', (_case, data, playing) => {
    expect(youtubeIsPlaying(data)).toBe(playing);
  });
});

describe('a picture that advances (the stall watch)', () => {
  it.each([
    ['frames presented and the playhead moved', { frames: 100, time: 4 }, { frames: 125, time: 5 }, false, true],
    ['a seek: the playhead moved, no frame presented', { frames: 100, time: 4 }, { frames: 100, time: 9 }, true, false],
    ['a seek forward within the buffer: a frame decoded, the playhead on', { frames: 100, time: 4 }, { frames: 101, time: 4.4 }, true, false],
    ['a seek back that decoded a frame (the sync fighting hls.js)', { frames: 100, time: 4 }, { frames: 101, time: 2 }, true, false],
    ['nothing at all', { frames: 0, time: 0 }, { frames: 0, time: 0 }, false, false],
    ['no frame counts: the playhead alone', { frames: null, time: 4 }, { frames: null, time: 5 }, false, true],
  ] as [string, PictureSample, PictureSample, boolean, boolean][])('%s', (_name, before, now, sought, advanced) => {
    expect(pictureAdvanced(before, now, sought)).toBe(advanced);
  });

  it('the first check has nothing to compare with', () => {
    expect(pictureAdvanced(null, { frames: 10, time: 1 }, false)).toBe(false);
  });
});
