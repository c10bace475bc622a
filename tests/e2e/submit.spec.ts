/**
 * /submit end to end: a YouTube link is listed at once, a web page is analysed by the server
 * (through the safe fetcher) for its player; both are submitted; an admin sees them arrive in
 * the review queue live, approves one, and finds it in the Streams tab.
 */
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('a visitor submits a link and a page; an admin sees them live and approves one', async ({ browser }) => {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, '/admin/submissions');
  await expect(admin.getByRole('heading', { name: 'Submissions' })).toBeVisible();

  const visitorContext = await browser.newContext();
  const page = await visitorContext.newPage();
  await page.goto('/submit');
  await expect(page.getByRole('heading', { name: 'Submit a Stream' })).toBeVisible();
  const input = page.getByLabel('Stream links or embed code');
  await input.fill(`https://www.youtube.com/watch?v=ydYDqZQpim8\n${process.env.NW_PAGE_URL}`);
  await input.blur();
  const found = page.getByRole('group', { name: /Streams found/ });
  await expect(found.getByText('https://www.youtube.com/watch?v=ydYDqZQpim8').first()).toBeVisible();
  await expect(found.getByText('River cams')).toBeVisible(); // the page's player, found by the server
  await expect(found.getByRole('checkbox')).toHaveCount(2);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'submit-1440.png') });

  await page.getByLabel('Your name (optional)').fill('River fan');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you!' })).toContainText('2 streams were submitted for review');

  // The admin's queue fills without a reload, with the count on the tab.
  await expect(admin.getByRole('link', { name: /Submissions/ }).getByText('2')).toBeVisible();
  const row = admin.locator('tr', { hasText: 'River cams' });
  await expect(row).toContainText('River fan');
  await row.getByRole('button', { name: 'Review' }).click();
  const review = admin.getByRole('dialog', { name: 'Review submission' });
  await review.getByLabel('Name').fill('Salmon Run River');
  await review.getByLabel('Category').selectOption('wildlife');
  await review.getByRole('button', { name: 'Approve' }).click();
  await expect(review).toBeHidden();
  await expect(admin.locator('tr', { hasText: 'River cams' })).toHaveCount(0);

  await admin.getByRole('link', { name: 'Streams' }).click();
  await expect(admin.locator('tr', { hasText: 'Salmon Run River' })).toContainText('Live');

  // Submitting the same link again is said plainly, not an error page.
  await input.fill('https://youtu.be/ydYDqZQpim8');
  await input.blur();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'already' })).toBeVisible();
  await adminContext.close();
  await visitorContext.close();
});

test('no link at all says so', async ({ page }) => {
  await page.goto('/submit');
  const input = page.getByLabel('Stream links or embed code');
  await input.fill('just some words');
  await input.blur();
  await expect(page.getByRole('alert')).toHaveText('No valid stream URLs found. Please check your input and try again.');
});
