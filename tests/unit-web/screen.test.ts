import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SceneDto } from '../../src/shared/api/index.ts';
import { connectScreen } from '../../src/shared/screen-client.ts';
import { invalidPositionMessage, parseKioskPosition } from '../../web/features/screen/kiosk-position.ts';
import { sceneRef } from '../../web/lib/api.ts';
import { listIsStale } from '../../web/features/scenes/atoms.ts';
import { createStateReporter, HEALTH_HEARTBEAT_MS, HEALTH_MIN_INTERVAL_MS } from '../../web/features/screen/parts/state-reporter.ts';
import { dropPlaybackAtom, healthReportAtom, setPlaybackAtom, summarizePlayback } from '../../web/features/screen/playback.ts';

describe('kiosk positions (spec §5)', () => {
  it.each([
    ['1', 1],
    ['5', 5],
    ['03', 3],
    ['0', null],
    ['6', null],
    ['7', null],
    ['-1', null],
    ['1.5', null],
    ['two', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (raw, position) => {
    expect(parseKioskPosition(raw)).toBe(position);
  });

  it('words the refusal as the spec does', () => {
    expect(invalidPositionMessage('7')).toBe('Invalid stream position: 7. Must be 1-5.');
  });
});

describe('playback health summary', () => {
  it('reports the best state of the players of each stream, ordered by id', () => {
    expect(
      summarizePlayback([
        { streamId: 9, state: 'error' },
        { streamId: 4, state: 'stalled' },
        { streamId: 4, state: 'playing' },
        { streamId: 9, state: 'loading' },
      ]),
    ).toEqual({ streams: [{ stream_id: 4, state: 'playing' }, { stream_id: 9, state: 'loading' }] });
  });

  it('follows players as they come, change and go', () => {
    const store = createStore();
    store.set(setPlaybackAtom, { playerId: 'p1', streamId: 3, state: 'loading' });
    store.set(setPlaybackAtom, { playerId: 'p1', streamId: 3, state: 'playing' });
    store.set(setPlaybackAtom, { playerId: 'p2', streamId: 5, state: 'error' });
    expect(store.get(healthReportAtom).streams).toEqual([{ stream_id: 3, state: 'playing' }, { stream_id: 5, state: 'error' }]);
    store.set(dropPlaybackAtom, 'p1');
    expect(store.get(healthReportAtom).streams).toEqual([{ stream_id: 5, state: 'error' }]);
  });
});

describe('health reporter: on change, throttled, with a heartbeat', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const report = (state: 'loading' | 'playing' | 'stalled' | 'error') => ({ streams: [{ stream_id: 1, state }] });

  it('sends a change at once, then at most one every 3 s (the latest), then a heartbeat every 30 s', () => {
    const sent: string[] = [];
    const reporter = createStateReporter<ReturnType<typeof report>>({ send: (r) => sent.push(r.streams[0]?.state ?? '-'), minIntervalMs: HEALTH_MIN_INTERVAL_MS, heartbeatMs: HEALTH_HEARTBEAT_MS });
    reporter.update(report('loading'));
    expect(sent).toEqual(['loading']);
    reporter.update(report('playing'));
    reporter.update(report('stalled'));
    reporter.update(report('playing'));
    expect(sent).toEqual(['loading']);
    vi.advanceTimersByTime(3000);
    expect(sent).toEqual(['loading', 'playing']);
    reporter.update(report('playing'));
    vi.advanceTimersByTime(26_999);
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['loading', 'playing', 'playing']);
    reporter.stop();
    vi.advanceTimersByTime(120_000);
    expect(sent).toHaveLength(3);
  });

  it('sends again after a re-registration', () => {
    const sent: unknown[] = [];
    const reporter = createStateReporter({ send: (r) => sent.push(r), minIntervalMs: HEALTH_MIN_INTERVAL_MS, heartbeatMs: HEALTH_HEARTBEAT_MS });
    reporter.update(report('playing'));
    vi.advanceTimersByTime(5000);
    reporter.resend();
    expect(sent).toHaveLength(2);
    reporter.stop();
  });
});

describe('scene addresses (spec §2)', () => {
  it('uses the slug, or the id when the scene has no slug', () => {
    expect(sceneRef({ id: 4, slug: 'quiet-peaks' })).toBe('quiet-peaks');
    expect(sceneRef({ id: 7, slug: null })).toBe('7');
  });
});

describe('scene list refresh', () => {
  const scene = (id: number, updated_at: string) => ({ id, updated_at }) as SceneDto;
  it.each([
    ['a scene the list knows, unchanged', [scene(1, 't1')], scene(1, 't1'), false],
    ['a scene edited since', [scene(1, 't1')], scene(1, 't2'), true],
    ['a scene the list does not know', [scene(1, 't1')], scene(2, 't1'), true],
    ['nothing shown', [scene(1, 't1')], null, false],
  ])('%s', (_case, list, shown, stale) => {
    expect(listIsStale(list, shown)).toBe(stale);
  });
});

it('every screen connects with the contract’s socket options: WebSocket first, reconnects jittered from 0.5 s to 10 s, for ever', () => {
  const client = connectScreen({ url: 'http://127.0.0.1:9', registration: { kind: 'wall' }, onMessage: () => {}, socketOptions: { autoConnect: false } });
  const manager = client.socket.io;
  expect(manager.opts.path).toBe('/socket.io');
  expect(manager.opts.transports).toEqual(['websocket', 'polling']);
  expect(manager.opts.tryAllTransports).toBe(true);
  expect([manager.reconnectionDelay(), manager.reconnectionDelayMax(), manager.randomizationFactor(), manager.reconnectionAttempts()]).toEqual([500, 10_000, 0.5, Infinity]);
  client.close();
});
