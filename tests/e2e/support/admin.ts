/** Signing in as the e2e administrator (ADMIN_PASSWORD of the global setup). */
import { expect, type Page } from '@playwright/test';

export async function signIn(page: Page, next = '/admin'): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('some-test-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}
