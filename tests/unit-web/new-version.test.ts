/** When a screen on an older build reloads (web/lib/new-version.ts), and when a failed chunk reloads a page (web/lib/chunk-reload.ts). */
import { describe, expect, it } from 'vitest';
import type { ScreenState } from '../../src/shared/events.ts';
import type { SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';
import {
  CHUNK_RELOAD_COOLDOWN_MS,
  isFlip,
  isOutdated,
  mayReloadForChunk,
  RELOAD_WINDOW_MS,
  reloadDeadline,
  RETRY_RELOAD_AFTER_MS,
  shouldReloadNow,
  type ReloadFacts,
} from '../../web/lib/new-version.ts';

const NOW = 1_000_000_000;
/** An outdated, connected screen that has not flipped and whose moment has not come. */
const base: ReloadFacts = { pageBuild: 'old', serverBuild: 'new', flipped: false, deadline: NOW + 60_000, now: NOW, connected: true, lastReload: null };

describe('shouldReloadNow: a screen on an older build reloads at its next flip or its moment, and only then', () => {
  it.each<[string, Partial<ReloadFacts>, boolean]>([
    ['outdated, no flip, before its moment: waits', {}, false],
    ['outdated and it flips: reloads', { flipped: true }, true],
    ['outdated and its moment has come: reloads', { now: NOW + 60_000 }, true],
    ['outdated, past its moment: reloads', { now: NOW + 61_000 }, true],
    ['same build, flipping: stays', { serverBuild: 'old', flipped: true }, false],
    ['same build, past any moment: stays', { serverBuild: 'old', now: NOW + 10 * RELOAD_WINDOW_MS }, false],
    ['a page without a build (development): never', { pageBuild: null, flipped: true }, false],
    ['a server without a web build: never', { serverBuild: null, flipped: true }, false],
    ['disconnected (the reload might not load): waits', { flipped: true, connected: false }, false],
    ['disconnected past its moment: waits', { now: NOW + 60_000, connected: false }, false],
    ['no moment drawn yet, no flip: waits', { deadline: null, now: NOW + RELOAD_WINDOW_MS }, false],
    ['reloaded for this build a minute ago and is still old: not again', { flipped: true, lastReload: { to: 'new', at: NOW - 60_000 } }, false],
    ['reloaded for this build long ago: tries again', { flipped: true, lastReload: { to: 'new', at: NOW - RETRY_RELOAD_AFTER_MS } }, true],
    ['reloaded lately for another build: reloads for this one', { flipped: true, lastReload: { to: 'newer-still', at: NOW - 60_000 } }, true],
  ])('%s', (_rule, facts, expected) => {
    expect(shouldReloadNow({ ...base, ...facts })).toBe(expected);
  });
});

describe('reloadDeadline: a random moment within the window, so screens do not all reload at once', () => {
  it.each([
    ['the start of the window', 0, NOW],
    ['its middle', 0.5, NOW + RELOAD_WINDOW_MS / 2],
    ['near its end', 0.999, NOW + 0.999 * RELOAD_WINDOW_MS],
  ])('%s', (_rule, random, expected) => {
    expect(reloadDeadline(NOW, RELOAD_WINDOW_MS, () => random)).toBe(expected);
  });
  it('the window is a few minutes', () => {
    expect(RELOAD_WINDOW_MS).toBeGreaterThanOrEqual(60_000);
    expect(RELOAD_WINDOW_MS).toBeLessThanOrEqual(15 * 60_000);
  });
});

describe('isOutdated', () => {
  it.each([
    ['different builds', 'a', 'b', true],
    ['the same build', 'a', 'a', false],
    ['no page build', null, 'b', false],
    ['no server build', 'a', null, false],
  ])('%s', (_rule, page, server, expected) => {
    expect(isOutdated(page, server)).toBe(expected);
  });
});

describe('isFlip: the screen showed something and now shows something else', () => {
  const scene = (id: number) => ({ id }) as SceneDto;
  const stream = (id: number) => ({ id }) as SceneStreamDto;
  const wall = (sceneId: number, streams: number[], version = 1): ScreenState => ({ kind: 'wall', version, follows: null, scene: scene(sceneId), streams: streams.map(stream), problem: null });
  const kiosk = (sceneId: number, streamId: number | null, version = 1): ScreenState => ({
    kind: 'kiosk',
    version,
    follows: null,
    position: 1,
    scene: scene(sceneId),
    stream: streamId === null ? null : stream(streamId),
    problem: null,
  });
  it.each<[string, ScreenState | null, ScreenState | null, boolean]>([
    ['the first state (nothing shown before)', null, wall(1, [1, 2]), false],
    ['another scene', wall(1, [1, 2]), wall(2, [3]), true],
    ['the same scene with other streams', wall(1, [1, 2]), wall(1, [1, 3], 2), true],
    ['the same streams in another order', wall(1, [1, 2]), wall(1, [2, 1], 2), true],
    ['a newer version showing the same', wall(1, [1, 2]), wall(1, [1, 2], 2), false],
    ['following something else starts afresh (nothing shown)', wall(1, [1, 2]), null, false],
    ['a kiosk whose position gets another stream', kiosk(1, 1), kiosk(1, 2, 2), true],
    ['a kiosk re-sent the same stream', kiosk(1, 1), kiosk(1, 1, 2), false],
    ['a kiosk whose stream goes away', kiosk(1, 1), kiosk(1, null, 2), true],
  ])('%s', (_rule, before, after, expected) => {
    expect(isFlip(before, after)).toBe(expected);
  });
});

describe('mayReloadForChunk: a failed chunk reloads the page once, a broken deploy does not loop', () => {
  it.each([
    ['never reloaded for it', null, NOW, true],
    ['reloaded for it just now: the error page shows', NOW - 2_000, NOW, false],
    ['reloaded for it within the cool-down', NOW - CHUNK_RELOAD_COOLDOWN_MS + 1, NOW, false],
    ['reloaded for it longer ago than the cool-down', NOW - CHUNK_RELOAD_COOLDOWN_MS, NOW, true],
    ['a mark from the future (the clock was moved back)', NOW + 60_000, NOW, true],
  ])('%s', (_rule, lastAt, now, expected) => {
    expect(mayReloadForChunk(lastAt, now)).toBe(expected);
  });
});
