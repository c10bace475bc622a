/** Admin pages need a sign-in; the public screens do not; every page carries the CSP. */
import { expect, test } from './support/fixtures.ts';

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
