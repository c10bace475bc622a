/** The Live Wall (/app): layouts without scrolling, the bottom-edge switcher, the fullscreen player, every state. */
import type { Page } from '@playwright/test';
import { expect, test, world } from './support/fixtures.ts';

const { scenes, streams } = world;

async function openWall(page: Page, sceneName = scenes.morning.name) {
  await page.goto('/app');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(sceneName);
}

async function expectTilesFitTheScreen(page: Page, count: number) {
  const tiles = page.locator('.wall-tile');
  await expect(tiles).toHaveCount(count);
  const viewport = page.viewportSize()!;
  const boxes = await tiles.evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  for (const box of boxes) {
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(viewport.height);
    expect(box.right).toBeLessThanOrEqual(viewport.width);
    expect(box.width * box.height).toBeGreaterThan(0.04 * viewport.width * viewport.height);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const overlap = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
      expect(overlap).toBe(0);
    }
  }
  const scrolls = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight || document.documentElement.scrollWidth > window.innerWidth);
  expect(scrolls).toBe(false);
}

test('the first scene shows with its description and algorithm line, tiles fit without scrolling', async ({ page }) => {
  await openWall(page);
  const header = page.getByRole('banner');
  await expect(header.getByText('Forest light, a kelp cove and the savanna at first light')).toBeVisible();
  await expect(header.getByText('Manual selection · Max 5 streams')).toBeVisible();
  await expect(page.locator('.wall-grid')).toHaveAttribute('data-layout', 'grid');
  await expectTilesFitTheScreen(page, 5);
  await expect(page.getByText('Move mouse to bottom edge to switch scenes')).toBeVisible();
});

test('the switcher appears near the bottom edge and hides 3 s after the mouse leaves', async ({ page }) => {
  await page.clock.install(); // the page's timers run on a clock the test moves (it flows until paused)
  await openWall(page);
  const switcher = page.getByRole('navigation', { name: 'Scene switcher' });
  /** Shown or not, as rendered now (read once, after settle(), so a late render cannot slip by). */
  const shown = async () => (await page.locator('#scene-switcher').getAttribute('data-visible')) === 'true';
  const { width, height } = page.viewportSize()!;
  await page.mouse.move(width / 2, height / 2);
  await settle(page);
  expect(await shown()).toBe(false);
  await expect(switcher).toBeHidden();

  await page.mouse.move(width / 2, height - 200, { steps: 2 }); // 200 px from the edge: not yet
  await settle(page);
  expect(await shown()).toBe(false);
  await expect(switcher).toBeHidden();
  await page.mouse.move(width / 2, height - 120, { steps: 2 }); // within 150 px
  await expect(switcher).toBeVisible();

  const card = switcher.getByRole('button', { name: /Evening Mix/ });
  await expect(card).toContainText('No description available');
  await expect(card).toContainText('Max 5 streams');
  await expect(card).toContainText('Manual');
  await expect(switcher.getByRole('button', { name: /Morning Canopy/ })).toHaveAttribute('aria-pressed', 'true');

  // From here on the page's time moves only when the test moves it.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.mouse.move(width / 2, height / 3, { steps: 2 }); // leaves: the hide is scheduled now
  await page.clock.runFor(2_900);
  await settle(page);
  expect(await shown()).toBe(true); // still there 2.9 s after leaving
  await expect(switcher).toBeVisible();
  await page.clock.runFor(100);
  await settle(page);
  expect(await shown()).toBe(false); // gone at 3 s
  await expect(switcher).toBeHidden(); // (once its 260 ms slide-out, real time, is over)
});

/**
 * Waits until React has rendered what the page's events and timers so far changed. React's
 * scheduler renders in a posted-message task queued when the state changed (MessageChannel,
 * which the test clock does not fake); a message posted now is handled after it.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 2; i++) {
      await new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
    }
  });
}

test('the Scenes button opens the switcher for touch and keyboard, focus on the current scene', async ({ page }) => {
  await openWall(page);
  const switcher = page.getByRole('navigation', { name: 'Scene switcher' });
  await page.getByRole('button', { name: 'Scenes' }).click();
  await expect(switcher).toBeVisible();
  await expect(switcher.getByRole('button', { name: /Morning Canopy/ })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(scenes.morning.name);
});

test('picking a scene switches the wall and honours its layout', async ({ page }) => {
  await openWall(page);
  const { width, height } = page.viewportSize()!;
  const switcher = page.getByRole('navigation', { name: 'Scene switcher' });

  for (const [scene, layout, count] of [
    [scenes.ocean, 'mosaic', 5],
    [scenes.peaks, 'feature', 3],
    [scenes.evening, 'grid', 2],
  ] as const) {
    await page.mouse.move(width / 2, height - 40, { steps: 2 });
    await switcher.getByRole('button', { name: new RegExp(scene.name) }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(scene.name);
    await expect(page.locator('.wall-grid')).toHaveAttribute('data-layout', layout);
    await expectTilesFitTheScreen(page, count);
  }
});

test('a tile opens the fullscreen player; Escape closes it and scrolling comes back', async ({ page }) => {
  await openWall(page);
  await page.locator('.wall-tile').nth(1).getByRole('button').filter({ hasText: streams.kelp.name }).click();
  const dialog = page.getByRole('dialog', { name: streams.kelp.name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('LIVE', { exact: true })).toBeVisible();
  await expect.poll(() => dialog.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.2);
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');

  // The close button does the same.
  await page.locator('.wall-tile').first().getByRole('button').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByRole('button', { name: 'Close full screen' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('the fullscreen player says what it loads while the stream connects', async ({ page }) => {
  await openWall(page);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/live/index.m3u8', async (route) => {
    await held;
    await route.continue();
  });
  await page.locator('.wall-tile').first().getByRole('button', { name: new RegExp(streams.forest.name) }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(`Loading ${streams.forest.name}`)).toBeVisible();
  await expect(dialog.getByText('Connecting to stream...')).toBeVisible();
  release();
  await expect(dialog.getByText(`Loading ${streams.forest.name}`)).toBeHidden();
  await expect.poll(() => dialog.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.2);
});

test('the fullscreen player of a dead stream says Stream Unavailable with Close', async ({ page, api }) => {
  await api.setDefaultScene(scenes.offline.id);
  await openWall(page, scenes.offline.name);
  await page.locator('.wall-tile').first().getByRole('button', { name: /Offline Ridge Camera/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Stream Unavailable')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
});

test('the gear button sends a visitor to sign in, and gives an admin the panel with Streams and Scenes', async ({ page }) => {
  await openWall(page);
  await page.getByRole('button', { name: 'Admin panel' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fapp$/);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('some-test-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app$/);

  await page.getByRole('button', { name: 'Admin panel' }).click();
  const panel = page.getByRole('dialog', { name: 'Admin panel' });
  await expect(panel.getByRole('link', { name: 'Open admin dashboard' })).toHaveAttribute('href', '/admin');
  // Editing a scene restores its streams and its layout (the old panel forgot both).
  await panel.getByRole('button', { name: `Edit ${scenes.peaks.name}` }).click();
  await expect(panel.locator('li[data-slot="1"]')).toContainText('Alpine Dusk');
  await expect(panel.locator('li[data-slot="3"]')).toContainText('Savanna Waterhole');
  await expect(panel.getByLabel('Layout')).toHaveValue('feature');
  await panel.getByRole('button', { name: 'Cancel editing' }).click();
  // A new scene cannot be saved until a stream is chosen; only active streams are offered.
  await panel.getByRole('button', { name: 'New scene' }).click();
  await panel.getByLabel('Name', { exact: true }).fill('Panel scene');
  await expect(panel.getByRole('button', { name: 'Create scene' })).toBeDisabled();
  await panel.getByRole('button', { name: 'Add Coral Reef Live' }).click();
  await expect(panel.getByRole('button', { name: 'Create scene' })).toBeEnabled();
  await panel.getByRole('tab', { name: 'Streams' }).click();
  await expect(panel.getByRole('list', { name: 'Streams' }).getByText('Active').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('the wall follows the default scene until a scene is picked', async ({ page, api }) => {
  await openWall(page);
  await api.setDefaultScene(scenes.peaks.id);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(scenes.peaks.name);
});

test('loading, failure with Try Again, and no scenes', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/scenes?active=true', async (route) => {
    await held;
    await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
  });
  await page.goto('/app');
  await expect(page.getByText('Loading Live Wall...')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Oops!' })).toBeVisible();
  await expect(page.getByText('Failed to load scenes. Please check if the server is running.')).toBeVisible();

  await page.unroute('**/api/scenes?active=true');
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);

  await page.route('**/api/scenes?active=true', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No Scenes Available' })).toBeVisible();
  await expect(page.getByText('Please contact an administrator to set up some beautiful nature scenes.')).toBeVisible();
});
