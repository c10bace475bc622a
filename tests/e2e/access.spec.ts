/**
 * Admin pages need a sign-in; the public screens do not; every page carries the CSP. An address
 * that keeps failing is told how long to wait, and cannot keep the admin out (login-limits.ts).
 */
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

test('an anonymous visitor of /admin signs in at /login and is brought back', async ({ page }) => {
  // The wrong password below is counted against an address of this test's own.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.29' });
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin$/);
  await expect(page.getByRole('heading', { name: 'Administrator sign in' })).toBeVisible();

  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
  await expect(page).toHaveURL(/\/login/);

  await page.getByLabel('Password').fill('some-test-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/streams$/);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'nw_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
});

test('a sign-in link cannot send anyone to another site', async ({ page }) => {
  await page.goto('/login?next=//evil.example/phish');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('some-test-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/streams$/); // the unsafe "next" is replaced by the console
});

test('public screens need no sign-in, and pages are served with the Content-Security-Policy', async ({ page }) => {
  const response = await page.goto('/streams/1');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page).toHaveURL(/\/streams\/1$/);
  await page.goto('/app');
  await expect(page).toHaveURL(/\/app$/);
});

test('an address that keeps failing is told how long to wait; the admin signs in from another', async ({ browser, baseURL }) => {
  const attacker = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.77' } });
  const admin = await browser.newContext({ baseURL, viewport: { width: 768, height: 1024 }, extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.78' } });
  try {
    const page = await attacker.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').fill('admin');
    // Ten wrong passwords for one account from one address: the eleventh try is refused, with the wait.
    for (let i = 0; i < 10; i++) {
      await page.getByLabel('Password').fill(`guess number ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText('Invalid username or password');
    }
    await page.getByLabel('Password').fill('some-test-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Too many failed sign-ins from this address');
    await expect(alert).toContainText(/You can try again in 1[45] min\./);
    await expect(alert).not.toContainText('try again later'); // said once, with the wait
    await page.screenshot({ path: path.join(ARTIFACTS, 'login-limited-1440.png') });
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.screenshot({ path: path.join(ARTIFACTS, 'login-limited-768.png') });
    // The stranger's failures do not keep the admin out.
    const own = await admin.newPage();
    await own.goto('/login?next=/admin/streams');
    await own.getByLabel('Username').fill('admin');
    await own.getByLabel('Password').fill('some-test-password');
    await own.getByRole('button', { name: 'Sign in' }).click();
    await expect(own).toHaveURL(/\/admin\/streams$/);
  } finally {
    await attacker.close();
    await admin.close();
  }
});
