import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import type { KioskState, ScreenPresence, WallState } from '../../src/shared/events.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { screenPool, type TestScreen } from '../support/screens.ts';

let app: TestApp;
const screens = screenPool();
const open = screens.open;

beforeAll(async () => {
  app = await startTestApp({ hub: true });
  await seed(app.orm.em.fork(), { demo: true, logger: createLogger('silent') });
});
afterEach(screens.closeAll);
afterAll(async () => app?.close());

const wall = (s: TestScreen) => s.state as WallState | null;
const defaultId = async () => (await app.request<{ scene_id: number }>('GET', '/api/config/default-scene')).body.scene_id;

describe('walls and kiosks following the default scene', () => {
  it('receive the new scene when the default scene changes over REST', async () => {
    const original = await defaultId();
    const a = open(app.baseUrl, { kind: 'wall', name: 'Lobby' });
    const b = open(app.baseUrl, { kind: 'kiosk', position: 2 });
    await a.waitFor((s) => (s as WallState | null)?.scene?.id === original);
    await b.waitFor((s) => (s as KioskState | null)?.scene?.id === original);

    const target = (await app.request<{ id: number; name: string; stream_ids: number[] }[]>('GET', '/api/scenes')).body.find((s) => s.name === 'Fire & Water')!;
    expect((await app.request('PUT', '/api/config/default-scene', { scene_id: target.id })).status).toBe(200);

    const wallState = await a.waitFor((s) => (s as WallState | null)?.scene?.id === target.id);
    expect((wallState as WallState).streams.map((s) => s.id)).toEqual(target.stream_ids);
    const kioskState = await b.waitFor((s) => (s as KioskState | null)?.scene?.id === target.id);
    expect((kioskState as KioskState).stream?.id).toBe(target.stream_ids[1]);
    expect(a.messages.some((m) => m.type === 'scene')).toBe(true); // a push, not a re-fetch
    expect(kioskState.version).toBeGreaterThan(0);

    await app.request('PUT', '/api/config/default-scene', { scene_id: original });
    await a.waitFor((s) => (s as WallState | null)?.scene?.id === original);
  });

  it('a kiosk at position 2 receives its new stream when that stream is edited', async () => {
    const k = open(app.baseUrl, { kind: 'kiosk', position: 2 });
    const before = await k.waitFor((s) => !!(s as KioskState | null)?.stream);
    const stream = (before as KioskState).stream!;
    await app.request('PUT', '/api/streams', { id: stream.id, name: 'Renamed at position 2', location_name: 'Somewhere new' });
    const after = (await k.waitFor((s) => (s as KioskState).stream?.name === 'Renamed at position 2')) as KioskState;
    expect(after).toMatchObject({ position: 2, stream: { id: stream.id, location_name: 'Somewhere new' } });
    expect(after.version).toBeGreaterThan(before.version);
  });

  it('a kiosk shows the next stream when its stream is deactivated, and a wall drops it', async () => {
    const w = open(app.baseUrl, { kind: 'wall' });
    const k = open(app.baseUrl, { kind: 'kiosk', position: 1 });
    const first = ((await k.waitFor((s) => !!(s as KioskState | null)?.stream)) as KioskState).stream!;
    await w.waitFor((s) => ((s as WallState | null)?.streams.length ?? 0) > 0);
    await app.request('PUT', '/api/streams', { id: first.id, active: false });
    await k.waitFor((s) => (s as KioskState).stream?.id !== first.id);
    await w.waitFor((s) => !(s as WallState).streams.some((x) => x.id === first.id));
    await app.request('PUT', '/api/streams', { id: first.id, active: true });
    await k.waitFor((s) => (s as KioskState).stream?.id === first.id);
  });
});

describe('walls and kiosks following one scene', () => {
  it('see slot changes, deletion and reactivation of that scene', async () => {
    const em = app.orm.em.fork();
    const [x, y] = [await buildStream(em, { name: 'X cam' }), await buildStream(em, { name: 'Y cam' })];
    const scene = await buildScene(em, { name: 'Followed Scene', streams: [x] });
    const w = open(app.baseUrl, { kind: 'wall', sceneSlug: 'followed-scene' });
    const k = open(app.baseUrl, { kind: 'kiosk', sceneSlug: 'followed-scene', position: 2 });
    await w.waitFor((s) => (s as WallState | null)?.streams[0]?.name === 'X cam');
    await k.waitFor((s) => (s as KioskState | null)?.problem === 'no-stream-at-position');

    await app.request('PUT', '/api/scenes', { id: scene.id, stream_ids: [x.id, y.id] });
    await w.waitFor((s) => (s as WallState).streams.map((t) => t.name).join() === 'X cam,Y cam');
    await k.waitFor((s) => (s as KioskState).stream?.name === 'Y cam');

    await app.request('DELETE', '/api/scenes', { id: scene.id });
    await w.waitFor((s) => (s as WallState).problem === 'scene-not-found');
    await k.waitFor((s) => (s as KioskState).problem === 'scene-not-found');

    await app.request('PUT', '/api/scenes', { id: scene.id, active: true });
    await w.waitFor((s) => (s as WallState).scene?.id === scene.id);
  });

  it('a wall waiting for a scene that does not exist yet shows it once it is created', async () => {
    const w = open(app.baseUrl, { kind: 'wall', sceneSlug: 'not-yet' });
    await w.waitFor((s) => (s as WallState | null)?.problem === 'scene-not-found');
    const stream = await buildStream(app.orm.em.fork());
    expect((await app.request('POST', '/api/scenes', { name: 'Not Yet', stream_ids: [stream.id] })).status).toBe(201);
    const shown = (await w.waitFor((s) => (s as WallState).scene?.slug === 'not-yet')) as WallState;
    expect(shown.streams.map((s) => s.id)).toEqual([stream.id]);
  });
});

describe('reconnect and resync', () => {
  it('a client that was disconnected during a change gets the right snapshot on reconnect', async () => {
    const original = await defaultId();
    const w = open(app.baseUrl, { kind: 'wall' });
    const witness = open(app.baseUrl, { kind: 'wall' }); // stays online: proves the push went out
    await w.waitFor((s) => (s as WallState | null)?.scene?.id === original);
    await witness.waitFor((s) => (s as WallState | null)?.scene?.id === original);
    const seen = w.state!.version;

    w.client.socket.disconnect(); // offline while the default scene changes
    const offlineFrom = w.messages.length;
    const other = (await buildScene(app.orm.em.fork(), { name: 'While Away', selectionAlgorithm: 'recent' })).id;
    await app.request('PUT', '/api/config/default-scene', { scene_id: other });
    // The push is over, not merely late: the hub has pushed everything it received, and a
    // screen that stayed online has it.
    await app.hub!.idle();
    await witness.waitFor((s) => (s as WallState).scene?.id === other);
    expect(wall(w)?.scene?.id).toBe(original); // it missed the push
    expect(w.messages.length).toBe(offlineFrom);

    w.client.socket.connect();
    const state = (await w.waitFor((s) => (s as WallState).scene?.id === other)) as WallState;
    expect(state.version).toBeGreaterThan(seen);
    // It came from the registration snapshot, and nothing else arrived since the disconnect.
    expect(w.messages.slice(offlineFrom).map((m) => m.type)).toEqual(['state']);
    await app.request('PUT', '/api/config/default-scene', { scene_id: original });
  });

  it('registering again for something else replaces what the screen follows', async () => {
    const w = open(app.baseUrl, { kind: 'wall' });
    await w.waitFor((s) => !!s);
    const result = await w.client.socket.emitWithAck('screen:register', { kind: 'wall', sceneSlug: 'fire-water' });
    expect('data' in result && result.data.kind === 'wall' && result.data.scene?.slug).toBe('fire-water');
  });
});

describe('presence', () => {
  it('lists every registered screen with kind, scene, position and health', async () => {
    const w = open(app.baseUrl, { kind: 'wall', name: 'Atrium wall' });
    const k = open(app.baseUrl, { kind: 'kiosk', name: 'Tablet 3', position: 3 });
    const shown = (await w.waitFor((s) => !!(s as WallState | null)?.streams.length)) as WallState;
    await k.waitFor((s) => !!s);
    // The report's acknowledgement comes once the hub has recorded it: no sleep.
    const report = { streams: [{ stream_id: shown.streams[0]!.id, state: 'playing' as const }, { stream_id: shown.streams[1]!.id, state: 'stalled' as const }] };
    expect(await w.client.socket.timeout(2000).emitWithAck('screen:health', report)).toEqual({ data: { ok: true } });

    const list = (await app.request<ScreenPresence[]>('GET', '/api/screens')).body;
    const atrium = list.find((s) => s.name === 'Atrium wall');
    expect(atrium).toMatchObject({ kind: 'wall', follows: null, scene_id: shown.scene!.id, position: null });
    expect(atrium!.health).toEqual({ [shown.streams[0]!.id]: 'playing', [shown.streams[1]!.id]: 'stalled' });
    expect(list.find((s) => s.name === 'Tablet 3')).toMatchObject({ kind: 'kiosk', position: 3 });
    expect(Date.parse(atrium!.last_heartbeat)).toBeGreaterThanOrEqual(Date.parse(atrium!.connected_at));
  });

  it('pushes screens:updated to admins when screens come and go', async () => {
    const admin = open(app.baseUrl, { kind: 'admin' }, adminHeaders);
    await admin.waitFor((s) => s?.kind === 'admin');
    const updates: ScreenPresence[][] = [];
    admin.client.socket.on('screens:updated', (list) => updates.push(list));
    const w = open(app.baseUrl, { kind: 'wall', name: 'Arrives' });
    await w.waitFor((s) => !!s);
    await expect.poll(() => updates.at(-1)?.some((s) => s.name === 'Arrives')).toBe(true);
    w.close();
    // It stays listed, offline, with when it was last seen.
    await expect.poll(() => updates.at(-1)?.find((s) => s.name === 'Arrives')?.online).toBe(false);
  });

  it('pushes stream and scene changes to admins', async () => {
    const admin = open(app.baseUrl, { kind: 'admin' }, adminHeaders);
    await admin.waitFor((s) => s?.kind === 'admin');
    const events: string[] = [];
    admin.client.socket.on('stream:created', (p) => events.push(`created:${p.stream.name}`));
    admin.client.socket.on('stream:deleted', (p) => events.push(`deleted:${p.stream_id}`));
    const res = await app.request<{ id: number }>('POST', '/api/streams', { name: 'Admin sees me', url: 'https://example.org/admin-sees.m3u8' });
    await app.request('DELETE', '/api/streams', { id: res.body.id });
    await expect.poll(() => events).toEqual(['created:Admin sees me', `deleted:${res.body.id}`]);
  });
});

describe('safety', () => {
  it('answers malformed registrations and reports with an error ack, and stays up', async () => {
    const socket = ioClient(app.baseUrl, { transports: ['websocket'] });
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const bad = [
      undefined, null, 42, 'wall', [], {}, { kind: 'toaster' }, { kind: 'kiosk' }, { kind: 'kiosk', position: 9 },
      { kind: 'kiosk', position: '2' }, { kind: 'wall', sceneSlug: 'x'.repeat(1000) }, { kind: 'wall', name: { $gt: '' } },
    ];
    for (const registration of bad) {
      const result = (await socket.timeout(2000).emitWithAck('screen:register', registration)) as { error?: string };
      expect(result.error).toMatch(/^Invalid registration/);
    }
    const health = (await socket.timeout(2000).emitWithAck('screen:health', { streams: 'all good' })) as { error?: string };
    expect(health.error).toBe('Invalid health report');
    socket.emit('screen:register'); // no ack at all: ignored
    socket.emit('no-such-event', 1, 2, 3);
    expect((await app.request('GET', '/healthz')).status).toBe(200);
    const ok = (await socket.timeout(2000).emitWithAck('screen:register', { kind: 'wall' })) as { data?: unknown };
    expect(ok.data).toBeTruthy();
    socket.close();
  });

  it('rate-limits a flooding socket', async () => {
    const socket = ioClient(app.baseUrl, { transports: ['websocket'] });
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const results = (await Promise.all(
      Array.from({ length: 40 }, () => socket.timeout(3000).emitWithAck('screen:health', { streams: [] })),
    )) as { error?: string }[];
    expect(results.filter((r) => r.error === 'Too many messages; slow down').length).toBeGreaterThan(0);
    socket.close();
  });

  it('refuses a browser handshake from another site', async () => {
    const socket = ioClient(app.baseUrl, { transports: ['websocket'], extraHeaders: { origin: 'https://evil.example' } });
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    expect(error).toBeInstanceOf(Error);
    expect(socket.connected).toBe(false);
    socket.close();
  });

  it('accepts a same-origin browser handshake', async () => {
    const socket = ioClient(app.baseUrl, { transports: ['websocket'], extraHeaders: { origin: app.baseUrl } });
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    socket.close();
  });
});
