/**
 * Screens that never go dark (issue 34): a wall and a kiosk that reload while their server is
 * away start from the service worker's cached shell and their last state, play what they can
 * reach (the cameras' own media server stays up), say quietly that they are reconnecting, and
 * when the server is back re-register and follow the next default-scene switch by themselves —
 * also when the server came back with another build, which they end on.
 *
 * Its own Nature Wall process (the shared one must stay up for the other specs), stopped and
 * started on the same port and database. Service workers are allowed here only (see the config).
 * "Another build" is the real build with its id changed (build.json, the page's meta, and the
 * worker's precache entry for the page, so the worker itself is a new one): a page.route fake
 * would never reach a page a service worker serves.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { apiClient } from './support/api.ts';
import { freePort, ROOT, startNatureWall, type NatureWallProcess } from './support/server.ts';
import { videoTime } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';
import type { PlaysDto } from '../../src/shared/api/index.ts';

const TOKEN = 'offline-spec-admin-token-0123456789';
const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const MEDIA = process.env.NW_MEDIA_URL ?? '';

test.use({ serviceWorkers: 'allow' });

/** The same build under another id: what a deploy while the screens were away looks like to them. */
async function anotherBuild(into: string): Promise<string> {
  const dist = path.join(ROOT, 'dist/web');
  await cp(dist, into, { recursive: true });
  const { id } = JSON.parse(await readFile(path.join(dist, 'build.json'), 'utf8')) as { id: string };
  const next = `${id.slice(0, 8)}deployed`;
  await writeFile(path.join(into, 'build.json'), `${JSON.stringify({ id: next })}\n`);
  const html = (await readFile(path.join(dist, 'index.html'), 'utf8')).replace(`content="${id}"`, `content="${next}"`);
  await writeFile(path.join(into, 'index.html'), html);
  await rm(path.join(into, 'index.html.br'), { force: true });
  await rm(path.join(into, 'index.html.gz'), { force: true });
  // The worker lists the page with its revision: a changed page makes a changed worker, as a real build does.
  const sw = await readFile(path.join(dist, 'sw.js'), 'utf8');
  const revision = createHash('md5').update(html).digest('hex');
  const changed = sw.replace(/\{"revision":"[0-9a-f]+","url":"index\.html"\}/, `{"revision":"${revision}","url":"index.html"}`);
  expect(changed).not.toBe(sw);
  await writeFile(path.join(into, 'sw.js'), changed);
  await rm(path.join(into, 'sw.js.br'), { force: true });
  await rm(path.join(into, 'sw.js.gz'), { force: true });
  return next;
}

const pageBuild = (page: Page) => page.locator('meta[name="nw-build"]').getAttribute('content');
const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

/** The page's video is playing: its time moves. */
async function plays(page: Page): Promise<void> {
  const start = await videoTime(page);
  await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(start + 0.5);
}

test('a wall and a kiosk start without their server, and come back to it by themselves, on its new build', async ({ browser }) => {
  test.setTimeout(240_000);
  expect(MEDIA).not.toBe('');
  const port = String(await freePort());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-offline-data-'));
  const newDist = await mkdtemp(path.join(os.tmpdir(), 'nw-offline-dist-'));
  const env = { PORT: port, DATA_DIR: dataDir, ADMIN_API_TOKEN: TOKEN, ADMIN_PASSWORD: 'some-test-password', QUALITY_SWEEP_CRON: 'off', QUALITY_RECHECK_SECONDS: '3600', RANKED_RECHECK_MINUTES: '0' };
  let server: NatureWallProcess | null = await startNatureWall(env);
  const api = apiClient(server.base, TOKEN);
  const context = await browser.newContext({ baseURL: server.base, serviceWorkers: 'allow', viewport: { width: 1440, height: 900 } });
  try {
    const live = await api.createStream({ name: 'Harbour Seals Live', url: `${MEDIA}/live/index.m3u8`, category: 'wildlife', recording_ok: true });
    const clip = await api.createStream({ name: 'Canyon Rim', url: `${MEDIA}/dusk.mp4?cam=canyon`, category: 'nature' });
    const harbour = await api.createScene({ name: 'Harbour at Dawn', layout_type: 'grid', selection_algorithm: 'manual', max_streams: 5, stream_ids: [live.id, clip.id] });
    const canyon = await api.createScene({ name: 'Canyon Evening', layout_type: 'grid', selection_algorithm: 'manual', max_streams: 5, stream_ids: [clip.id, live.id] });
    await api.setDefaultScene(harbour.id);

    const wall = await context.newPage();
    const kiosk = await context.newPage();
    // Installed as a screen (its address names it): it keeps proof of play, as the kiosk does.
    await wall.goto('/?name=Visitor%20centre%20wall');
    await kiosk.goto('/streams/1');
    const heading = wall.getByRole('heading', { level: 1 });
    const kioskName = kiosk.locator('.kiosk__name');
    await expect(heading).toHaveText(harbour.name);
    await expect(kioskName).toHaveText(live.name);
    // The worker installs after the first picture and takes the pages over.
    await expect.poll(() => controlled(wall), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => controlled(kiosk), { timeout: 30_000 }).toBe(true);
    const firstBuild = await pageBuild(wall);

    // The server goes away; both screens restart (a reboot, a browser crash).
    await server.stop();
    server = null;
    const started = Date.now();
    // What a visitor sees is asserted below; a page's `load` may wait on a request to the server that is gone.
    await Promise.all([wall.reload({ waitUntil: 'commit' }), kiosk.reload({ waitUntil: 'commit' })]);
    await expect(heading).toHaveText(harbour.name);
    const shownAfter = Date.now() - started;
    await expect(wall.locator('.stream-card')).toHaveCount(2);
    await expect(kioskName).toHaveText(live.name);
    await expect(wall.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible();
    await expect(kiosk.getByRole('status').filter({ hasText: 'Reconnecting' })).toBeVisible();
    await plays(wall);
    await plays(kiosk);
    await wall.screenshot({ path: path.join(ARTIFACTS, 'offline-wall-1440.png') });
    await kiosk.setViewportSize({ width: 820, height: 1180 });
    await kiosk.screenshot({ path: path.join(ARTIFACTS, 'offline-kiosk-tablet.png') });
    console.log(`offline start: last scene shown ${shownAfter} ms after the reload began (server away)`);

    // The server is back (same address, same database): both re-register and follow the next switch.
    server = await startNatureWall(env);
    await expect(wall.getByRole('status').filter({ hasText: 'Reconnecting' })).toHaveCount(0, { timeout: 30_000 });
    await expect(kiosk.getByRole('status').filter({ hasText: 'Reconnecting' })).toHaveCount(0, { timeout: 30_000 });
    await api.setDefaultScene(canyon.id);
    await expect(heading).toHaveText(canyon.name);
    await expect(kioskName).toHaveText(clip.name);

    // Away again, and back with another build: the next flip brings both onto it.
    await server.stop();
    server = null;
    const deployed = await anotherBuild(newDist);
    expect(deployed).not.toBe(firstBuild);
    server = await startNatureWall({ ...env, WEB_DIST: newDist });
    const deployedAt = Date.now();
    await expect(wall.getByRole('status').filter({ hasText: 'Reconnecting' })).toHaveCount(0, { timeout: 30_000 });
    await api.setDefaultScene(harbour.id);
    await expect.poll(() => pageBuild(wall), { timeout: 30_000 }).toBe(deployed);
    await expect.poll(() => pageBuild(kiosk), { timeout: 30_000 }).toBe(deployed);
    await expect(heading).toHaveText(harbour.name);
    await expect(kioskName).toHaveText(live.name);

    // Proof of play: both screens reported what they showed (what they showed while the server was
    // away included: it was kept in their storage and sent when they re-registered).
    const screensReported = async () => (await api.request<PlaysDto>('GET', '/plays?group=screen')).rows.map((r) => r.label).sort();
    await expect.poll(screensReported, { timeout: 45_000 }).toEqual(['Kiosk 1', 'Visitor centre wall']);
    const byStream = await api.request<PlaysDto>('GET', '/plays?group=stream');
    expect(byStream.rows.find((r) => r.label === live.name)).toMatchObject({ screens: 2, seconds: expect.any(Number) });
    const admin = await context.newPage();
    await signIn(admin, '/admin/plays');
    await expect(admin.getByRole('heading', { name: 'Proof of play' })).toBeVisible();
    // The totals are the first table; the second lists what was not counted (it may name the same screen).
    const totalsTable = admin.getByRole('table').first();
    await expect(totalsTable.getByRole('cell', { name: live.name })).toBeVisible();
    await admin.screenshot({ path: path.join(ARTIFACTS, 'plays-tab-1440.png') });
    await admin.getByLabel('By').selectOption('screen');
    await expect(totalsTable.getByRole('cell', { name: 'Visitor centre wall' })).toBeVisible();
    await admin.setViewportSize({ width: 820, height: 1180 });
    await admin.screenshot({ path: path.join(ARTIFACTS, 'plays-tab-tablet.png') });
    const csv = await admin.request.get('/api/plays/export.csv');
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    expect(await csv.text()).toContain(live.name);
    await admin.close();

    // The deploy's new worker takes over (issue 41): the worker kept is the new build's, so a
    // restart without the server right after the deploy starts on the new build too.
    // Which build the cached shell is (each index.html the worker keeps), and whether a worker still waits.
    const shell = () =>
      wall.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const builds: (string | null)[] = [];
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            if (new URL(request.url).pathname !== '/index.html') continue;
            const html = (await (await cache.match(request))?.text()) ?? '';
            builds.push(/<meta name="nw-build" content="([^"]+)"/.exec(html)?.[1] ?? null);
          }
        }
        return { builds, active: registration?.active?.state ?? null, waiting: registration?.waiting !== null, installing: registration?.installing !== null };
      });
    await expect.poll(shell, { timeout: 30_000 }).toEqual({ builds: [deployed], active: 'activated', waiting: false, installing: false });
    console.log(`deploy: the new build's worker active and its shell cached ${Date.now() - deployedAt} ms after the deploy's server started`);
    // The camera's HLS never passed through the worker: the browser's static route sent it to the network.
    const mediaRoutes = await kiosk.evaluate((media) => {
      const entries = performance.getEntriesByType('resource') as (PerformanceResourceTiming & { workerMatchedSourceType?: string })[];
      return entries.filter((e) => e.name.startsWith(media)).map((e) => e.workerMatchedSourceType ?? 'unreported');
    }, MEDIA);
    // Each went to the network by the route; none was handed to the fetch handler. ('' is a request
    // made while no worker had the page — once in a few runs, one made as the new worker took over.)
    expect(mediaRoutes).toContain('network');
    expect(mediaRoutes.filter((source) => source !== 'network' && source !== '')).toEqual([]);
    await server.stop();
    server = null;
    // The wall restarts as a fresh page (the window a browser crash leaves): the worker it finds is the new build's.
    await wall.close();
    const restarted = await context.newPage();
    await restarted.goto('/?name=Visitor%20centre%20wall', { waitUntil: 'commit' });
    await expect(restarted.getByRole('heading', { level: 1 })).toHaveText(harbour.name);
    expect(await pageBuild(restarted)).toBe(deployed);
  } finally {
    await context.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(newDist, { recursive: true, force: true });
  }
});

test('a console page without its server says so plainly, and is back when the server is', async ({ browser }) => {
  test.setTimeout(120_000);
  const port = String(await freePort());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-offline-data-'));
  const env = { PORT: port, DATA_DIR: dataDir, ADMIN_API_TOKEN: TOKEN, QUALITY_SWEEP_CRON: 'off', RANKED_RECHECK_MINUTES: '0' };
  let server: NatureWallProcess | null = await startNatureWall(env);
  const context = await browser.newContext({ baseURL: server.base, serviceWorkers: 'allow', viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto('/submit');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // No picture on this page: the worker installs after its wait (INSTALL_AFTER_MS).
    await expect.poll(() => controlled(page), { timeout: 40_000 }).toBe(true);
    await server.stop();
    server = null;
    await page.reload({ waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The server cannot be reached');
    await page.screenshot({ path: path.join(ARTIFACTS, 'offline-console-1440.png') });
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'offline-console-tablet.png') });
    server = await startNatureWall(env);
    await page.getByRole('button', { name: 'Try now' }).click();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('The server cannot be reached', { timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/submit');
  } finally {
    await context.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
