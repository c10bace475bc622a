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

/** The sizes the console is looked at and photographed in: a desktop and a tablet. */
export const CONSOLE_SIZES = [
  { width: 1440, height: 900 },
  { width: 768, height: 1024 },
] as const;

/** Opens `path` at each of CONSOLE_SIZES in turn and runs `check` there (given its width, for the screenshots' names). */
export async function atEachSize(page: Page, path: string, check: (width: number) => Promise<void>): Promise<void> {
  for (const size of CONSOLE_SIZES) {
    await page.setViewportSize(size);
    await page.goto(path);
    await check(size.width);
  }
}
