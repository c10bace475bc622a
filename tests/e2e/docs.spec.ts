/** The API reference renders in Chromium from our own origin, under the strict CSP, without errors. */
import { expect, test } from './support/fixtures.ts';

test('/api/docs renders the API reference with no CSP violation or console error', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });

  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Nature Wall API/ })).toBeVisible();
  await expect(page.locator('.opblock-summary-path').filter({ hasText: '/api/config/default-scene' }).first()).toBeVisible();
  await page.locator('.opblock-summary-path', { hasText: /^\/api\/discovery\/submit$/ }).first().click();
  await expect(page.getByText('submittedBy').first()).toBeVisible();

  expect(problems).toEqual([]);
  const origin = new URL(page.url()).origin;
  expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
  await page.screenshot({ path: 'tests/artifacts/api-docs-1440.png' });
});
