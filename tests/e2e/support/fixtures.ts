/**
 * The test object every spec uses: the REST client as an administrator, the world built by the
 * global setup, and a guard that puts the default scene back after each test.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { apiClient, type Api } from './api.ts';
import type { World } from './world.ts';

export const world = JSON.parse(process.env.NW_WORLD ?? '{}') as World;

export const test = base.extend<{ api: Api; restoreDefaultScene: void }>({
  api: async ({ baseURL }, use) => {
    await use(apiClient(baseURL ?? ''));
  },
  restoreDefaultScene: [
    async ({ api }, use) => {
      await use();
      await api.setDefaultScene(world.scenes.morning.id);
    },
    { auto: true },
  ],
});

export { expect };

/** A marker on `window`: it survives anything but a reload. */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __nwMarker: string }).__nwMarker = 'kept';
  });
}

export async function windowMarker(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (window as unknown as { __nwMarker?: string }).__nwMarker);
}

/** Seconds of playback of the page's (first) video. */
export async function videoTime(page: Page, selector = 'video'): Promise<number> {
  return page.locator(selector).first().evaluate((video: HTMLVideoElement) => video.currentTime);
}

/** A viewer's cards that stay on screen: while a flip waits, a card coming in and one leaving can show the same camera. */
const SHOWN_CARDS = '.stream-card:not(.stream-card--incoming):not(.stream-card--leaving)';

/**
 * Appended to a selector: only what the visitor sees — not inside the side a waiting flip holds
 * transparent (Flip.tsx `data-stage="next"`), where a kept card draws its text again.
 */
export const SHOWN_SIDE = ':not([data-stage="next"]):not([data-stage="next"] *)';

/** The card of a camera that stays on screen (never the copy a waiting flip brings in or takes out). */
export function shownCard(page: Page, name: string): Locator {
  return page.locator(SHOWN_CARDS, { hasText: name });
}

/**
 * The names a viewer's cards show, in the order a visitor sees them (their positions): the card
 * elements themselves keep their DOM order across flips, so that no player is moved or reloaded.
 */
export async function shownCardNames(page: Page): Promise<string[]> {
  return page.$$eval(SHOWN_CARDS, (cards) =>
    cards
      // While a flip waits a card holds its text for both sides, one of them hidden.
      .map((card) => ({ position: Number(card.getAttribute('data-position')), name: [...card.querySelectorAll('h2')].find((h) => h.checkVisibility())?.textContent ?? '' }))
      .sort((a, b) => a.position - b.position)
      .map((card) => card.name),
  );
}
