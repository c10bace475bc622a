/**
 * How the screens look and whether everyone can use them: screenshots of `/`, `/app` and a
 * kiosk go to tests/artifacts/ (look at them), and axe-core finds no serious or critical
 * accessibility violation on any of them.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { expect, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

const SCREENS = [
  { name: 'scene-viewer', path: '/', heading: world.scenes.morning.name, videos: 5 },
  { name: 'live-wall', path: '/app', heading: world.scenes.morning.name, videos: 5 },
  { name: 'kiosk', path: '/streams/3', heading: world.streams.savanna.name, videos: 1 },
];

/** Every video on the page has shown frames: the screenshot shows pictures, not spinners. */
async function waitForPictures(page: Page, count: number) {
  await expect(page.locator('video')).toHaveCount(count);
  await expect
    .poll(() => page.locator('video').evaluateAll((videos) => videos.filter((v) => (v as HTMLVideoElement).currentTime > 0.2).length), { timeout: 20_000 })
    .toBe(count);
  await expect(page.locator('[data-player-state="loading"]')).toHaveCount(0);
  // Players fade their picture in: wait until every one is fully shown, and a frame or two more.
  await expect
    .poll(() => page.locator('video').evaluateAll((videos) => videos.every((v) => getComputedStyle(v).opacity === '1')))
    .toBe(true);
  await page.waitForTimeout(300);
}

for (const screen of SCREENS) {
  test(`${screen.path} looks like the product and passes axe`, async ({ page }) => {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading);
    await waitForPictures(page, screen.videos);
    await page.mouse.move(10, 10); // a pointer resting at the top: no switcher on the screenshot
    await page.screenshot({ path: path.join(ARTIFACTS, `${screen.name}.png`) });

    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const blocking = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(blocking).toEqual([]);
  });
}

test('the Live Wall switcher and fullscreen player pass axe too', async ({ page }) => {
  await page.goto('/app');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(world.scenes.morning.name);
  const { width, height } = page.viewportSize()!;
  await page.mouse.move(width / 2, height - 30);
  await expect(page.getByRole('navigation', { name: 'Scene switcher' })).toBeVisible();
  await page.waitForTimeout(400); // the slide-in transition
  await page.screenshot({ path: path.join(ARTIFACTS, 'live-wall-switcher.png') });
  let results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await page.locator('.wall-tile').first().getByRole('button').first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  results = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});
