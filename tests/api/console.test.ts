/**
 * What the admin console stands on: the activity journal written by runCommand, the default
 * scene's "changed by … at …", the /test-db calls, and screen presence with commands.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDto } from '../../src/shared/api/activity.ts';
import type { DatabaseTestDto, InitializeDto } from '../../src/shared/api/system.ts';
import type { ScreenPresence } from '../../src/shared/events.ts';
import { Activity } from '../../src/modules/activity/activity.entity.ts';
import { SystemConfig } from '../../src/modules/config/system-config.entity.ts';
import { Scene } from '../../src/modules/scenes/scene.entity.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { createLogger } from '../../src/logger.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { buildScene } from '../support/factories.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

let app: TestApp;
let screens: TestScreen[] = [];
beforeAll(async () => {
  app = await startTestApp({ hub: true });
  await seed(app.orm.em.fork(), { demo: false, logger: createLogger('silent') });
});
afterEach(() => {
  screens.forEach((s) => s.close());
  screens = [];
});
afterAll(async () => app?.close());

describe('the activity journal', () => {
  it('records every admin write with its actor, from the one place commands run', async () => {
    const stream = await app.request<{ id: number }>('POST', '/api/streams', { name: 'Journal cam', url: 'https://example.org/journal.m3u8' });
    await app.request('PUT', '/api/streams', { id: stream.body.id, name: 'Journal cam 2' });
    const scene = await app.request<{ id: number }>('POST', '/api/scenes', { name: 'Journal scene', selection_algorithm: 'manual', stream_ids: [stream.body.id] });
    await app.request('PUT', '/api/config/default-scene', { scene_id: scene.body.id });
    const token = await app.request<{ id: number }>('POST', '/api/auth/tokens', { name: 'journal-bot' });
    await app.request('DELETE', '/api/auth/tokens', { id: token.body.id });
    await app.request('DELETE', '/api/streams', { id: stream.body.id });

    const list = (await app.request<ActivityDto[]>('GET', '/api/activity')).body;
    expect(list.slice(0, 7).map((a) => [a.action, a.subject_name, a.actor])).toEqual([
      ['stream.deleted', 'Journal cam 2', 'api-token'],
      ['token.revoked', 'journal-bot', 'api-token'],
      ['token.created', 'journal-bot', 'api-token'],
      ['default-scene.changed', null, 'api-token'],
      ['scene.created', 'Journal scene', 'api-token'],
      ['stream.updated', 'Journal cam 2', 'api-token'],
      ['stream.created', 'Journal cam', 'api-token'],
    ]);
    const streamsOnly = (await app.request<ActivityDto[]>('GET', '/api/activity?kind=stream&limit=2')).body;
    expect(streamsOnly.map((a) => a.action)).toEqual(['stream.deleted', 'stream.updated']);
    expect((await app.request('GET', '/api/activity?kind=nonsense')).status).toBe(400);
    expect((await app.anonymous('GET', '/api/activity')).status).toBe(401);
  });

  it('writes nothing when the command fails (same transaction)', async () => {
    const before = await app.orm.em.fork().count(Activity, {});
    await app.request('POST', '/api/streams', { name: 'Dup', url: 'https://example.org/dup-journal.m3u8' });
    const dup = await app.request('POST', '/api/streams', { name: 'Dup again', url: 'https://example.org/dup-journal.m3u8' });
    expect(dup.status).toBe(409);
    expect(await app.orm.em.fork().count(Activity, {})).toBe(before + 1);
  });

  it('pushes activity:recorded to admins', async () => {
    const admin = openScreen(app.baseUrl, { kind: 'admin' }, adminHeaders);
    screens.push(admin);
    await admin.waitFor((s) => s?.kind === 'admin');
    const seen: number[] = [];
    admin.client.socket.on('activity:recorded', (p) => seen.push(p.count));
    await app.request('POST', '/api/streams', { name: 'Pushed journal', url: 'https://example.org/pushed-journal.m3u8' });
    await expect.poll(() => seen).toEqual([1]);
  });
});

describe('the default scene selector', () => {
  it('tells admins who changed the default scene and when; screens see only the id', async () => {
    const scene = await buildScene(app.orm.em.fork(), { name: 'Who changed me' });
    await app.request('PUT', '/api/config/default-scene', { scene_id: scene.id });
    const admin = (await app.request<{ scene_id: number; updated_by: string; updated_at: string }>('GET', '/api/config/default-scene')).body;
    expect(admin.scene_id).toBe(scene.id);
    expect(admin.updated_by).toBe('api-token');
    expect(Date.parse(admin.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await app.anonymous('GET', '/api/config/default-scene')).body).toEqual({ scene_id: scene.id });
  });
});

describe('/test-db', () => {
  it('tests the connection', async () => {
    const res = await app.request<DatabaseTestDto>('GET', '/api/system/database');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.migrations_applied).toBeGreaterThanOrEqual(4);
    expect(res.body.server_version).toMatch(/^\d+/);
    expect((await app.anonymous('GET', '/api/system/database')).status).toBe(401);
  });

  it('initialises idempotently and says what it did', async () => {
    const em = app.orm.em.fork();
    await em.nativeDelete(SystemConfig, { key: 'default_scene_id' });
    await em.nativeUpdate(Scene, { name: 'Default' }, { name: 'Old default' });
    const first = await app.request<InitializeDto>('POST', '/api/system/initialize');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created_default_scene: true, set_default_scene_id: true });
    const created = await app.orm.em.fork().findOneOrFail(Scene, { name: 'Default' });
    expect(first.body.default_scene_id).toBe(created.id);
    const again = await app.request<InitializeDto>('POST', '/api/system/initialize');
    expect(again.body).toEqual({ created_default_scene: false, set_default_scene_id: false, default_scene_id: created.id });
  });
});

describe('screens: presence, offline sightings and commands', () => {
  it('lists a screen by its device, keeps it as offline after it leaves, and delivers commands', async () => {
    const wall = openScreen(app.baseUrl, { kind: 'wall', name: 'Foyer', device: 'device-foyer-0001' });
    const kiosk = openScreen(app.baseUrl, { kind: 'kiosk', position: 1, name: 'Tablet', device: 'device-tablet-0001' });
    screens.push(wall, kiosk);
    await Promise.all([wall, kiosk].map((s) => s.waitFor((state) => state !== null)));

    const live = (await app.request<ScreenPresence[]>('GET', '/api/screens')).body;
    const foyer = live.find((s) => s.device === 'device-foyer-0001')!;
    expect(foyer).toMatchObject({ online: true, kind: 'wall', name: 'Foyer' });

    const commands: string[] = [];
    wall.client.socket.on('screen:command', (c) => commands.push(`wall:${c.command}`));
    kiosk.client.socket.on('screen:command', (c) => commands.push(`kiosk:${c.command}`));
    expect((await app.request('POST', '/api/screens/command', { command: 'identify', id: foyer.id })).status).toBe(200);
    await expect.poll(() => commands).toEqual(['wall:identify']);
    await app.request('POST', '/api/screens/command', { command: 'reload' });
    await expect.poll(() => [...commands].sort()).toEqual(['kiosk:reload', 'wall:identify', 'wall:reload']);
    expect((await app.request('POST', '/api/screens/command', { command: 'self-destruct' })).status).toBe(400);

    wall.close();
    await expect.poll(async () => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.some((s) => s.device === 'device-foyer-0001')).toBe(false);
    await expect
      .poll(async () => (await app.request<ScreenPresence[]>('GET', '/api/screens?include_offline=true')).body.find((s) => s.device === 'device-foyer-0001')?.online)
      .toBe(false);
    const withOffline = (await app.request<ScreenPresence[]>('GET', '/api/screens?include_offline=true')).body;
    expect(withOffline.filter((s) => s.device === 'device-tablet-0001')).toEqual([expect.objectContaining({ online: true })]);
    // Kept as it was last seen: what it showed, where and since when, in the live list's formats.
    const gone = withOffline.find((s) => s.device === 'device-foyer-0001')!;
    expect(gone).toMatchObject({
      id: foyer.id,
      kind: 'wall',
      name: 'Foyer',
      follows: foyer.follows,
      scene_id: foyer.scene_id,
      group_id: foyer.group_id,
      rule: foyer.rule,
      position: null,
      node: foyer.node,
      connected_at: foyer.connected_at,
      health: foyer.health,
      clock: null,
    });
    expect(foyer.scene_id).not.toBeNull();
    expect(gone.last_heartbeat).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(gone.last_heartbeat)).toBeGreaterThanOrEqual(Date.parse(foyer.connected_at));
  });

  it('forgets admin consoles once they close (only walls and kiosks are listed as last seen)', async () => {
    const console1 = openScreen(app.baseUrl, { kind: 'admin', name: 'A closed console', device: 'device-console-0001' }, adminHeaders);
    screens.push(console1);
    await console1.waitFor((s) => s?.kind === 'admin');
    await expect.poll(async () => (await app.request<ScreenPresence[]>('GET', '/api/screens')).body.some((s) => s.name === 'A closed console')).toBe(true);
    console1.close();
    await expect.poll(async () => (await app.request<ScreenPresence[]>('GET', '/api/screens?include_offline=true')).body.some((s) => s.name === 'A closed console')).toBe(false);
  });

  it('refuses a malformed device id at registration', async () => {
    const bad = openScreen(app.baseUrl, { kind: 'wall', device: 'no spaces allowed!' });
    screens.push(bad);
    await expect.poll(() => bad.errors[0]).toMatch(/^Invalid registration: device/);
  });
});
