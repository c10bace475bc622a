/**
 * Walls in step, over real sockets: screens estimate the server's clock; every change that
 * alters what a screen shows carries the instant it is shown at (commit + flip lead), the same
 * for walls and kiosks; a screen that learns of it after that instant shows it at once. The
 * clock question and the clock report are validated like every other socket message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { CLOCK_DRIFT, serverTimeAt } from '../../src/shared/clock.ts';
import type { KioskState, ScreenPresence, WallState } from '../../src/shared/events.ts';
import { EMPTY_STAGE, flip, receive } from '../../src/shared/screen-stage.ts';
import { screenTargetOf, type ScreenMessage } from '../../src/shared/screen-state.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { videoFrames } from '../../src/modules/screens/screens.metrics.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { screenPool, type TestScreen } from '../support/screens.ts';

const LEAD_MS = 700;
let app: TestApp;
const screens = screenPool();
const open = screens.open;

beforeAll(async () => {
  app = await startTestApp({ hub: true, settings: { programme: { flipLeadMs: LEAD_MS } } });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
});
afterEach(screens.closeAll);
afterAll(async () => app?.close());

async function clockOf(screen: TestScreen) {
  for (let i = 0; i < 500 && !screen.client.clock(); i++) await new Promise((r) => setTimeout(r, 10));
  const clock = screen.client.clock();
  if (!clock) throw new Error('the screen never estimated the server clock');
  return clock;
}

const sceneMessages = (screen: TestScreen) => screen.messages.filter((m): m is Extract<ScreenMessage, { type: 'scene' }> => m.type === 'scene');

describe('the shared clock', () => {
  it('is estimated by every screen over its socket, within a bound of half a loopback round trip', async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Clock' });
    const clock = await clockOf(wall);
    // The server's clock is this process's own (same machine): the estimate must contain it.
    const serverNow = performance.timeOrigin + performance.now();
    expect(Math.abs(serverTimeAt(clock, performance.now()) - serverNow)).toBeLessThanOrEqual(clock.errorMs + 1);
    // Server times near 1.8e12 ms carry about 2.4e-4 ms of float rounding.
    expect(clock.errorMs).toBeLessThanOrEqual(clock.rttMs / 2 + 0.5 + 1e-3);
    expect(clock.samples).toBeGreaterThanOrEqual(1);
  });

  it("samples again once the screen has settled, and that burst narrows the first instead of replacing it", async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Settling' });
    const first = await clockOf(wall);
    // The second burst comes 3–8 s after the first (clockSettleDelay), not at the 30 s refresh.
    for (let i = 0; i < 120 && wall.client.clock()!.samples <= first.samples; i++) await new Promise((r) => setTimeout(r, 100));
    const second = wall.client.clock()!;
    expect(second.samples).toBeGreaterThan(first.samples); // both bursts' samples count: combined, not replaced
    expect(second.at).toBeGreaterThan(first.at);
    // Never wider than the first's bound widened by the drift allowed between them.
    expect(second.errorMs).toBeLessThanOrEqual(first.errorMs + (second.at - first.at) * CLOCK_DRIFT + 1e-6);
    const serverNow = performance.timeOrigin + performance.now();
    expect(Math.abs(serverTimeAt(second, performance.now()) - serverNow)).toBeLessThanOrEqual(second.errorMs + 1);
  }, 20_000);

  it('answers a malformed clock question with an error, and too many with a refusal', async () => {
    const socket = ioClient(app.baseUrl, { transports: ['websocket'], forceNew: true });
    try {
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      const ask = (question: unknown) => new Promise<unknown>((resolve) => socket.emit('clock:sync', question, resolve));
      expect(await ask({ now: 1 })).toEqual({ error: 'Invalid clock question: send {}' });
      expect(await ask('tick')).toEqual({ error: 'Invalid clock question: send {}' });
      const good = (await ask({})) as { data: { now: number } };
      expect(typeof good.data.now).toBe('number');
      const answers = await Promise.all(Array.from({ length: 45 }, () => ask({})));
      expect(answers).toContainEqual({ error: 'Too many clock questions; slow down' });
    } finally {
      socket.close();
    }
  });

  it('is reported by the screen and shown to admins; a malformed report is refused', async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Clock report', device: 'clock-report-device' });
    await wall.waitFor((s) => s !== null);
    const reply = (report: unknown) => new Promise<unknown>((resolve) => wall.client.socket.emit('screen:clock', report as never, resolve));
    const listed = async () => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.find((s) => s.device === 'clock-report-device');
    expect((await listed())?.clock).toBeNull();
    expect(await reply({ offset_ms: 1_250, error_ms: 'small' })).toEqual({ error: 'Invalid clock report' });
    expect(await reply({ offset_ms: 1_250, error_ms: 0.4, extra: 1 })).toEqual({ error: 'Invalid clock report' });
    expect(await reply({ offset_ms: 1_250, error_ms: 0.4 })).toEqual({ data: { ok: true } });
    expect((await listed())?.clock).toEqual({ offset_ms: 1_250, error_ms: 0.4 });
  });

  it("carries the screen's last flip (how long its frame rendered, how late it showed) to admins", async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Flip report', device: 'flip-report-device' });
    await wall.waitFor((s) => s !== null);
    const reply = (report: unknown) => new Promise<unknown>((resolve) => wall.client.socket.emit('screen:flip', report as never, resolve));
    const listed = async () => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.find((s) => s.device === 'flip-report-device');
    expect((await listed())?.flip).toBeNull();
    expect(await reply({ render_ms: -1, late_ms: 3 })).toEqual({ error: 'Invalid flip report' });
    expect(await reply({ render_ms: 41, late_ms: 58 })).toEqual({ data: { ok: true } });
    expect((await listed())?.flip).toEqual({ render_ms: 41, late_ms: 58 });
  });

  it('carries whether the screen could start without its server (issue 34); an unknown word is refused', async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Offline start', device: 'offline-start-device' });
    await wall.waitFor((s) => s !== null);
    const reply = (event: 'screen:offline_start' | 'screen:health', report: unknown) => new Promise<unknown>((resolve) => wall.client.socket.emit(event, report as never, resolve));
    const listed = async () => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.find((s) => s.device === 'offline-start-device');
    expect((await listed())?.offline_start).toBeNull();
    expect(await reply('screen:offline_start', { state: 'maybe' })).toEqual({ error: 'Invalid offline start report' });
    expect(await reply('screen:offline_start', { state: 'unavailable' })).toEqual({ data: { ok: true } });
    expect((await listed())?.offline_start).toBe('unavailable');
    expect(await reply('screen:offline_start', { state: 'ready' })).toEqual({ data: { ok: true } });
    expect((await listed())?.offline_start).toBe('ready');
    // Another report leaves what was said; so does a re-registration (it does not depend on what the screen shows).
    expect(await reply('screen:health', { streams: [] })).toEqual({ data: { ok: true } });
    await wall.client.socket.emitWithAck('screen:register', { kind: 'wall', name: 'Offline start', device: 'offline-start-device' });
    expect((await listed())?.offline_start).toBe('ready');
  });

  it('carries the frames its video players dropped to admins and the metrics; a report that says more dropped than decoded is refused', async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Dropped frames', device: 'dropped-frames-device' });
    await wall.waitFor((s) => s !== null);
    const reply = (report: unknown) => new Promise<unknown>((resolve) => wall.client.socket.emit('screen:dropped_frames', report as never, resolve));
    const listed = async () => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.find((s) => s.device === 'dropped-frames-device');
    const counted = async () => {
      const { values } = await videoFrames.get();
      const value = (outcome: string) => values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
      return { presented: value('presented'), dropped: value('dropped') };
    };
    expect((await listed())?.dropped_frames).toBeNull();
    const before = await counted();
    expect(await reply({ window_ms: 30_000, streams: [{ stream_id: 4, frames: 10, dropped: 11 }] })).toEqual({ error: 'Invalid dropped frames report' });
    const report = { window_ms: 30_000, streams: [{ stream_id: 4, frames: 750, dropped: 15 }, { stream_id: 5, frames: 720, dropped: 0 }] };
    expect(await reply(report)).toEqual({ data: { ok: true } });
    expect((await listed())?.dropped_frames).toEqual(report);
    expect(await counted()).toEqual({ presented: before.presented + 735 + 720, dropped: before.dropped + 15 });
    // More frames than the window can hold (a frame a millisecond a stream) counts nothing real.
    expect(await reply({ window_ms: 1_000, streams: [{ stream_id: 4, frames: 1_000_000, dropped: 0 }] })).toEqual({ error: 'Invalid dropped frames report' });
    // Nothing decodes any more: the last window is no longer shown as now.
    expect(await reply({ window_ms: 30_000, streams: [] })).toEqual({ data: { ok: true } });
    expect((await listed())?.dropped_frames).toBeNull();
  });

  it('a screen of the build before sends its clock, flip and offline start inside its health report: taken, those dropped', async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Old build', device: 'old-build-device' });
    await wall.waitFor((s) => s !== null);
    const old = { streams: [{ stream_id: 3, state: 'playing' }], clock: { offset_ms: 5, error_ms: 1 }, flip: { render_ms: 4, late_ms: 1 }, offline_start: 'ready' };
    expect(await new Promise((resolve) => wall.client.socket.emit('screen:health', old as never, resolve))).toEqual({ data: { ok: true } });
    const listed = (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.find((s) => s.device === 'old-build-device');
    expect(listed).toMatchObject({ health: { '3': 'playing' }, clock: null, flip: null, offline_start: null });
  });
});

describe('scheduled flips', () => {
  it('gives a change one instant, commit plus the lead, for every wall and kiosk', async () => {
    const walls = [open(app.baseUrl, { kind: 'wall', name: 'A' }), open(app.baseUrl, { kind: 'wall', name: 'B' })];
    const kiosk = open(app.baseUrl, { kind: 'kiosk', position: 1 });
    const clock = await clockOf(walls[0]!);
    for (const s of [...walls, kiosk]) await s.waitFor((state) => state !== null);
    const scenes = (await app.request<{ id: number; is_default: boolean }[]>('GET', '/api/scenes')).body;
    const target = scenes.find((s) => !s.is_default)!;

    const seen = [...walls, kiosk].map((s) => s.messages.length);
    const before = serverTimeAt(clock, performance.now());
    expect((await app.request('PUT', '/api/config/default-scene', { scene_id: target.id })).status).toBe(200);
    const after = serverTimeAt(clock, performance.now());

    for (const wall of walls) await wall.waitFor((s) => (s as WallState | null)?.scene?.id === target.id);
    await kiosk.waitFor((s) => (s as KioskState | null)?.scene?.id === target.id);
    // The switch's own push (an analysis finishing later may push the scene again, with its own instant).
    const instants = [...walls, kiosk].map((s, i) => {
      const push = s.messages[seen[i]!]!;
      return push.type === 'scene' ? push.payload.at : push.type === 'kiosk' ? push.state.at : undefined;
    });
    expect(new Set(instants).size).toBe(1);
    const at = instants[0]!;
    // Taken after the commit, before the write answered: within the REST call, plus the lead.
    expect(at).toBeGreaterThanOrEqual(before + LEAD_MS - clock.errorMs - 1);
    expect(at).toBeLessThanOrEqual(after + LEAD_MS + clock.errorMs + 1);
    // What the registration answers (and a resync) carries no instant: it is shown at once.
    expect(walls[0]!.messages.find((m) => m.type === 'state')).not.toHaveProperty('state.at');
  });

  it('waits on stage until its instant when it arrives in time, and shows a late one at once', async () => {
    const wall = open(app.baseUrl, { kind: 'wall', name: 'Late' });
    const clock = await clockOf(wall);
    const first = await wall.waitFor((s) => s !== null);
    const target = screenTargetOf({ kind: 'wall' });
    const scenes = (await app.request<{ id: number; is_default: boolean }[]>('GET', '/api/scenes')).body;
    const next = scenes.find((s) => !s.is_default && s.id !== (first as WallState).scene?.id)!;

    const count = sceneMessages(wall).length;
    await app.request('PUT', '/api/config/default-scene', { scene_id: next.id });
    await wall.waitFor(() => sceneMessages(wall).length > count);
    const push = sceneMessages(wall).at(-1)!;
    const start = receive(EMPTY_STAGE, { type: 'state', state: first }, target, clock, performance.now());

    // In time: it waits, with its instant on this screen's own clock, until flipped.
    const inTime = receive(start, push, target, clock, performance.now());
    expect(inTime.shown).toBe(start.shown);
    expect(inTime.waiting?.state).toMatchObject({ scene: { id: next.id } });
    expect(inTime.waiting!.localAt).toBeCloseTo(push.payload.at! - clock.offsetMs, 6);
    expect(flip(inTime).shown).toMatchObject({ scene: { id: next.id } });

    // Late (this screen learns of it after its instant): shown at once.
    while (serverTimeAt(clock, performance.now()) < push.payload.at!) await new Promise((r) => setTimeout(r, 20));
    const late = receive(start, push, target, clock, performance.now());
    expect(late.waiting).toBeNull();
    expect(late.shown).toMatchObject({ scene: { id: next.id } });
  });
});
