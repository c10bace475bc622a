/** Screens follow the scene controller: default-scene switches and stream edits arrive live. */
import path from 'node:path';
import { signIn } from './support/admin.ts';
import { expect, markWindow, shownCardNames, test, windowMarker, world } from './support/fixtures.ts';

const { scenes, streams } = world;

test('two viewers and a kiosk switch with the default scene, without a reload', async ({ context, api }) => {
  const viewers = [await context.newPage(), await context.newPage()];
  const kiosk = await context.newPage();
  for (const viewer of viewers) await viewer.goto('/');
  await kiosk.goto('/streams/2');
  for (const viewer of viewers) await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  for (const page of [...viewers, kiosk]) await markWindow(page);

  await api.setDefaultScene(scenes.ocean.id);

  for (const viewer of viewers) {
    await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(scenes.ocean.name);
    await expect.poll(() => shownCardNames(viewer)).toEqual([streams.lava.name, streams.reef.name, streams.kelp.name, streams.dusk.name, streams.falls.name]);
  }
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(streams.reef.name);
  for (const page of [...viewers, kiosk]) expect(await windowMarker(page)).toBe('kept');

  // And back: still the same documents.
  await api.setDefaultScene(scenes.morning.id);
  for (const viewer of viewers) await expect(viewer.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  for (const page of [...viewers, kiosk]) expect(await windowMarker(page)).toBe('kept');
});

test('editing the stream at position 2 updates the kiosk in place', async ({ page, api, baseURL }) => {
  await page.goto('/streams/2');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  await markWindow(page);
  const original = (await api.request<{ url: string }>('GET', `/streams/${streams.kelp.id}`)).url;
  const media = process.env.NW_MEDIA_URL!;
  try {
    await api.updateStream(streams.kelp.id, { name: 'Kelp Forest Cove North', url: `${media}/dusk.mp4?cam=kelp-north` });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kelp Forest Cove North');
    await expect(page.locator('video')).toHaveAttribute('src', /dusk\.mp4\?cam=kelp-north/);
    expect(await windowMarker(page)).toBe('kept');
  } finally {
    await api.updateStream(streams.kelp.id, { name: streams.kelp.name, url: original });
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  expect(page.url()).toBe(`${baseURL}/streams/2`);
});

test('the viewer switches scenes from its bottom bar without a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);
  const bar = page.getByRole('navigation', { name: 'Scenes' });
  await expect(bar.getByRole('link', { name: new RegExp(scenes.morning.name) })).toHaveAttribute('aria-current', 'page');
  await expect(bar.getByRole('link', { name: /Quiet Peaks/ })).toContainText('Max 5 streams');
  await markWindow(page);

  await bar.getByRole('link', { name: /Quiet Peaks/ }).click();
  await expect(page).toHaveURL(/\/scenes\/quiet-peaks$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(scenes.peaks.name);
  await expect(page.locator('.stream-card')).toHaveCount(3);
  await expect(bar.getByRole('link', { name: /Quiet Peaks/ })).toHaveAttribute('aria-current', 'page');
  expect(await windowMarker(page)).toBe('kept');

  // Each card: position, name, location, LIVE, quality in capitals, LOCAL time, category, lat/lon.
  const card = page.locator('.stream-card').first();
  await expect(card).toContainText('1');
  await expect(card).toContainText(streams.dusk.name);
  await expect(card).toContainText('Lauterbrunnen, Switzerland');
  await expect(card).toContainText('LIVE');
  await expect(card).toContainText('4K');
  await expect(card).toContainText(/\d{2}:\d{2} LOCAL/);
  await expect(card).toContainText('Nature');
  await expect(card).toContainText('46.59, 7.91');
});

test('Refresh Stream fetches the kiosk stream again and restarts its player', async ({ page }) => {
  await page.goto('/streams/2');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  await markWindow(page);
  await page.locator('video').evaluate((v) => v.setAttribute('data-old', 'yes'));
  await page.getByRole('button', { name: 'Refresh Stream' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);
  await expect(page.locator('video')).not.toHaveAttribute('data-old', 'yes');
  await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.2);
  expect(await windowMarker(page)).toBe('kept');
});

test('/streams/7 is refused with the invalid-position text', async ({ page }) => {
  await page.goto('/streams/7');
  await expect(page.getByText('Invalid stream position: 7. Must be 1-5.')).toBeVisible();
  await page.goto('/streams/two');
  await expect(page.getByText('Invalid stream position: two. Must be 1-5.')).toBeVisible();
});

test('an unknown scene slug says so, on the viewer and on a kiosk', async ({ page }) => {
  await page.goto('/scenes/no-such-scene');
  await expect(page.getByText('Scene not found: no-such-scene')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();

  await page.goto('/scenes/no-such-scene/1');
  await expect(page.getByText('Stream Unavailable')).toBeVisible();
  await expect(page.getByText('Scene not found: no-such-scene')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('a kiosk position the scene does not fill says so', async ({ page }) => {
  await page.goto(`/scenes/${scenes.peaks.slug}/5`);
  await expect(page.getByText('No stream available for position 5')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('a kiosk of a named scene follows that scene, not the default', async ({ page, api }) => {
  await page.goto(`/scenes/${scenes.peaks.slug}/1`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.dusk.name);
  await api.setDefaultScene(scenes.ocean.id);
  // A marker behind the new default: the hub pushes changes one at a time, in the order they
  // were written, and this kiosk's socket delivers them in that order. Once the marker shows,
  // a push of the new default scene to this kiosk (lava, at position 1) would already be here.
  const marker = `${streams.dusk.name} (marker)`;
  try {
    await api.updateStream(streams.dusk.id, { name: marker });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(marker);
    await expect(page.locator('.kiosk')).toHaveAttribute('data-scene-id', String(scenes.peaks.id));
  } finally {
    await api.updateStream(streams.dusk.id, { name: streams.dusk.name });
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(streams.dusk.name);
});

test('a page whose code cannot load shows the router error page', async ({ page }) => {
  await page.route(/\/assets\/SetupGuide-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/setup');
  await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
});

test('the setup guide promises the 30-minute kiosk refresh', async ({ page }) => {
  await page.goto('/setup');
  await expect(page.getByRole('heading', { level: 1, name: 'Setup guide' })).toBeVisible();
  await expect(page.getByText(/every 30 minutes/)).toBeVisible();
});

test('an operator identifies one screen by name and reloads every screen', async ({ context, api }) => {
  const lobby = await context.newPage();
  const tablet = await context.newPage();
  await lobby.goto('/?name=Lobby%20left');
  await tablet.goto('/streams/2?name=Tablet%202');
  await expect(lobby.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);
  await expect(tablet.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);

  type Presence = { id: string; name: string | null; device: string | null; online: boolean };
  let screens: Presence[] = [];
  await expect.poll(async () => (screens = await api.request<Presence[]>('GET', '/screens')).some((s) => s.name === 'Tablet 2')).toBe(true);
  const lobbyScreen = screens.find((s) => s.name === 'Lobby left')!;
  expect(lobbyScreen.device).toMatch(/^[0-9a-f-]{36}$/);

  await api.request('POST', '/screens/command', { command: 'identify', id: lobbyScreen.id });
  await expect(lobby.getByRole('status').filter({ hasText: 'This screen is' })).toContainText('Lobby left');
  await expect(tablet.locator('.identify')).toHaveCount(0);
  await expect(lobby.locator('.identify')).toHaveCount(0, { timeout: 8_000 }); // gone after 5 s

  for (const page of [lobby, tablet]) await markWindow(page);
  await api.request('POST', '/screens/command', { command: 'reload' });
  for (const page of [lobby, tablet]) await expect.poll(() => windowMarker(page).catch(() => 'navigating')).toBeUndefined();
  await expect(lobby.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);
  // The same screen comes back: one entry for it, online, not a second one.
  await expect
    .poll(async () => (await api.request<Presence[]>('GET', '/screens?include_offline=true')).filter((s) => s.name === 'Lobby left').map((s) => s.online))
    .toEqual([true]);
});

test('cards show the weather at each camera, from the server (the key never reaches the page)', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/');
  await expect(page.locator('.stream-card').first().locator('.weather')).toHaveText('13°C · Clouds');
  expect(requests.filter((url) => url.includes('e2e-weather-key'))).toEqual([]);
  expect(requests.some((url) => url.includes('/api/weather?lat='))).toBe(true);
});

test('the Screens tab shows each wall\'s last 24 hours online as a strip of hourly bars', async ({ browser }) => {
  const screens = await browser.newContext();
  const wall = await screens.newPage();
  // A name of its own: walls of earlier runs against this server stay listed as offline.
  const name = `Uptime wall ${Date.now().toString(36)}`;
  await wall.goto(`/?name=${encodeURIComponent(name)}`);
  await expect(wall.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);

  const admin = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await admin.newPage();
  await signIn(page, '/admin/screens');
  const row = page.locator('li.screen-row', { hasText: name });
  await expect(row).toContainText('Online');
  // Connected since it was first seen: all of the known time, in the newest hour's bar.
  const strip = row.getByRole('img', { name: 'Online 100 % of the last 24 hours' });
  await expect(strip).toBeVisible();
  await expect(strip.locator('.uptime-bar')).toHaveCount(24);
  await expect(strip.locator('.uptime-bar--up')).toHaveCount(1);
  await expect(strip.locator('.uptime-bar').last()).toHaveAttribute('title', /^\d{2}:\d{2}–\d{2}:\d{2}: online 100 %$/);
  await expect(row.getByTestId('screen-uptime')).toContainText('100 % · 24 h');
  await page.screenshot({ path: path.resolve(import.meta.dirname, '../artifacts/admin-screens-uptime-1440.png') });
  await screens.close();
  await admin.close();
});
