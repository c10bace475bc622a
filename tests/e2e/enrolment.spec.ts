/**
 * Screens an admin approves (issue 41), in a real browser against its own Nature Wall process
 * with approval on (the shared server is a closed-LAN venue): a fresh browser opens a wall
 * address and shows a pairing code; an admin approves it in the console with a group; the wall
 * shows that group's programme without a reload, survives a reload and a reload with the server
 * stopped; revoked, it shows the pairing screen again. A second fresh browser with the same
 * `?group=` and no approval gets no programme; a bare `/` stays a public page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { apiClient } from './support/api.ts';
import { freePort, startNatureWall, type NatureWallProcess } from './support/server.ts';
import { signIn } from './support/admin.ts';
import type { ScreenGroupDto } from '../../src/shared/api/index.ts';
import { PAIRING_ALPHABET } from '../../src/shared/pairing.ts';

const TOKEN = 'enrolment-spec-admin-token-0123456789';
const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');
const MEDIA = process.env.NW_MEDIA_URL ?? '';

test.use({ serviceWorkers: 'allow' });

const codeOf = (page: Page) => page.locator('[data-pairing-code]').getAttribute('data-pairing-code');
const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

test('a wall is a screen once an admin approves its code: its group is the admin’s, it keeps it offline, and revoked it pairs again', async ({ browser }) => {
  test.setTimeout(180_000);
  expect(MEDIA).not.toBe('');
  const port = String(await freePort());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-enrol-data-'));
  const env = { PORT: port, DATA_DIR: dataDir, ADMIN_API_TOKEN: TOKEN, ADMIN_PASSWORD: 'some-test-password', SCREEN_APPROVAL: 'on', QUALITY_SWEEP_CRON: 'off', QUALITY_RECHECK_SECONDS: '3600', RANKED_RECHECK_MINUTES: '0' };
  let server: NatureWallProcess | null = await startNatureWall(env);
  const api = apiClient(server.base, TOKEN);
  const wallContext = await browser.newContext({ baseURL: server.base, serviceWorkers: 'allow', viewport: { width: 1440, height: 900 } });
  const adminContext = await browser.newContext({ baseURL: server.base, viewport: { width: 1440, height: 900 } });
  const strangerContext = await browser.newContext({ baseURL: server.base, viewport: { width: 1440, height: 900 } });
  try {
    const live = await api.createStream({ name: 'Harbour Seals Live', url: `${MEDIA}/live/index.m3u8`, category: 'wildlife', recording_ok: true });
    const clip = await api.createStream({ name: 'Canyon Rim', url: `${MEDIA}/dusk.mp4?cam=enrol`, category: 'nature' });
    const harbour = await api.createScene({ name: 'Harbour at Dawn', layout_type: 'grid', selection_algorithm: 'manual', max_streams: 5, stream_ids: [live.id] });
    const canyon = await api.createScene({ name: 'Canyon Evening', layout_type: 'grid', selection_algorithm: 'manual', max_streams: 5, stream_ids: [clip.id] });
    await api.setDefaultScene(harbour.id);
    await api.request<ScreenGroupDto>('POST', '/screen-groups', { name: 'Lobby', scene_id: canyon.id });
    await api.request<ScreenGroupDto>('POST', '/screen-groups', { name: 'Cafe' });

    // A fresh browser opens a wall address: it shows a code, and nothing of the programme.
    const wall = await wallContext.newPage();
    await wall.goto('/?name=Lobby%20left&group=cafe');
    await expect(wall.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
    await expect.poll(() => codeOf(wall)).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{6}$`));
    const code = (await codeOf(wall))!;
    await expect(wall.getByText(new URL(server.base).host)).toBeVisible();
    await expect(wall.getByRole('img', { name: /QR code/ })).toBeVisible();
    await expect(wall.getByRole('heading', { name: harbour.name })).toHaveCount(0);
    await wall.screenshot({ path: path.join(ARTIFACTS, 'pairing-1440.png') });
    // A kiosk tablet (a browser of its own: one browser holds one credential, so is one screen).
    const tabletContext = await browser.newContext({ baseURL: server.base, viewport: { width: 820, height: 1180 } });
    const tablet = await tabletContext.newPage();
    await tablet.goto('/streams/2?name=Cafe%20kiosk');
    await expect.poll(() => codeOf(tablet)).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{6}$`));
    const tabletCode = (await codeOf(tablet))!;
    expect(tabletCode).not.toBe(code);
    await tablet.screenshot({ path: path.join(ARTIFACTS, 'pairing-tablet.png') });
    await tabletContext.close();

    // The wall's page stays the same page from here on: approval reaches it without a reload.
    await wall.evaluate(() => ((window as unknown as { nwSamePage: boolean }).nwSamePage = true));

    // An admin opens the approval page the QR code names: the code is filled in; the group is theirs.
    const admin = await adminContext.newPage();
    await signIn(admin, `/admin/screens?code=${code}`);
    const form = admin.getByRole('form', { name: 'Approve a screen' });
    await expect(form.getByLabel('Code on the screen')).toHaveValue(code);
    // Or clicked in the list of who waits: the kiosk's code, then the wall's again.
    await admin.getByRole('button', { name: `Use code ${tabletCode.slice(0, 3)} ${tabletCode.slice(3)}` }).click();
    await expect(form.getByLabel('Code on the screen')).toHaveValue(tabletCode);
    await expect(form.getByLabel('Kind')).toHaveValue('kiosk');
    await admin.getByRole('button', { name: `Use code ${code.slice(0, 3)} ${code.slice(3)}` }).click();
    await expect(form.getByLabel('Code on the screen')).toHaveValue(code);
    await expect(form.getByLabel('Kind')).toHaveValue('wall');
    await expect(admin.getByRole('list', { name: 'Screens waiting for approval' }).locator(`[data-code="${code}"]`)).toContainText('asks for group cafe');
    await form.getByLabel('Name').fill('Lobby wall, left');
    await form.getByLabel('Group of the new screen').selectOption({ label: 'Lobby' });
    await admin.screenshot({ path: path.join(ARTIFACTS, 'enrolment-console-1440.png') });
    await form.getByRole('button', { name: 'Approve' }).click();
    await expect(admin.getByRole('list', { name: 'Approved screens' })).toContainText('Lobby wall, left');

    await expect(wall.getByRole('heading', { level: 1 })).toHaveText(canyon.name);
    expect(await wall.evaluate(() => (window as unknown as { nwSamePage?: boolean }).nwSamePage)).toBe(true);
    await expect(wall.locator('[data-pairing-code]')).toHaveCount(0);
    await expect(admin.locator('[data-screen-name="Lobby wall, left"]')).toBeVisible();
    await admin.setViewportSize({ width: 768, height: 1024 });
    await admin.screenshot({ path: path.join(ARTIFACTS, 'enrolment-console-768.png') });
    await admin.setViewportSize({ width: 1440, height: 900 });

    // A reload keeps it a screen (its credential is kept); so does a reload with the server stopped.
    await wall.reload();
    await expect(wall.getByRole('heading', { level: 1 })).toHaveText(canyon.name);
    await expect.poll(() => controlled(wall), { timeout: 30_000 }).toBe(true);
    await server.stop();
    server = null;
    await wall.reload({ waitUntil: 'commit' });
    await expect(wall.getByRole('heading', { level: 1 })).toHaveText(canyon.name);
    await expect(wall.locator('[data-pairing-code]')).toHaveCount(0);
    server = await startNatureWall(env);
    await expect(wall.getByRole('status').filter({ hasText: 'Reconnecting' })).toHaveCount(0, { timeout: 30_000 });
    await expect(wall.getByRole('heading', { level: 1 })).toHaveText(canyon.name);

    // A second fresh browser with the same address and no approval gets no programme; a bare / is public.
    const stranger = await strangerContext.newPage();
    await stranger.goto('/?name=Lobby%20left&group=lobby');
    await expect(stranger.locator('[data-pairing-code]')).toBeVisible();
    await expect(stranger.getByRole('heading', { name: canyon.name })).toHaveCount(0);
    // A visitor's fresh browser on / sees the default scene and no code (and stays that way once
    // its registration is answered); the pairing address asks to be a screen without naming one.
    const visitorContext = await browser.newContext({ baseURL: server.base, viewport: { width: 1440, height: 900 } });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/');
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(harbour.name);
    await expect(visitor.getByRole('status').filter({ hasText: 'Reconnecting' })).toHaveCount(0);
    await visitor.waitForTimeout(1_000);
    await expect(visitor.locator('[data-pairing-code]')).toHaveCount(0);
    await visitor.goto('/pair');
    await expect(visitor.locator('[data-pairing-code]')).toBeVisible();
    await visitorContext.close();

    // Revoked from the console: the wall drops back to the pairing screen within seconds.
    await admin.reload();
    await admin.getByRole('button', { name: 'Revoke Lobby wall, left' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(wall.locator('[data-pairing-code]')).toBeVisible({ timeout: 10_000 });
    await expect.poll(() => codeOf(wall)).not.toBe(code);
    await expect(wall.getByRole('heading', { name: canyon.name })).toHaveCount(0);
  } finally {
    await wallContext.close();
    await adminContext.close();
    await strangerContext.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
