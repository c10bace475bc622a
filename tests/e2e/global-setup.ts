/**
 * Before the end-to-end run: build the web app, render the local media, serve it on
 * 127.0.0.1, start Nature Wall on a fresh embedded database, and create the streams and scenes
 * the tests start from. The tests read where everything is from the environment.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiClient } from './support/api.ts';
import { generateMedia, serveMedia } from './support/media.ts';
import { ROOT, startNatureWall } from './support/server.ts';
import { buildWorld } from './support/world.ts';

const run = promisify(execFile);

/** Generated once per machine and reused (the clips never change; bump the version if they do). */
export const MEDIA_DIR = path.join(os.tmpdir(), 'nature-wall-e2e-media-v1');
export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const build = process.env.NW_E2E_SKIP_BUILD
    ? Promise.resolve()
    : run(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT });
  await Promise.all([build, generateMedia(MEDIA_DIR)]);
  const media = await serveMedia(MEDIA_DIR);
  // The local media server stands in for the web pages visitors paste: the safe fetcher may reach it.
  const server = await startNatureWall({
    ADMIN_API_TOKEN: E2E_ADMIN_TOKEN,
    ADMIN_PASSWORD: 'some-test-password',
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    // The media server answers as the weather service too.
    WEATHER_API_KEY: 'e2e-weather-key',
    WEATHER_BASE_URL: media.base,
    // A failing check is confirmed an hour later: no camera goes offline (and walls re-resolve) under another spec.
    QUALITY_RECHECK_SECONDS: '3600',
    // And no 15-minute sweep re-analyses the world in the middle of a spec.
    QUALITY_SWEEP_CRON: 'off',
    // Nor do the ranking's budgeted re-checks (the activity spec analyses what it needs itself).
    RANKED_RECHECK_MINUTES: '0',
    // A spec that signs in wrongly does it from an address of its own (X-Forwarded-For), so the
    // shared server's failed-login budget for 127.0.0.1 stays whole for the others.
    TRUST_PROXY: 'true',
  });
  const world = await buildWorld(apiClient(server.base, E2E_ADMIN_TOKEN), media);

  process.env.NW_BASE_URL = server.base;
  process.env.NW_MEDIA_URL = media.base;
  process.env.NW_PAGE_URL = media.pageUrl;
  process.env.NW_WORLD = JSON.stringify(world);
  process.env.ADMIN_API_TOKEN = E2E_ADMIN_TOKEN;
  console.log(`e2e: server ${server.base}, media ${media.base}, ready in ${Date.now() - started} ms`);

  return async () => {
    await server.stop();
    await media.close();
  };
}
