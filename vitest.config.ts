import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    allowOnly: !process.env.CI,
    // Servers the suites start as processes run as a closed-LAN venue (every wall and kiosk address
    // is a screen, as before approval shipped); enrolment's own suites turn approval on.
    env: { SCREEN_APPROVAL: 'off' },
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
