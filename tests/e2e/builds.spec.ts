/**
 * New versions reach every screen, and screens run for months: a wall on an older build reloads
 * at its next flip and comes back on its scene; a page whose code chunk is gone reloads instead
 * of showing the router's error; the error page that is left looks like the product; a tablet
 * can install a screen as a full-screen app; screens hold a wake lock.
 *
 * A page "on an older build" is the real page with its HTML's build id changed on the way
 * (page.route): the server keeps its one build, as every other spec needs.
 */
import path from 'node:path';
import type { Page, Route } from '@playwright/test';
import { signIn } from './support/admin.ts';
import { expect, markWindow, test, windowMarker, world } from './support/fixtures.ts';

const { scenes } = world;
const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

async function serverBuild(page: Page): Promise<string> {
  const response = await page.request.get('/build.json');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { id: string }).id;
}

/** Serves the page at `pathname` as an older build the first time it is loaded; counts the loads. */
async function olderBuildOnce(page: Page, pathname: string, current: string): Promise<{ loads: () => number }> {
  let loads = 0;
  await page.route(
    (url) => url.pathname === pathname,
    async (route: Route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      loads++;
      const response = await route.fetch();
      const html = await response.text();
      const body = loads === 1 ? html.replace(`<meta name="nw-build" content="${current}">`, '<meta name="nw-build" content="an-older-build">') : html;
      if (loads === 1) expect(body).toContain('content="an-older-build"');
      await route.fulfill({ response, body });
    },
  );
  return { loads: () => loads };
}

/** The server build the page has been told (the `nw:server-build` event), recorded from the start. */
async function recordServerBuild(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener('nw:server-build', (event) => {
      (window as unknown as { __serverBuild?: string }).__serverBuild = (event as CustomEvent<{ server: string }>).detail.server;
    });
    // Its moment without a flip is drawn at the end of the window, minutes away: within this
    // test only a flip can reload it.
    Math.random = () => 0.999;
  });
}

const toldBuild = (page: Page) => page.evaluate(() => (window as unknown as { __serverBuild?: string }).__serverBuild ?? null);

test('a wall on an older build reloads at its next flip and comes back on the scene it flipped to', async ({ page, api }) => {
  const current = await serverBuild(page);
  await recordServerBuild(page);
  const served = await olderBuildOnce(page, '/', current);

  await page.goto('/');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(scenes.morning.name);
  await expect(page.locator('meta[name="nw-build"]')).toHaveAttribute('content', 'an-older-build');
  await expect.poll(() => toldBuild(page)).toBe(current);
  await markWindow(page);
  // Told it is outdated, it keeps showing until something flips.
  await expect(heading).toHaveText(scenes.morning.name);
  expect(await windowMarker(page)).toBe('kept');
  expect(served.loads()).toBe(1);

  await api.setDefaultScene(scenes.ocean.id);
  await expect.poll(() => served.loads()).toBe(2);
  await expect(heading).toHaveText(scenes.ocean.name);
  expect(await windowMarker(page)).toBeUndefined(); // a new page, not the old one flipped
  await expect(page.locator('meta[name="nw-build"]')).toHaveAttribute('content', current);
  await expect.poll(() => toldBuild(page)).toBe(current);
  // Now on the server's build, the next flip is only a flip.
  await markWindow(page);
  await api.setDefaultScene(scenes.morning.id);
  await expect(heading).toHaveText(scenes.morning.name);
  expect(await windowMarker(page)).toBe('kept');
  expect(served.loads()).toBe(2);
});

test('a kiosk on an older build reloads when its stream flips, at its own address', async ({ page, api }) => {
  const current = await serverBuild(page);
  await recordServerBuild(page);
  const served = await olderBuildOnce(page, '/streams/1', current);
  await page.goto('/streams/1');
  const kiosk = page.locator('main.kiosk');
  await expect(kiosk).toHaveAttribute('data-scene-id', String(scenes.morning.id));
  await expect.poll(() => toldBuild(page)).toBe(current);
  await markWindow(page);

  await api.setDefaultScene(scenes.ocean.id);
  await expect.poll(() => served.loads()).toBe(2);
  await expect(kiosk).toHaveAttribute('data-scene-id', String(scenes.ocean.id));
  expect(await windowMarker(page)).toBeUndefined();
  expect(new URL(page.url()).pathname).toBe('/streams/1');
  await expect(page.locator('meta[name="nw-build"]')).toHaveAttribute('content', current);
});

test('an admin console on an older build offers to reload instead of reloading', async ({ page }) => {
  const current = await serverBuild(page);
  await olderBuildOnce(page, '/login', current); // the console is the page the sign-in opened
  await signIn(page, '/admin/streams');
  await markWindow(page);
  const toast = page.getByText('A new version is available — reload');
  await expect(toast).toBeVisible();
  expect(await windowMarker(page)).toBe('kept');
  await page.getByRole('button', { name: 'Reload', exact: true }).click();
  await expect.poll(() => windowMarker(page)).toBeUndefined();
  await expect(page.locator('meta[name="nw-build"]')).toHaveAttribute('content', current);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(toast).toHaveCount(0);
});

test('the Live Wall comes back on the scene picked on it after a reload', async ({ page }) => {
  await page.goto('/app');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(scenes.morning.name);
  const { width, height } = page.viewportSize()!;
  await page.mouse.move(width / 2, height - 40, { steps: 2 });
  await page.getByRole('navigation', { name: 'Scene switcher' }).getByRole('button', { name: new RegExp(scenes.peaks.name) }).click();
  await expect(heading).toHaveText(scenes.peaks.name);
  await page.reload();
  await expect(heading).toHaveText(scenes.peaks.name);
});

test('a page whose code chunk failed to load reloads once and shows, not the error page', async ({ page }) => {
  let documents = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents++;
  });
  // The page's chunk cannot be had while the first load lasts (as after a deploy removed it).
  let aborted = 0;
  await page.route(/\/assets\/SetupGuide-[^/]+\.js$/, (route) => {
    if (documents > 1) return route.continue();
    aborted++;
    return route.abort();
  });
  await page.goto('/setup');
  await expect(page.getByRole('heading', { level: 1, name: 'Setup guide' })).toBeVisible();
  expect(aborted).toBeGreaterThan(0);
  expect(documents).toBe(2);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
});

test('a chunk that keeps failing shows the product’s error page after one reload, with Reload', async ({ page }) => {
  let aborted = 0;
  await page.route(/\/assets\/SetupGuide-[^/]+\.js$/, (route) => {
    aborted++;
    return route.abort();
  });
  let documents = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents++;
  });
  await page.goto('/setup');
  const alert = page.getByRole('alert');
  await expect(alert.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(alert.getByRole('button', { name: 'Reload' })).toBeVisible();
  expect(documents).toBe(2); // one reload, no loop
  expect(aborted).toBeGreaterThanOrEqual(2);
  for (const width of [1440, 768]) {
    await page.setViewportSize({ width, height: width === 1440 ? 900 : 1024 });
    await page.screenshot({ path: path.join(ARTIFACTS, `error-page-${width}.png`) });
  }
  // Reload is a real reload (the guard lets the error page show again, still no loop).
  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => documents).toBe(3);
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
});

test('a tablet can install a kiosk as a full-screen app that opens at its own address', async ({ page }) => {
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  const body = (await manifest.json()) as { name: string; display: string; start_url: string; theme_color: string; background_color: string; icons: { src: string; sizes: string; type: string }[] };
  expect(body).toMatchObject({ name: 'Nature Wall', display: 'fullscreen', start_url: '/streams/1' });
  for (const size of ['192x192', '512x512']) {
    const icon = body.icons.find((i) => i.sizes === size && i.type === 'image/png');
    expect(icon, size).toBeTruthy();
    const png = await page.request.get(icon!.src);
    expect(png.headers()['content-type']).toBe('image/png');
  }

  // Installed from /streams/3?group=lobby, the app opens there (the page names its own manifest).
  await page.goto('/streams/3?group=lobby');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe(`/manifest.webmanifest?start=${encodeURIComponent('/streams/3?group=lobby')}`);
  const own = (await (await page.request.get(href!)).json()) as { start_url: string; id: string; display: string };
  expect(own).toMatchObject({ start_url: '/streams/3?group=lobby', id: '/streams/3?group=lobby', display: 'fullscreen' });
  // Only a screen's address is taken.
  const other = (await (await page.request.get(`/manifest.webmanifest?start=${encodeURIComponent('//evil.example/')}`)).json()) as { start_url: string };
  expect(other.start_url).toBe('/streams/1');
});

test('a screen holds a wake lock, takes it again when visible, and a page without the API still plays', async ({ page }) => {
  await page.addInitScript(() => {
    const log = ((window as unknown as { __wake: string[] }).__wake = [] as string[]);
    const listeners: (() => void)[] = [];
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        request: async (type: string) => {
          log.push(`request:${type}`);
          return {
            release: async () => void log.push('release'),
            addEventListener: (_: string, listener: () => void) => listeners.push(listener),
          };
        },
      },
    });
    // What the browser does when the page is hidden: the lock is released.
    (window as unknown as { __dropWake: () => void }).__dropWake = () => listeners.splice(0).forEach((l) => l());
  });
  await page.goto('/streams/1');
  await expect(page.locator('main.kiosk')).toBeVisible();
  const wake = () => page.evaluate(() => (window as unknown as { __wake: string[] }).__wake.join(','));
  await expect.poll(wake).toBe('request:screen');
  await page.evaluate(() => {
    (window as unknown as { __dropWake: () => void }).__dropWake();
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect.poll(wake).toBe('request:screen,request:screen');

  const bare = await page.context().newPage();
  await bare.addInitScript(() => Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: undefined }));
  await bare.goto('/streams/1');
  await expect(bare.locator('main.kiosk')).toBeVisible();
  await bare.close();
});
