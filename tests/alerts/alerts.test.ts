/**
 * Alerts end to end on real parts: a real hub with real walls over Socket.IO, the PostgreSQL job
 * queue, and webhook receivers on 127.0.0.1 (allow-listed for the safe fetcher, as fixtures are).
 * The watch runs when the test says (`check()`), on a clock the test moves (`advance()`): a grace
 * period passes in one step, not in a sleep. The clock starts an hour behind the real one because
 * the hub stamps a screen's last sighting on the real clock: a sighting is then never older to
 * the watch than it really is, and a screen's offline time counts from the check that first sees
 * it offline (stepIncident starts an incident at the earlier of its `since` and now). That something
 * did NOT happen is read once every message filed has been tried (`settled()`), not after a sleep.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertDelivery, AlertIncident } from '../../src/modules/alerts/alerts.entity.ts';
import { DELIVERY_QUEUE } from '../../src/modules/alerts/alerts.jobs.ts';
import { verifySignature, SIGNATURE_HEADER, TIMESTAMP_HEADER, type AlertMessage } from '../../src/modules/alerts/payloads.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import type { AlertRuleDto, AlertsOverviewDto, CreatedDestinationDto, DeliveryDto, ScreenPresence } from '../../src/shared/api/index.ts';
import type { WallState } from '../../src/shared/events.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';
import { serveCorpus, type CorpusServer } from '../support/quality-corpus.ts';
import { openScreen, screenPool } from '../support/screens.ts';
import { alertsModule } from '../../src/modules/alerts/alerts.module.ts';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver: records every request; `/fail` answers 500, everything else 204. */
async function receiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (req.url === '/fail') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver is down for maintenance');
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The watch's clock (see the file's comment); tests move it with `advance`. */
let clock = Date.now() - 3_600_000;
const advance = (ms: number) => {
  clock += ms;
};

let app: TestApp;
let hooks: Awaited<ReturnType<typeof receiver>>;
let corpus: CorpusServer;
const pool = screenPool();

beforeAll(async () => {
  hooks = await receiver();
  corpus = await serveCorpus();
  app = await startTestApp({
    hub: true,
    jobs: true,
    appOptions: { fetchAllowHosts: ['127.0.0.1'], now: () => clock },
    settings: {
      discovery: { concurrency: 1 },
      // The watch is stepped by the tests (the timer's period is the longest allowed).
      alerts: { checkSeconds: 300, attempts: 3, retryDelaySeconds: 1, retryDelayMaxSeconds: 4 },
      quality: { concurrency: 1, reanalyzeHours: 6, recheckSeconds: 1, tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' }, sampleSeconds: 2, sweepCron: null },
    },
  });
}, 120_000);

afterEach(pool.closeAll);

afterAll(async () => {
  await app?.close();
  await hooks?.close();
  await corpus?.close();
});

const check = () => app.app.use(alertsModule)!.check();
const overview = async () => (await app.request<AlertsOverviewDto>('GET', '/api/alerts')).body;
const ruleOf = async (kind: AlertRuleDto['kind']) => (await overview()).rules.find((r) => r.kind === kind && r.group_id === null)!;
const presence = async (device: string) => (await app.request<ScreenPresence[]>('GET', '/api/screens?include_offline=true')).body.find((s) => s.device === device);
const messages = (path = '/hook') => hooks.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as { type: string; alert: AlertMessage });
/**
 * Every delivery filed so far has been tried to the end (a row leaves `pending` only after its
 * receiver answered): what the checks before this filed has reached the receivers.
 */
const settled = () => until(() => app.orm.em.fork().count(AlertDelivery, { state: 'pending' }), (n) => n === 0, 'every filed message to be tried');

describe('alert rules and destinations', () => {
  it('refuses a webhook on a private or local address by the safe fetcher rules, and bad input, with a reason', async () => {
    for (const url of ['http://10.1.2.3/hook', 'http://192.168.0.10/hook', 'http://localhost:9000/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest']) {
      const res = await app.request<{ error: string }>('POST', '/api/alerts/destinations', { name: 'Private', kind: 'webhook', url });
      expect(res.status, url).toBe(422);
      expect(res.body.error).toMatch(/public http\(s\) addresses/);
    }
    const badKind = await app.request<{ error: string }>('POST', '/api/alerts/destinations', { name: 'X', kind: 'pager', url: 'https://example.org/x' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error).toMatch(/Kind must be one of webhook, slack, discord/);
    const ftp = await app.request<{ error: string }>('POST', '/api/alerts/destinations', { name: 'X', kind: 'webhook', url: 'ftp://example.org/x' });
    expect(ftp.status).toBe(400);
    const rule = await ruleOf('screen_offline');
    const negative = await app.request<{ error: string }>('PUT', '/api/alerts/rules', { id: rule.id, for_seconds: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.error).toMatch(/for_seconds: Must not be negative/);
    const threshold = await app.request<{ error: string }>('PUT', '/api/alerts/rules', { id: rule.id, threshold: 20 });
    expect(threshold.status).toBe(400);
    expect(threshold.body.error).toMatch(/only the analysis-failure rule/);
    expect((await app.anonymous('GET', '/api/alerts')).status).toBe(401);
    const missing = await app.request<{ error: string }>('DELETE', '/api/alerts/destinations', { id: 999_999 });
    expect(missing.status).toBe(404);
    expect((await app.request('GET', '/api/alerts')).status).toBe(200);
  });
});

describe('a wall that goes away', () => {
  let secret: string;

  beforeAll(async () => {
    const created = await app.request<CreatedDestinationDto>('POST', '/api/alerts/destinations', { name: 'Ops hook', kind: 'webhook', url: `${hooks.url}/hook` });
    expect(created.status).toBe(201);
    expect(created.body.signed).toBe(true);
    secret = created.body.secret!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const rule = await ruleOf('screen_offline');
    const tuned = await app.request<AlertRuleDto>('PUT', '/api/alerts/rules', { id: rule.id, for_seconds: 2, hold_seconds: 1 });
    expect(tuned.body).toMatchObject({ for_seconds: 2, hold_seconds: 1, enabled: true });
  });

  it('sends exactly one signed alert past the threshold, and exactly one recovery when it is back', async () => {
    const device = 'alert-wall-0001';
    const wall = pool.open(app.baseUrl, { kind: 'wall', device, name: 'Lobby wall' });
    await wall.waitFor((s) => s !== null);
    await check();
    wall.close();
    await until(() => presence(device), (p) => p?.online === false, 'the wall to be seen offline');

    await check(); // pending: within the grace period, nobody is told
    await settled();
    expect(messages()).toHaveLength(0);
    expect((await overview()).open.map((i) => i.state)).toEqual(['pending']);
    advance(2_100);
    await check();
    await until(() => messages().length, (n) => n === 1, 'the alert to arrive');
    await check();
    await check();

    const [fired] = hooks.received.filter((r) => r.path === '/hook');
    expect(JSON.parse(fired!.body)).toMatchObject({ type: 'alert.fired', alert: { event: 'fired', kind: 'screen_offline', title: 'Screen "Lobby wall" is offline' } });
    expect(fired!.headers[SIGNATURE_HEADER]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(secret, String(fired!.headers[TIMESTAMP_HEADER]), fired!.body, String(fired!.headers[SIGNATURE_HEADER]))).toBe(true);
    expect(verifySignature('another secret', String(fired!.headers[TIMESTAMP_HEADER]), fired!.body, String(fired!.headers[SIGNATURE_HEADER]))).toBe(false);
    expect(verifySignature(secret, String(fired!.headers[TIMESTAMP_HEADER]), fired!.body.replace('Lobby', 'Lobbx'), String(fired!.headers[SIGNATURE_HEADER]))).toBe(false);
    const open = (await overview()).open;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ state: 'open', kind: 'screen_offline' });

    pool.open(app.baseUrl, { kind: 'wall', device, name: 'Lobby wall' }); // back (closed after the test)
    await until(() => presence(device), (p) => p?.online === true, 'the wall to be back');
    await check(); // clearing: held for hold_seconds before it counts as recovered
    await settled();
    expect(messages()).toHaveLength(1);
    advance(1_100);
    await check();
    await until(() => messages().length, (n) => n === 2, 'the recovery to arrive');
    await check();
    await settled();
    const all = messages();
    expect(all.map((m) => m.type)).toEqual(['alert.fired', 'alert.recovered']);
    expect(all[1]!.alert.incident_id).toBe(all[0]!.alert.incident_id);
    const after = await overview();
    expect(after.open).toHaveLength(0);
    expect(after.recent[0]).toMatchObject({ kind: 'screen_offline', state: 'resolved' });
    expect(after.deliveries.filter((d) => d.state === 'sent').map((d) => d.event).sort()).toEqual(['fired', 'recovered']);
  }, 60_000);

  it('says nothing about a 1 s blip under a 2 s grace period', async () => {
    const device = 'alert-wall-0002';
    const wall = pool.open(app.baseUrl, { kind: 'wall', device, name: 'Blip wall' });
    await wall.waitFor((s) => s !== null);
    // The lobby wall, closed after the last test, is offline for real: its alert goes out first,
    // so that the count below hears only about this wall.
    await check();
    advance(2_100);
    await check();
    await settled();
    const before = hooks.received.length;
    wall.close();
    await until(() => presence(device), (p) => p?.online === false, 'the wall to be seen offline');
    await check();
    expect((await overview()).open.filter((i) => i.title.includes('Blip wall')).map((i) => i.state)).toEqual(['pending']);
    advance(1_000);
    pool.open(app.baseUrl, { kind: 'wall', device, name: 'Blip wall' });
    await until(() => presence(device), (p) => p?.online === true, 'the wall to be back');
    await check();
    advance(2_100);
    await check();
    await settled();
    expect(hooks.received.length).toBe(before);
    const rows = await app.orm.em.fork().find(AlertIncident, { title: { $like: '%Blip wall%' } });
    expect(rows).toHaveLength(0);
  }, 30_000);

  it('holds a flapping screen open instead of firing again', async () => {
    const device = 'alert-wall-0003';
    let wall = pool.open(app.baseUrl, { kind: 'wall', device, name: 'Flappy wall' });
    await wall.waitFor((s) => s !== null);
    const rule = await ruleOf('screen_offline');
    await app.request('PUT', '/api/alerts/rules', { id: rule.id, hold_seconds: 30 });
    const sent = () => messages().filter((m) => m.alert.title.includes('Flappy wall'));
    wall.close();
    await until(() => presence(device), (p) => p?.online === false, 'offline');
    await check();
    advance(2_100);
    await check();
    await until(() => sent().length, (n) => n === 1, 'the alert');
    for (let i = 0; i < 2; i++) {
      wall = pool.open(app.baseUrl, { kind: 'wall', device, name: 'Flappy wall' });
      await until(() => presence(device), (p) => p?.online === true, 'online');
      await check();
      wall.close();
      await until(() => presence(device), (p) => p?.online === false, 'offline');
      advance(2_100);
      await check();
    }
    await settled();
    expect(sent().map((m) => m.type)).toEqual(['alert.fired']);
    const flappy = (await overview()).open.filter((i) => i.title.includes('Flappy wall'));
    expect(flappy).toHaveLength(1);
    expect(flappy[0]!.state).toBe('open');
    await app.request('PUT', '/api/alerts/rules', { id: rule.id, hold_seconds: 1 });
  }, 60_000);

  it('opens an incident for each of several walls gone in one step, each message naming its own', async () => {
    const rule = await ruleOf('screen_offline');
    await app.request('PUT', '/api/alerts/rules', { id: rule.id, for_seconds: 0 }); // fired in the step that opens them
    const names = ['Trio wall A', 'Trio wall B', 'Trio wall C'];
    const devices = names.map((_, i) => `alert-trio-000${i}`);
    const walls = names.map((name, i) => pool.open(app.baseUrl, { kind: 'wall', device: devices[i], name }));
    await Promise.all(walls.map((w) => w.waitFor((s) => s !== null)));
    await check();
    walls.forEach((w) => w.close());
    for (const device of devices) await until(() => presence(device), (p) => p?.online === false, `${device} to be seen offline`);
    await check();
    await settled();
    const sent = messages().filter((m) => m.alert.title.includes('Trio wall'));
    expect(sent.map((m) => m.alert.title).sort()).toEqual(names.map((n) => `Screen "${n}" is offline`));
    // Opened together (one insert): each message carries its own incident's id.
    const incidents = await app.orm.em.fork().find(AlertIncident, { title: { $like: '%Trio wall%' } });
    expect(new Map(sent.map((m) => [m.alert.incident_id, m.alert.title]))).toEqual(new Map(incidents.map((i) => [i.id, i.title])));
    await app.request('PUT', '/api/alerts/rules', { id: rule.id, for_seconds: 2 });
  }, 60_000);

  it('closes a live incident without a message when its rule is turned off, and leaves the others as they were', async () => {
    const rule = await ruleOf('screen_offline');
    const device = 'alert-wall-0005';
    const wall = pool.open(app.baseUrl, { kind: 'wall', device, name: 'Ruleless wall' });
    await wall.waitFor((s) => s !== null);
    await check();
    wall.close();
    await until(() => presence(device), (p) => p?.online === false, 'the wall to be seen offline');
    await check();
    await settled();
    const ours = async () => app.orm.em.fork().find(AlertIncident, { title: { $like: '%Ruleless wall%' } });
    expect((await ours()).map((i) => i.phase)).toEqual(['pending']);
    const others = await app.orm.em.fork().find(AlertIncident, { kind: { $ne: 'screen_offline' }, phase: { $ne: 'resolved' } });
    const before = messages().length;

    expect((await app.request('PUT', '/api/alerts/rules', { id: rule.id, enabled: false })).status).toBe(200);
    await check();
    await settled();
    const [closed] = await ours();
    expect(closed).toMatchObject({ phase: 'resolved', detail: expect.stringMatching(/Closed: its rule was turned off\.$/) });
    expect(closed!.resolvedAt).not.toBeNull();
    expect(messages()).toHaveLength(before);
    // Incidents of other rules did not move.
    const after = await app.orm.em.fork().find(AlertIncident, { id: { $in: others.map((i) => i.id) } });
    expect(after.map((i) => [i.id, i.phase])).toEqual(expect.arrayContaining(others.map((i) => [i.id, i.phase])));
    expect(after).toHaveLength(others.length);
    expect((await app.request('PUT', '/api/alerts/rules', { id: rule.id, enabled: true })).status).toBe(200);
  }, 60_000);

  it('retries a receiver that answers 500 with backoff, then marks the delivery failed with its answer', async () => {
    const failing = await app.request<CreatedDestinationDto>('POST', '/api/alerts/destinations', { name: 'Broken hook', kind: 'webhook', url: `${hooks.url}/fail` });
    const queued = await app.request<DeliveryDto>('POST', '/api/alerts/destinations/test', { id: failing.body.id });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ state: 'pending', event: 'test', destination_name: 'Broken hook' });
    const done = await until(
      async () => (await overview()).deliveries.find((d) => d.id === queued.body.id),
      (d) => d?.state === 'failed',
      'the delivery to be given up',
      30_000,
    );
    expect(done).toMatchObject({ attempts: 3, status_code: 500, answer: 'receiver is down for maintenance' });
    const tries = hooks.received.filter((r) => r.path === '/fail');
    expect(tries).toHaveLength(3);
    // Backoff: each retry waited at least the first delay (1 s).
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(900);
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(900);
    const queue = await app.queue!.getQueue(DELIVERY_QUEUE);
    expect(queue).toMatchObject({ retryBackoff: true, retryLimit: 3 });
    // The same test message to the working hook is sent once.
    const hook = (await overview()).destinations.find((d) => d.name === 'Ops hook')!;
    const ok = await app.request<DeliveryDto>('POST', '/api/alerts/destinations/test', { id: hook.id });
    await until(async () => (await overview()).deliveries.find((d) => d.id === ok.body.id)?.state, (s) => s === 'sent', 'the test message');
    await app.request('DELETE', '/api/alerts/destinations', { id: failing.body.id });
  }, 60_000);
});

describe('a stream on the default scene that dies with nothing to replace it', () => {
  it('fires one alert', async () => {
    const em = app.orm.em.fork();
    await em.nativeUpdate(Stream, {}, { active: false });
    const stream = await buildStream(em, { name: 'Lonely falls', url: corpus.live('clean360') });
    const scene = await buildScene(em, { name: 'Lonely wall', selectionAlgorithm: 'recent', maxStreams: 1 });
    expect((await app.request('PUT', '/api/config/default-scene', { scene_id: scene.id })).status).toBe(200);
    const rule = await ruleOf('stream_unhealthy');
    await app.request('PUT', '/api/alerts/rules', { id: rule.id, for_seconds: 0 });
    const wall = pool.open(app.baseUrl, { kind: 'wall', device: 'alert-wall-0004' });
    await wall.waitFor((s) => (s as WallState | null)?.streams?.[0]?.id === stream.id);
    await check();
    await settled();
    const before = messages().length;

    corpus.setDown('clean360', true);
    wall.client.socket.emit('screen:health', { streams: [{ stream_id: stream.id, state: 'error' }] });
    await until(async () => (await app.orm.em.fork().findOneOrFail(Stream, { id: stream.id })).health, (h) => h === 'offline', 'the stream to be offline', 45_000);
    // Nothing could replace it: it is still on the wall.
    expect((wall.state as WallState).streams.map((s) => s.id)).toEqual([stream.id]);
    await check();
    await until(() => messages().length, (n) => n === before + 1, 'the stream alert');
    await check();
    await settled();
    const [alert] = messages().slice(before);
    expect(alert).toMatchObject({ type: 'alert.fired', alert: { kind: 'stream_unhealthy', subject: `stream:${stream.id}`, title: 'Stream "Lonely falls" is offline on a wall' } });
    expect(messages()).toHaveLength(before + 1);
    expect(await app.orm.em.fork().count(AlertDelivery, { event: 'fired', destinationName: 'Ops hook', message: { subject: `stream:${stream.id}` } })).toBe(1);
    corpus.setDown('clean360', false);
  }, 90_000);
});

describe('the admin console', () => {
  it('gets the overview pushed live when incidents and deliveries change', async () => {
    const admin = openScreen(app.baseUrl, { kind: 'admin' }, adminHeaders);
    const pushed: AlertsOverviewDto[] = [];
    admin.client.socket.on('alerts:updated', (payload: AlertsOverviewDto) => pushed.push(payload));
    await admin.waitFor((s) => s !== null);
    const hook = (await overview()).destinations.find((d) => d.name === 'Ops hook')!;
    await app.request('PUT', '/api/alerts/destinations', { id: hook.id, name: 'Ops hook (night)' });
    await until(() => pushed.at(-1)?.destinations.find((d) => d.id === hook.id)?.name, (n) => n === 'Ops hook (night)', 'the push');
    admin.close();
  });

  it('counts open incidents in the metrics', async () => {
    const em = app.orm.em.fork();
    const open = await em.count(AlertIncident, { phase: { $in: ['open', 'clearing'] } });
    const { openIncidents } = await import('../../src/modules/alerts/alerts.presenter.ts');
    const byKind = await openIncidents(em);
    expect(byKind.reduce((n, r) => n + r.value, 0)).toBe(open);
    expect(open).toBeGreaterThan(0);
  });
});
