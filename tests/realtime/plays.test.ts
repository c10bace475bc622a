/**
 * Proof of play over real sockets and a real database (issue 34): a wall shows scene A for a
 * known time and scene B for another, its play log (the one screens run) cuts the records, and
 * it sends them over its socket — half before a disconnect, the rest (and the first half again,
 * as if an answer was lost) after it reconnects. The totals per stream, screen and day match what
 * it showed within a second. And what the server does not believe: other positions, the future,
 * unknown streams, screens without a device id, malformed reports.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlaysAnswer, Ack, ScreenState } from '../../src/shared/events.ts';
import type { PlaysDto } from '../../src/shared/api/index.ts';
import { createPlayLog, nextCut } from '../../src/shared/play-log.ts';
import type { PlayRecord } from '../../src/shared/plays.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { screenPool, type TestScreen } from '../support/screens.ts';
import { writeAssignments } from '../../src/modules/plays/play-assignments.ts';

let app: TestApp;
const screens = screenPool();

beforeAll(async () => {
  app = await startTestApp({ hub: true });
});
afterEach(screens.closeAll);
afterAll(async () => app?.close());

function send(screen: TestScreen, report: unknown): Promise<Ack<PlaysAnswer>> {
  return new Promise((resolve) => screen.client.socket.emit('screen:plays', report as never, resolve as never));
}

async function registered(screen: TestScreen): Promise<TestScreen> {
  await screen.waitFor((s) => s !== null);
  return screen;
}

const byKey = (dto: PlaysDto) => new Map(dto.rows.map((r) => [r.key, r]));

describe('proof of play', () => {
  it('totals what a wall showed, per stream, screen and day, within a second — across a disconnect and a resend', async () => {
    const em = app.orm.em.fork();
    const [a1, a2, b1] = [await buildStream(em, { name: 'Proof A1' }), await buildStream(em, { name: 'Proof A2' }), await buildStream(em, { name: 'Proof B1' })];
    const sceneA = await buildScene(em, { name: 'Proof scene A', streams: [a1, a2] });
    const sceneB = await buildScene(em, { name: 'Proof scene B', streams: [b1] });
    const device = 'proof-wall-0001';

    // Scene A for 150.4 s (A2 stalled for 20 s of it), then B for 130.2 s, ending 20 s ago.
    const A_MS = 150_400;
    const B_MS = 130_200;
    const end = Date.now() - 20_000;
    const start = end - A_MS - B_MS;
    const log = createPlayLog();
    const cutsUntil = (from: number, to: number) => {
      for (let at = nextCut(from); at < to; at = nextCut(at)) log.cut(at);
    };
    log.playing(new Set([a1.id, a2.id]), start);
    log.show([{ position: 1, stream_id: a1.id, scene_id: sceneA.id }, { position: 2, stream_id: a2.id, scene_id: sceneA.id }], start);
    cutsUntil(start, start + 40_000);
    log.playing(new Set([a1.id]), start + 40_000);
    cutsUntil(start + 40_000, start + 60_000);
    log.playing(new Set([a1.id, a2.id, b1.id]), start + 60_000);
    cutsUntil(start + 60_000, start + A_MS);
    log.show([{ position: 1, stream_id: b1.id, scene_id: sceneB.id }], start + A_MS);
    cutsUntil(start + A_MS, end);
    log.show([], end);
    const records = log.pending(1_000);
    expect(records.length).toBeGreaterThan(6);
    // What the server told it then (this test is about the totals: the next one tells it live).
    await writeAssignments(em, [
      { screen: device, at: start, sceneId: sceneA.id, streams: [a1.id, a2.id, null, null, null] },
      { screen: device, at: start + A_MS, sceneId: sceneB.id, streams: [b1.id, null, null, null, null] },
    ]);

    // Half, then the connection drops; the rest after it is back — and the first half again.
    const half = Math.floor(records.length / 2);
    const first = await registered(screens.open(app.baseUrl, { kind: 'wall', name: 'Proof wall', device }));
    const answer1 = await send(first, { records: records.slice(0, half) });
    expect(answer1).toMatchObject({ data: { kept: half, clipped: 0, refused: 0 } });
    first.client.close();
    const again = await registered(screens.open(app.baseUrl, { kind: 'wall', name: 'Proof wall', device }));
    expect(await send(again, { records: records.slice(half) })).toMatchObject({ data: { kept: records.length - half, refused: 0 } });
    const resent = await send(again, { records: records.slice(0, half) });
    expect(resent).toMatchObject({ data: { kept: 0, refused: half } }); // covered: counted once

    const totals = async (group: string) => (await app.request<PlaysDto>('GET', `/api/plays?group=${group}`)).body;
    const streams = byKey(await totals('stream'));
    expect(streams.get(String(a1.id))!.seconds).toBeCloseTo(A_MS / 1000, 0);
    expect(streams.get(String(a1.id))!.playing_seconds).toBeCloseTo(A_MS / 1000, 0);
    expect(streams.get(String(a2.id))!.seconds).toBeCloseTo(A_MS / 1000, 0);
    expect(streams.get(String(a2.id))!.playing_seconds).toBeCloseTo((A_MS - 20_000) / 1000, 0);
    expect(streams.get(String(b1.id))!.seconds).toBeCloseTo(B_MS / 1000, 0);
    expect(streams.get(String(b1.id))!).toMatchObject({ label: 'Proof B1', screens: 1, streams: 1, playing_share: 1 });
    for (const [id, ms] of [[a1.id, A_MS], [a2.id, A_MS], [b1.id, B_MS]] as const) expect(Math.abs(streams.get(String(id))!.seconds * 1000 - ms)).toBeLessThanOrEqual(1_000);

    const screen = byKey(await totals('screen')).get(device)!;
    expect(screen).toMatchObject({ label: 'Proof wall', screens: 1, streams: 3 });
    expect(Math.abs(screen.seconds * 1000 - (2 * A_MS + B_MS))).toBeLessThanOrEqual(1_000);
    const days = await totals('day');
    expect(days.rows.reduce((s, r) => s + r.seconds, 0) * 1000).toBeCloseTo(2 * A_MS + B_MS, -3);
    expect(days).toMatchObject({ retention_days: 90, time_zone: expect.any(String) });

    const csv = await app.request<string>('GET', '/api/plays/export.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('day,screen_device,screen_name,stream_id,stream_name,seconds,playing_seconds');
    // One row per day, screen and stream; its seconds add up to the stream's total.
    const b1Rows = lines.filter((l) => l.includes(',Proof B1,'));
    expect(b1Rows.length).toBeGreaterThanOrEqual(1);
    expect(b1Rows.reduce((sum, l) => sum + Number(l.split(',')[5]), 0)).toBeCloseTo(B_MS / 1000, 0);
  });

  it('refuses what is not the screen\'s own or not believable, and counts it', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Proof kiosk cam' });
    await buildScene(em, { name: 'Proof kiosk scene', streams: [stream] });
    const now = Date.now();
    const record = (extra: Partial<PlayRecord>): PlayRecord => ({ stream_id: stream.id, position: 1, scene_id: null, from: now - 60_000, to: now - 30_000, playing_ms: 30_000, ...extra });

    // The console's count is every screen's within the retention (other tests of this file add to it): this test's share is what it adds.
    const doubtedBefore = (await app.request<PlaysDto>('GET', '/api/plays?group=stream')).body.refused;
    // Told a stream since deleted (or never made) before, then this one.
    await writeAssignments(em, [
      { screen: 'proof-kiosk-0001#kiosk-1', at: now - 400_000, sceneId: null, streams: [2_000_000_000, null, null, null, null] },
      { screen: 'proof-kiosk-0001#kiosk-1', at: now - 200_000, sceneId: null, streams: [stream.id, null, null, null, null] },
    ]);
    const kiosk = await registered(screens.open(app.baseUrl, { kind: 'kiosk', position: 1, device: 'proof-kiosk-0001' }));
    const answer = await send(kiosk, {
      records: [
        record({}),
        record({ position: 2 }),
        record({ from: now + 60_000, to: now + 90_000 }),
        record({ stream_id: 2_000_000_000, from: now - 320_000, to: now - 290_000 }),
        record({ from: now - 20_000, to: now + 3_000, playing_ms: 600_000 }),
      ],
    });
    expect(answer).toEqual({ data: { kept: 1, clipped: 1, refused: 3, verdicts: ['kept', 'not-its-position', 'future', 'unknown-stream', 'clipped'] } });

    expect(await send(kiosk, { records: [] })).toEqual({ error: 'Invalid proof-of-play report' });
    expect(await send(kiosk, { records: [{ ...record({}), extra: 1 }] })).toEqual({ error: 'Invalid proof-of-play report' });
    expect(await send(kiosk, { records: [record({ from: -1 })] })).toEqual({ error: 'Invalid proof-of-play report' });
    expect(await send(kiosk, 'not a report')).toEqual({ error: 'Invalid proof-of-play report' });

    const anonymous = await registered(screens.open(app.baseUrl, { kind: 'wall' }));
    expect(await send(anonymous, { records: [record({})] })).toEqual({ error: 'Proof of play is for walls and kiosks with a device id' });

    const totals = (await app.request<PlaysDto>('GET', '/api/plays?group=stream')).body;
    // Three refused and one clipped above; what the hub refused before the rules (malformed, anonymous) is not a record it judged.
    expect(totals.refused - doubtedBefore).toBe(4);
    // Stored per screen and reason (not a node's counter): what the Proof of play tab lists.
    const mine = totals.refusals.filter((r) => r.key.startsWith('proof-kiosk-0001'));
    expect(Object.fromEntries(mine.map((r) => [r.reason, r.count]))).toEqual({ 'not-its-position': 1, future: 1, 'unknown-stream': 1, clipped: 1 });
    const kept = totals.rows.find((r) => r.key === String(stream.id))!;
    expect(kept.seconds).toBeCloseTo(30 + 20, 0); // the kept half minute and the clipped 20 s, nothing of the rest
    expect(kept.playing_seconds).toBeCloseTo(50, 0);
  });

  it('counts only what the server assigned: totals match the assignments within a second; other streams and other times are refused by reason', async () => {
    const em = app.orm.em.fork();
    const [s1, s2, s3, never] = [
      await buildStream(em, { name: 'Told X1' }),
      await buildStream(em, { name: 'Told X2' }),
      await buildStream(em, { name: 'Told Y1' }),
      await buildStream(em, { name: 'Never told' }),
    ];
    const sceneX = await buildScene(em, { name: 'Told scene X', streams: [s1, s2] });
    const sceneY = await buildScene(em, { name: 'Told scene Y', streams: [s3] });
    const device = 'told-wall-0001';
    const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    const shownOf = (state: ScreenState | null) =>
      state?.kind === 'wall' ? state.streams.map((s) => ({ position: s.position, stream_id: s.id, scene_id: state.scene?.id ?? null })) : [];
    const setDefault = async (id: number) => expect((await app.request('PUT', '/api/config/default-scene', { scene_id: id })).status).toBe(200);
    /** The instant the server told the wall to flip to `sceneId` (the push's `at`). */
    const flipInstant = (screen: TestScreen, sceneId: number) => {
      const m = screen.messages.findLast((m) => m.type === 'scene' && m.payload.scene.id === sceneId);
      return m?.type === 'scene' && m.payload.at !== undefined ? m.payload.at : null;
    };

    await setDefault(sceneX.id);
    const wall = await registered(screens.open(app.baseUrl, { kind: 'wall', name: 'Told wall', device }));
    await wall.waitFor((s) => s?.kind === 'wall' && s.scene?.id === sceneX.id);
    // Its clock estimate is good to 3 ms (as a screen on a LAN reports): a record may run 803 ms past its assignment.
    const clocked = await new Promise((resolve) => wall.client.socket.emit('screen:clock', { offset_ms: 0, error_ms: 3 } as never, resolve as never));
    expect(clocked).toEqual({ data: expect.anything() });
    // The screen's play log, flipped at each push's instant as a screen does.
    const log = createPlayLog();
    log.playing(new Set([s1.id, s2.id, s3.id]), Date.now());
    const shownFrom = Date.now();
    log.show(shownOf(wall.state), shownFrom);
    const flipTo = async (scene: { id: number }) => {
      await sleepUntil(Date.now() + 2_500);
      await setDefault(scene.id);
      await wall.waitFor((s) => s?.kind === 'wall' && s.scene?.id === scene.id);
      const at = flipInstant(wall, scene.id)!;
      expect(at).toBeGreaterThan(Date.now() - 5_000);
      await sleepUntil(at);
      log.show(shownOf(wall.state), Date.now());
      return at;
    };
    const toY = await flipTo(sceneY);
    const backToX = await flipTo(sceneX);
    await sleepUntil(Date.now() + 2_000);
    const end = Date.now();
    log.show([], end);
    // A renamed scene tells it nothing new to show.
    expect((await app.request('PUT', '/api/scenes', { id: sceneX.id, name: 'Told scene X, renamed' })).status).toBe(200);
    await wall.waitFor((s) => s?.kind === 'wall' && s.scene?.name === 'Told scene X, renamed');

    const records = log.pending(100);
    const answer = await send(wall, { records });
    expect(answer).toEqual({ data: expect.objectContaining({ kept: records.length, clipped: 0, refused: 0 }) });

    // What it was assigned, by the instants the server told it: X until toY, Y until backToX, X until the end.
    const xMs = toY - shownFrom + (end - backToX);
    const yMs = backToX - toY;
    const streams = byKey((await app.request<PlaysDto>('GET', '/api/plays?group=stream')).body);
    for (const [stream, ms] of [[s1, xMs], [s2, xMs], [s3, yMs]] as const) {
      expect(Math.abs(streams.get(String(stream.id))!.seconds * 1000 - ms), stream.name).toBeLessThanOrEqual(1_000);
    }
    // The history: three assignments (registered on X, then Y, then X), none for the rename.
    const rows = await em.getConnection().execute<{ streams: (number | null)[] }[]>('select streams from play_assignments where screen = ? order by from_at', [device]);
    expect(rows.map((r) => r.streams.slice(0, 2))).toEqual([[s1.id, s2.id], [s3.id, null], [s1.id, s2.id]]);

    // Forged: a stream never assigned, one assigned elsewhere (position 2 never showed s1), one assigned at another time (Y's
    // stream during X's first stretch, which lasted 2.5 s and more: over 803 ms from Y's).
    const forged: PlayRecord[] = [
      { stream_id: never.id, position: 1, scene_id: sceneX.id, from: shownFrom + 100, to: shownFrom + 1_100, playing_ms: 1_000 },
      { stream_id: s1.id, position: 2, scene_id: sceneX.id, from: shownFrom + 100, to: shownFrom + 1_100, playing_ms: 1_000 },
      { stream_id: s3.id, position: 1, scene_id: sceneY.id, from: shownFrom + 100, to: shownFrom + 1_100, playing_ms: 1_000 },
    ];
    // Against a fresh screen key (the wall's own time is counted already: these would be `covered` first otherwise).
    const refusedBefore = (await app.request<PlaysDto>('GET', '/api/plays?group=stream')).body.refusals.filter((r) => r.key === device);
    expect(refusedBefore).toEqual([]);
    await app.orm.em.fork().getConnection().execute('delete from play_screens where device = ?', [device]);
    expect(await send(wall, { records: forged })).toEqual({ data: { kept: 0, clipped: 0, refused: 3, verdicts: ['never-assigned', 'never-assigned', 'not-assigned'] } });
    const refusals = (await app.request<PlaysDto>('GET', '/api/plays?group=stream')).body.refusals.filter((r) => r.key === device);
    expect(Object.fromEntries(refusals.map((r) => [r.reason, r.count]))).toEqual({ 'never-assigned': 2, 'not-assigned': 1 });
  });

  it('keeps a record clipped by a fractional clock bound (screens report it to the microsecond) in whole milliseconds', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em, { name: 'Clipped by a fraction' });
    const scene = await buildScene(em, { name: 'Fraction scene', streams: [stream] });
    expect((await app.request('PUT', '/api/config/default-scene', { scene_id: scene.id })).status).toBe(200);
    const before = Date.now();
    const wall = await registered(screens.open(app.baseUrl, { kind: 'wall', name: 'Fraction wall', device: 'fraction-wall-0001' }));
    await wall.waitFor((s) => s?.kind === 'wall' && s.scene?.id === scene.id);
    const clocked = await new Promise((resolve) => wall.client.socket.emit('screen:clock', { offset_ms: 0.25, error_ms: 2.6 } as never, resolve as never));
    expect(clocked).toEqual({ data: expect.anything() });
    // It starts 5 s before the wall was told anything: clipped to the assignment widened by the slack, which holds the fraction.
    const record: PlayRecord = { stream_id: stream.id, position: 1, scene_id: scene.id, from: before - 5_000, to: Date.now(), playing_ms: 1_000 };
    expect(await send(wall, { records: [record] })).toEqual({ data: { kept: 0, clipped: 1, refused: 0, verdicts: ['clipped'] } });
    const [quarter] = await em.getConnection().execute<{ ms: number; playing: number }[]>(
      'select q.ms, q.playing from play_quarters q join play_screens s on s.id = q.screen where s.device = ?',
      ['fraction-wall-0001'],
    );
    expect(Number.isInteger(quarter!.ms)).toBe(true);
    expect(quarter!.ms).toBeGreaterThan(800);
    expect(quarter!.ms).toBeLessThan(record.to - record.from - 4_000);
  });

  it('answers a range that ends before it starts, or lies beyond any record, with no rows', async () => {
    for (const query of ['from=2026-11-20&to=2026-11-01', 'from=0001-01-01&to=0001-12-31', 'from=9999-01-01&to=9999-12-31']) {
      const answer = await app.request<PlaysDto>('GET', `/api/plays?${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.body.rows, query).toEqual([]);
    }
  });

  it('answers bad queries with 400 and a readable message', async () => {
    for (const query of ['group=screens', 'from=2026-13-01', 'from=2026-02-30', 'to=2026-11-2\u0000', 'to=26-11-20']) {
      const answer = await app.request<{ error: string }>('GET', `/api/plays?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toEqual(expect.any(String));
    }
  });
});
