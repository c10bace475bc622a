/**
 * Walls in step, in the browser: screens whose own clocks are wrong (shifted in opposite
 * directions) flip to a new default scene at the one instant the server gave the change, a
 * kiosk with them; a stream that stays in the scene (and moves to another place) keeps its tile
 * element and its video — nothing is reloaded.
 */
import type { Browser, Page } from '@playwright/test';
import path from 'node:path';
import { signIn } from './support/admin.ts';
import { expect, test, world } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

const { scenes, streams } = world;

interface Flip {
  version: number;
  at: number | undefined;
  frameTime: number;
  renderedAt: number;
  workMs: number;
  frameRenders: number;
  frameEffects: number;
  catchUpRenders: number;
}

/** A page in its own context whose Date and performance.timeOrigin are off by `shiftMs`; it records its flips. */
async function shiftedPage(browser: Browser, baseURL: string, shiftMs: number): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript((shift: number) => {
    const RealDate = Date;
    const origin = performance.timeOrigin;
    class ShiftedDate extends RealDate {
      constructor(...args: ConstructorParameters<typeof Date> | []) {
        if (args.length === 0) super(RealDate.now() + shift);
        else super(...(args as ConstructorParameters<typeof Date>));
      }
      static override now() {
        return RealDate.now() + shift;
      }
    }
    globalThis.Date = ShiftedDate as DateConstructor;
    Object.defineProperty(performance, 'timeOrigin', { get: () => origin + shift });
    const flips: unknown[] = [];
    (window as unknown as { __flips: unknown[] }).__flips = flips;
    window.addEventListener('nw:flip', (event) => flips.push((event as CustomEvent).detail));
  }, shiftMs);
  return context.newPage();
}

const flipsOf = (page: Page) => page.evaluate(() => (window as unknown as { __flips: Flip[] }).__flips);

test('walls with clocks off in opposite directions flip together, a kiosk with them, and a kept stream is never reloaded', async ({ browser, baseURL, api }) => {
  // Three screens in contexts of their own, each playing its scene, then the console at two
  // widths: several times one page's work, on a machine that may be busy.
  test.setTimeout(150_000);
  const walls = [await shiftedPage(browser, baseURL!, -1_700), await shiftedPage(browser, baseURL!, 1_900)];
  const kiosk = await shiftedPage(browser, baseURL!, 900);
  try {
    for (const wall of walls) await wall.goto('/app');
    await kiosk.goto('/streams/2');
    for (const wall of walls) await expect(wall.getByRole('heading', { level: 1 })).toHaveText(scenes.morning.name);
    await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(streams.kelp.name);

    // Kelp is in both scenes (position 2, then 3): mark its tile and video, and count reloads.
    const kelpTile = (page: Page) => page.locator(`.wall-tile:not(.wall-tile--incoming)[aria-label="${streams.kelp.name}"]`);
    for (const wall of walls) {
      await expect(kelpTile(wall).locator('video')).toHaveCount(1);
      await kelpTile(wall).evaluate((tile) => {
        const video = tile.querySelector('video')!;
        Object.assign(tile, { __kept: true, __moves: 0 });
        // A move in the DOM is a removal and an insertion: an iframe there would reload.
        new MutationObserver((records) => {
          for (const record of records) for (const node of record.removedNodes) if (node === tile) (tile as unknown as { __moves: number }).__moves++;
        }).observe(tile.parentElement!, { childList: true });
        Object.assign(video, { __kept: true, __loads: 0 });
        video.addEventListener('loadstart', () => (video as unknown as { __loads: number }).__loads++);
        video.addEventListener('emptied', () => (video as unknown as { __loads: number }).__loads++);
      });
      // The clock is estimated before the change, so the change is scheduled (not shown on arrival).
      await expect.poll(() => wall.evaluate(() => document.readyState)).toBe('complete');
    }

    await api.setDefaultScene(scenes.ocean.id);

    for (const wall of walls) await expect(wall.getByRole('heading', { level: 1 })).toHaveText(scenes.ocean.name);
    await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(streams.reef.name);

    const flips = await Promise.all([...walls, kiosk].map(async (page) => (await flipsOf(page)).at(-1)));
    for (const flip of flips) expect(flip?.at).toEqual(expect.any(Number));
    // One instant from the server for all three, whatever each one's own clock says.
    expect(new Set(flips.map((f) => f!.at)).size).toBe(1);
    for (const flip of flips) {
      // The flip frame only flips: no tile, card or player rendered in it, no effect started —
      // React drew the new scene a task later (and the counter counts: it saw that).
      expect([flip!.frameRenders, flip!.frameEffects]).toEqual([0, 0]);
      expect(flip!.catchUpRenders).toBeGreaterThan(0);
      expect(flip!.renderedAt).toBeGreaterThanOrEqual(flip!.frameTime);
    }

    for (const wall of walls) {
      const kept = await kelpTile(wall).evaluate((tile) => {
        const video = tile.querySelector('video') as (HTMLVideoElement & { __kept?: boolean; __loads?: number }) | null;
        const t = tile as HTMLElement & { __kept?: boolean; __moves?: number };
        return { tile: t.__kept ?? false, moves: t.__moves, video: video?.__kept ?? false, loads: video?.__loads, position: t.dataset.position };
      });
      // Shown at position 3 now (it was 2): the same element, never moved in the DOM, its video never reloaded.
      expect(kept).toEqual({ tile: true, moves: 0, video: true, loads: 0, position: '3' });
    }

    // The Screens tab tells the technician how far each screen's own clock is off (the first wall's
    // Date runs 1.7 s behind, the second's 1.9 s ahead) and how closely it flips in step.
    const admin = await browser.newPage({ baseURL });
    try {
      for (const [width, height] of [[1440, 900], [768, 1024]] as const) {
        await admin.setViewportSize({ width, height });
        await signIn(admin, '/admin/screens');
        const rows = admin.locator('.screen-row', { has: admin.locator('.screen-row__clock') });
        // Each within what its row says of its own estimate (± its bound, and the 0.1 s it is rounded to):
        // a machine busy with the whole suite answers the clock's questions slowly, and says so.
        const clocks = async () =>
          (await rows.locator('.screen-row__clock').allTextContents()).flatMap((text) => {
            const m = /Own clock ([\d.]+) s (behind|ahead) · in step to ±([\d.]+) ms/.exec(text);
            return m ? [{ ms: Number(m[1]) * 1000 * (m[2] === 'ahead' ? 1 : -1), bound: Number(m[3]) }] : [];
          });
        const near = (shiftMs: number) => async () => (await clocks()).filter((c) => Math.abs(c.ms - shiftMs) <= 50 + c.bound).length;
        await expect.poll(near(-1_700)).toBe(1);
        await expect.poll(near(1_900)).toBe(1);
        // And how its last flip went: how long the frame took to render, and whether it came late.
        await expect(rows.filter({ hasText: /Last flip rendered in \d+ ms/ })).toHaveCount(3);
        // And what their video players dropped (each screen counts its own frames and reports every 30 s).
        const dropped = admin.locator('.screen-row__frames', { hasText: /^\s*(Drops frames )?Video dropped (no frames|[\d.]+ % of frames) in the last \d+ s$/ });
        await expect.poll(() => dropped.count(), { timeout: 45_000 }).toBeGreaterThanOrEqual(2);
        await admin.screenshot({ path: path.join(ARTIFACTS, `admin-screens-in-step-${width}.png`), fullPage: width !== 1440 });
      }
    } finally {
      await admin.close();
    }
  } finally {
    for (const page of [...walls, kiosk]) await page.context().close();
  }
});
