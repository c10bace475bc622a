/**
 * Enrolment over real sockets and a real database (issue 41): with approval on, a browser is a
 * screen only once an admin approves its pairing code — the group is the admin's, never the
 * address's; a public viewer sees what its address shows and writes nothing; a revoked screen is
 * refused within seconds; a forged credential, a guessed or expired code and a flood of pairing
 * requests each get a sentence and change nothing; and screens known before approval shipped are
 * approved by the migration and handed their credential when they connect.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APPROVE_KNOWN_SCREENS } from '../../migrations/Migration20261127170000_enrolment.ts';
import type { EnrolledDto, EnrolmentSettingDto, PairingAnswer, PairingDto, ScreenGroupDto, ScreenListItem } from '../../src/shared/api/index.ts';
import type { Ack, PlaysAnswer } from '../../src/shared/events.ts';
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, PAIRING_WAITING_PER_ADDRESS, PAIRING_WAITING_TOTAL } from '../../src/shared/pairing.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { QUALITY_QUEUE, type QueueData } from '../../src/modules/quality/quality.jobs.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { screenPool, type TestScreen } from '../support/screens.ts';

let app: TestApp;
const screens = screenPool();
/** The app's clock: a test moves it past a code's expiry. */
let clockOffset = 0;
let lobby: ScreenGroupDto;
let lobbyScene: number;

beforeAll(async () => {
  app = await startTestApp({ hub: true, settings: { screens: { approval: true } }, appOptions: { now: () => Date.now() + clockOffset, trustProxy: true } });
  const em = app.orm.em.fork();
  const stream = await buildStream(em, { name: 'Lobby cam' });
  lobbyScene = (await buildScene(em, { name: 'Lobby scene', streams: [stream] })).id;
  lobby = (await app.request<ScreenGroupDto>('POST', '/api/screen-groups', { name: 'Lobby', scene_id: lobbyScene })).body;
});
afterEach(() => {
  screens.closeAll();
  clockOffset = 0;
});
afterAll(async () => app?.close());

const from = (address: string) => ({ headers: { 'x-forwarded-for': address, 'user-agent': 'Enrolment test screen/1.0' } });
const pair = (body: object, address = '203.0.113.7') => app.anonymous<PairingAnswer & { error?: string }>('POST', '/api/screens/pairings', body, from(address));
const listed = async () => (await app.request<ScreenListItem[]>('GET', '/api/screens')).body;
const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const sendPlays = (screen: TestScreen, report: unknown) => new Promise<Ack<PlaysAnswer>>((resolve) => screen.client.socket.emit('screen:plays', report as never, resolve as never));

describe('enrolment', () => {
  it('a browser without a credential is a public viewer: it sees its address, joins no group, is listed nowhere and writes nothing', async () => {
    const viewer = screens.open(app.baseUrl, { kind: 'wall', name: 'Sneaky lobby', device: 'public-viewer-01', group: 'lobby' });
    const state = await viewer.waitFor((s) => s !== null);
    expect(state).toMatchObject({ kind: 'wall' });
    expect(state.kind === 'wall' && state.scene?.id).not.toBe(lobbyScene); // the address's group is not obeyed
    expect(await app.orm.em.fork().execute(`select 1 from screen_placements where device = 'public-viewer-01'`)).toHaveLength(0);
    expect((await listed()).some((s) => s.kind === 'wall')).toBe(false);
    const at = Date.now() - 5_000;
    const plays = await sendPlays(viewer, { records: [{ stream_id: 1, position: 1, scene_id: null, from: at - 2_000, to: at, playing_ms: 2_000 }] });
    expect(plays).toEqual({ error: 'Proof of play is for approved screens; this browser is not one' });
  });

  it('pairs: a code without look-alikes, waiting in the console; approved with a group, the wall shows it at once; journaled', async () => {
    const asked = await pair({ kind: 'wall', name: 'Lobby left', group: 'somewhere-else', device: 'lobby-left-0001' });
    expect(asked.status).toBe(201);
    expect(asked.body.code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`));
    expect(asked.body.code).not.toMatch(/[01OIL]/);

    const wall = screens.open(app.baseUrl, { kind: 'wall', name: 'Lobby left', device: 'lobby-left-0001', group: 'somewhere-else' }, undefined, { credential: asked.body.credential });
    await until('the wall shows its code', () => wall.pairing?.code === asked.body.code);
    expect(wall.state).toBeNull(); // nothing but its code
    expect((await listed()).some((s) => s.device === 'lobby-left-0001')).toBe(false);

    const waiting = (await app.request<PairingDto[]>('GET', '/api/screens/pairings')).body;
    expect(waiting.find((p) => p.code === asked.body.code)).toMatchObject({ kind: 'wall', name: 'Lobby left', group: 'somewhere-else', address: '203.0.113.7', user_agent: 'Enrolment test screen/1.0' });

    // Typed as people type it: lower case, with a space.
    const typed = `${asked.body.code.slice(0, 3).toLowerCase()} ${asked.body.code.slice(3)}`;
    const approved = await app.request<EnrolledDto>('POST', '/api/screens/pairings/approve', { code: typed, name: 'Lobby wall, left', kind: 'wall', group_id: lobby.id });
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ name: 'Lobby wall, left', kind: 'wall', group_id: lobby.id, source: 'paired', has_credential: true, revoked_at: null });

    const state = await wall.waitFor((s) => s?.kind === 'wall' && s.scene?.id === lobbyScene);
    expect(state.kind).toBe('wall');
    expect(wall.pairing).toBeNull();
    // What it was told is kept as its assignment (proof of play counts only that).
    const lobbyStreams = state.kind === 'wall' ? state.streams.map((s) => s.id) : [];
    await until('its assignment is kept', async () => {
      const rows = await app.orm.em.fork().execute<{ streams: (number | null)[] }[]>(`select streams from play_assignments where screen = 'lobby-left-0001' order by from_at desc limit 1`);
      return rows[0]?.streams.filter((id) => id !== null).join(',') === lobbyStreams.join(',');
    });
    // The public viewer before it (the test above) was shown its page too: kept as no one's (assignments are written in order).
    expect(await app.orm.em.fork().execute(`select 1 from play_assignments where screen like 'public-viewer-01%'`)).toHaveLength(0);
    await until('listed as the approved screen', async () => (await listed()).some((s) => s.enrolled_id === approved.body.id && s.name === 'Lobby wall, left' && s.group_id === lobby.id));
    expect((await app.request<PairingDto[]>('GET', '/api/screens/pairings')).body.some((p) => p.code === asked.body.code)).toBe(false);
    const activity = (await app.request<{ action: string; subject_name: string | null }[]>('GET', '/api/activity?kind=screen')).body;
    expect(activity.some((a) => a.action === 'screen.approved' && a.subject_name === 'Lobby wall, left')).toBe(true);

    // Renamed: it hears it at once and registers again under its new name.
    await app.request('PUT', '/api/screens/enrolled', { id: approved.body.id, name: 'Lobby wall (left)' });
    await until('renamed on the list', async () => (await listed()).some((s) => s.enrolled_id === approved.body.id && s.name === 'Lobby wall (left)'));

    // A second browser with the same address and no approval gets no programme.
    const other = screens.open(app.baseUrl, { kind: 'wall', name: 'Lobby left', device: 'lobby-left-0001', group: 'lobby' });
    const seen = await other.waitFor((s) => s !== null);
    expect(seen.kind === 'wall' && seen.scene?.id).not.toBe(lobbyScene);
  });

  it('revoked, a screen is refused within seconds, leaves the list, and its credential never works again', async () => {
    const asked = await pair({ kind: 'kiosk', position: 2, device: 'kiosk-two-00001' });
    const kiosk = screens.open(app.baseUrl, { kind: 'kiosk', position: 2, device: 'kiosk-two-00001' }, undefined, { credential: asked.body.credential });
    await until('pairing', () => kiosk.pairing !== null);
    const approved = (await app.request<EnrolledDto>('POST', '/api/screens/pairings/approve', { code: asked.body.code, name: 'Kiosk by the door', kind: 'kiosk', position: 1 })).body;
    // The admin's position, not the address's.
    await kiosk.waitFor((s) => s?.kind === 'kiosk' && s.position === 1);
    await until('listed', async () => (await listed()).some((s) => s.enrolled_id === approved.id));

    const revoked = await app.request<EnrolledDto>('POST', '/api/screens/enrolled/revoke', { id: approved.id });
    expect(revoked.body.revoked_at).not.toBeNull();
    await until('refused', () => kiosk.refusals.length > 0);
    expect(kiosk.refusals[0]).toMatch(/revoked/);
    await until('gone from the list', async () => !(await listed()).some((s) => s.enrolled_id === approved.id));

    const again = screens.open(app.baseUrl, { kind: 'kiosk', position: 2, device: 'kiosk-two-00001' }, undefined, { credential: asked.body.credential });
    await until('refused again', () => again.refusals.length > 0);
    expect(again.state).toBeNull();
    const setting = (await app.request<EnrolmentSettingDto>('GET', '/api/screens/enrolled')).body;
    expect(setting.approval).toBe(true);
    expect(setting.screens.find((s) => s.id === approved.id)).toMatchObject({ revoked_by: expect.any(String) as string });
  });

  it('a forged credential, a guessed code and an expired code each get a sentence and change nothing', async () => {
    const forged = screens.open(app.baseUrl, { kind: 'wall', device: 'forger-wall-001' }, undefined, { credential: 'A'.repeat(43) });
    await until('refused', () => forged.refusals.length > 0);
    expect(forged.refusals[0]).toBe('This screen is not approved on this server; it shows a pairing code');
    const malformed = screens.open(app.baseUrl, { kind: 'wall', device: 'forger-wall-001' }, undefined, { credential: 'short' });
    await until('invalid', () => malformed.errors.length > 0);
    expect(malformed.errors[0]).toMatch(/^Invalid registration: credential:/);

    const guessed = await app.request<{ error: string }>('POST', '/api/screens/pairings/approve', { code: 'ABCDEF', name: 'Guess', kind: 'wall' });
    expect(guessed.status).toBe(404);
    expect(guessed.body.error).toMatch(/No screen is waiting with code ABCDEF/);
    const lookAlike = await app.request<{ error: string }>('POST', '/api/screens/pairings/approve', { code: 'ABCDE0', name: 'Guess', kind: 'wall' });
    expect(lookAlike.status).toBe(400);

    const asked = await pair({ kind: 'wall' }, '203.0.113.8');
    clockOffset = 16 * 60_000;
    const late = await app.request<{ error: string }>('POST', '/api/screens/pairings/approve', { code: asked.body.code, name: 'Late', kind: 'wall' });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/expired; the screen shows a new code/);
    const expired = screens.open(app.baseUrl, { kind: 'wall' }, undefined, { credential: asked.body.credential });
    await until('refused', () => expired.refusals.length > 0);
    expect(expired.refusals[0]).toMatch(/expired/);
    const count = await app.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from enrolled_screens where name = 'Late'`);
    expect(Number(count[0]!.n)).toBe(0);

    const noKioskPosition = await pair({ kind: 'kiosk' }, '203.0.113.9');
    const unplaced = await app.request<{ error: string }>('POST', '/api/screens/pairings/approve', { code: noKioskPosition.body.code, name: 'Kiosk', kind: 'kiosk' });
    expect(unplaced.status).toBe(422);
  });

  it('bounds waiting requests per address and in total, answered 429 with a sentence', async () => {
    await app.orm.em.fork().execute('delete from screen_pairings');
    for (let i = 0; i < PAIRING_WAITING_PER_ADDRESS; i++) expect((await pair({ kind: 'wall' }, '198.51.100.1')).status).toBe(201);
    const over = await pair({ kind: 'wall' }, '198.51.100.1');
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/already waiting for approval/);
    expect(over.headers.get('retry-after')).toBeTruthy();

    const addresses = Math.ceil(PAIRING_WAITING_TOTAL / PAIRING_WAITING_PER_ADDRESS);
    for (let a = 2; a <= addresses; a++) for (let i = 0; i < PAIRING_WAITING_PER_ADDRESS; i++) await pair({ kind: 'wall' }, `198.51.100.${a}`);
    const full = await pair({ kind: 'wall' }, '198.51.101.1');
    expect(full.status).toBe(429);
    expect(full.body.error).toBe(`${PAIRING_WAITING_TOTAL} screens are already waiting for approval; try again in a few minutes`);
    const waiting = await app.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from screen_pairings');
    expect(Number(waiting[0]!.n)).toBe(PAIRING_WAITING_TOTAL);
    await app.orm.em.fork().execute('delete from screen_pairings');
  });

  it('the migration approves screens known before it, which receive their credential when they next connect', async () => {
    const em = app.orm.em.fork();
    await em.execute(`delete from enrolled_screens where source = 'migrated'`);
    const now = new Date().toISOString();
    const before = new Date(Date.now() - 60_000).toISOString();
    // A named wall and a visitor's viewer seen today; a kiosk connected this week; a wall with proof of play.
    await em.execute(
      `insert into screen_sightings (key, socket_id, device, kind, name, position, node, connected_at, last_seen_at, online) values
        ('mig-wall-000001:wall:@default:', 's1', 'mig-wall-000001', 'wall', 'Foyer', null, 'n', ?, ?, false),
        ('mig-viewer-0001:wall:@default:', 's2', 'mig-viewer-0001', 'wall', 'Scene viewer', null, 'n', ?, ?, false)`,
      [now, now, now, now],
    );
    await em.execute(`insert into screen_sessions (screen_key, socket_id, node, started_at, last_seen_at) values ('mig-kiosk-00001:kiosk:@default:4', 's3', 'n', ?, ?)`, [now, now]);
    await em.transactional(async (tx) => {
      // Proof of play was kept as raw records when this migration ran (Migration20261127220000_play_rollups folded them into totals).
      await tx.execute(
        `create temporary table play_records (device text, screen_name text, screen_kind text, stream_name text, position smallint, started_at timestamptz, ended_at timestamptz, playing_ms int) on commit drop`,
      );
      await tx.execute(
        `insert into play_records (device, screen_name, screen_kind, stream_name, position, started_at, ended_at, playing_ms) values ('mig-played-0001', 'Cafe wall', 'wall', 'x', 1, ?, ?, 1000)`,
        [before, now],
      );
      await tx.execute(APPROVE_KNOWN_SCREENS);
    });
    const rows = await em.execute<{ device: string; kind: string; name: string; position: number | null }[]>(
      `select device, kind, name, position from enrolled_screens where source = 'migrated' order by device`,
    );
    expect(rows).toEqual([
      { device: 'mig-kiosk-00001', kind: 'kiosk', name: 'Kiosk 4', position: 4 },
      { device: 'mig-played-0001', kind: 'wall', name: 'Cafe wall', position: null },
      { device: 'mig-wall-000001', kind: 'wall', name: 'Foyer', position: null },
    ]);

    // The upgraded server starts after its migration, as in production (a node reads once that claims are left).
    const upgraded = await startTestApp({ hub: true, database: app.db, settings: { screens: { approval: true } } });
    try {
      const foyer = screens.open(upgraded.baseUrl, { kind: 'wall', name: 'Foyer', device: 'mig-wall-000001' });
      await foyer.waitFor((s) => s !== null);
      expect(foyer.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await until('listed as approved', async () => (await upgraded.request<ScreenListItem[]>('GET', '/api/screens')).body.some((s) => s.device === 'mig-wall-000001' && s.enrolled_id !== null));
      // Claimed once: the same device id without the credential is a public viewer from now on.
      const copy = screens.open(upgraded.baseUrl, { kind: 'wall', name: 'Foyer', device: 'mig-wall-000001' });
      await copy.waitFor((s) => s !== null);
      expect(copy.credential).toBeNull();
      const enrolled = (await app.request<EnrolmentSettingDto>('GET', '/api/screens/enrolled')).body.screens;
      expect(enrolled.find((s) => s.device === 'mig-wall-000001')).toMatchObject({ source: 'migrated', has_credential: true });
      expect(enrolled.find((s) => s.device === 'mig-kiosk-00001')).toMatchObject({ has_credential: false });
    } finally {
      screens.closeAll();
      await upgraded.close();
    }
  });

  it('with approval off, pairing is refused with a sentence (every address is a screen already)', async () => {
    const open = await startTestApp({ database: app.db });
    try {
      const res = await open.anonymous<{ error: string }>('POST', '/api/screens/pairings', { kind: 'wall' });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/approval is off/);
    } finally {
      await open.close();
    }
  });
});

describe('enrolment across nodes', () => {
  it('a screen revoked through one node is refused on the other within seconds, though that node had it in memory', async () => {
    const a = await startTestApp({ hub: { cluster: true }, settings: { screens: { approval: true } } });
    const b = await startTestApp({ hub: { cluster: true }, database: a.db, settings: { screens: { approval: true } } });
    try {
      const asked = (await a.anonymous<PairingAnswer>('POST', '/api/screens/pairings', { kind: 'wall', device: 'two-nodes-wall-1' })).body;
      const approved = (await a.request<EnrolledDto>('POST', '/api/screens/pairings/approve', { code: asked.code, name: 'Two-node wall', kind: 'wall' })).body;
      // On node B, registered twice: the second answer comes from what B remembers of the credential.
      const first = screens.open(b.baseUrl, { kind: 'wall', device: 'two-nodes-wall-1' }, undefined, { credential: asked.credential });
      await first.waitFor((s) => s !== null);
      first.close();
      const wall = screens.open(b.baseUrl, { kind: 'wall', device: 'two-nodes-wall-1' }, undefined, { credential: asked.credential });
      await wall.waitFor((s) => s !== null);

      await a.request('POST', '/api/screens/enrolled/revoke', { id: approved.id });
      await until('refused on node B', () => wall.refusals.length > 0, 10_000);
      const late = screens.open(b.baseUrl, { kind: 'wall', device: 'two-nodes-wall-1' }, undefined, { credential: asked.credential });
      await until('a new connection to node B is refused too', () => late.refusals.length > 0);
      expect(late.state).toBeNull();
    } finally {
      screens.closeAll();
      await b.close();
      await a.close();
    }
  });
});

describe("a screen's health reports", () => {
  it("start an urgent check only from an approved screen, never from a visitor's browser", async () => {
    const quality = { concurrency: 2, reanalyzeHours: 6, recheckSeconds: 600, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 2, sweepCron: null };
    // Nobody works the queue: what a report queues is read straight off it.
    const node = await startTestApp({ hub: true, jobs: { enabled: false }, settings: { quality, screens: { approval: true } } });
    try {
      const em = node.orm.em.fork();
      const stream = await buildStream(em, { name: 'Reported failing', url: 'https://b.example.org/failing.m3u8' });
      const health = (screen: TestScreen) => new Promise<unknown>((resolve) => screen.client.socket.emit('screen:health', { streams: [{ stream_id: stream.id, state: 'error' }] } as never, resolve as never));
      const queued = async () => (await node.queue!.fetch<QueueData>(QUALITY_QUEUE)).map((job) => job.data);

      const visitor = screens.open(node.baseUrl, { kind: 'wall', device: 'visitor-browser-1' });
      await visitor.waitFor((s) => s !== null);
      expect(await health(visitor)).toEqual({ data: { ok: true } });
      await new Promise((r) => setTimeout(r, 300));
      expect(await queued()).toEqual([]);

      const asked = (await node.anonymous<PairingAnswer>('POST', '/api/screens/pairings', { kind: 'wall' })).body;
      await node.request('POST', '/api/screens/pairings/approve', { code: asked.code, name: 'Approved wall', kind: 'wall' });
      const wall = screens.open(node.baseUrl, { kind: 'wall' }, undefined, { credential: asked.credential });
      await wall.waitFor((s) => s !== null);
      expect(await health(wall)).toEqual({ data: { ok: true } });
      await until('a check queued', async () => (await node.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from pgboss.job where name = ?`, [QUALITY_QUEUE]))[0]!.n !== '0');
      expect(await queued()).toEqual([expect.objectContaining({ streamId: stream.id, trigger: 'screens' })]);
    } finally {
      screens.closeAll();
      await node.close();
    }
  });
});

