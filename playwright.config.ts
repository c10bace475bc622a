/**
 * End-to-end tests: the built web app against the real server (started by the global setup on
 * a throw-away embedded database), in Debian's Chromium. One worker: the tests share one
 * server and its default scene, which several of them change.
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./tests/e2e/support/summary-reporter.ts']],
  use: {
    // Set by the global setup (the config is read again in the worker, after it ran).
    baseURL: process.env.NW_BASE_URL,
    viewport: { width: 1600, height: 900 },
    trace: 'retain-on-failure',
    // A service worker answers a page's requests before page.route sees them, and the specs that
    // fake a build or a failure rely on page.route: only offline.spec.ts lets the screens' worker run.
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
