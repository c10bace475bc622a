/**
 * The admin console end to end: streams added (and refused twice), edited, deleted; a manual
 * scene built by dragging and reordered with the keyboard; made the default while a wall and a
 * kiosk switch without reloading; a second admin seeing edits live; the Screens tab with
 * playback health, Reload; failures shown.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expect, markWindow, shownCardNames, test, windowMarker, world } from './support/fixtures.ts';
import { signIn } from './support/admin.ts';

async function adminPage(context: BrowserContext, path = '/admin/streams'): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, path);
  return page;
}

async function drag(page: Page, from: ReturnType<Page['locator']>, to: ReturnType<Page['locator']>) {
  await from.scrollIntoViewIfNeeded();
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 12, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

test('streams: add (and the 409 text on a second add), edit in the modal, delete after the confirmation', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await adminPage(context);
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Add Stream' }) });
  await form.getByLabel('Name', { exact: true }).fill('Glacier Bay Cam');
  await form.getByLabel('URL', { exact: true }).fill('https://cams.example.org/glacier/live.m3u8');
  await form.getByLabel('Category').selectOption('nature');
  await form.getByRole('button', { name: 'Add Stream' }).click();
  const row = page.locator('tr', { hasText: 'Glacier Bay Cam' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Live');

  await form.getByLabel('Name', { exact: true }).fill('Glacier Bay again');
  await form.getByLabel('URL', { exact: true }).fill('https://CAMS.example.org/glacier/live.m3u8');
  await form.getByRole('button', { name: 'Add Stream' }).click();
  await expect(form.getByRole('alert')).toHaveText('Duplicate stream detected');

  await row.getByRole('button', { name: 'Edit Glacier Bay Cam' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Stream' });
  await dialog.getByLabel('Name', { exact: true }).fill('Glacier Bay Live');
  await dialog.getByLabel('Location name').fill('Glacier Bay, Alaska');
  await dialog.getByLabel('Timezone').fill('America/Juneau');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const edited = page.locator('tr', { hasText: 'Glacier Bay Live' });
  await expect(edited).toContainText('Glacier Bay, Alaska');

  await edited.getByRole('button', { name: 'Delete Glacier Bay Live' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete stream' });
  await expect(confirm).toContainText('Delete "Glacier Bay Live"?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('tr', { hasText: 'Glacier Bay Live' })).toHaveCount(0);
  await context.close();
});

test('a failing save shows the server\'s error', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await adminPage(context);
  await page.route('**/api/streams', (route) =>
    route.request().method() === 'PUT' ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' }) : route.fallback(),
  );
  await page.getByRole('button', { name: `Edit ${world.streams.reef.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Stream' });
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Failed to update stream');
  await expect(page.getByText('Internal server error')).toBeVisible(); // the toast carries the server's reason
  await context.close();
});

test('scenes: build a manual scene by dragging, reorder with the keyboard, make it the default while a wall and a kiosk switch', async ({ browser, api }) => {
  const context = await browser.newContext();
  const page = await adminPage(context, '/admin/scenes');
  await page.setViewportSize({ width: 1600, height: 1500 }); // the whole editor on screen: drags need both ends visible
  // The screens: a wall on the default scene, a kiosk at position 2, in another browser.
  const screens = await browser.newContext();
  const wall = await screens.newPage();
  const kiosk = await screens.newPage();
  await wall.goto('/');
  await kiosk.goto('/streams/2');
  await expect(wall.getByRole('heading', { level: 1 })).toHaveText(world.scenes.morning.name);
  await markWindow(wall);
  await markWindow(kiosk);

  // The default scene cannot be deleted, and says why.
  const defaultCard = page.locator('.scene-card', { hasText: world.scenes.morning.name });
  await expect(defaultCard.getByRole('button', { name: `Delete ${world.scenes.morning.name}` })).toBeDisabled();
  await expect(defaultCard.getByText('The default scene cannot be deleted. Choose another default scene first.')).toBeAttached();

  await page.getByRole('button', { name: 'Add Scene' }).click();
  const editor = page.getByRole('dialog', { name: 'New Scene' });
  await editor.getByRole('button', { name: 'Create scene' }).isDisabled();
  await editor.getByLabel('Name', { exact: true }).fill('Dragged Together');
  const slot = (n: number) => editor.locator(`li[data-slot="${n}"]`);
  const available = (name: string) => editor.locator(`li[data-stream-name="${name}"] .available__handle`);
  await drag(page, available(world.streams.reef.name), slot(1));
  await expect(slot(1)).toContainText(world.streams.reef.name);
  await drag(page, available(world.streams.dusk.name), slot(2));
  await drag(page, available(world.streams.savanna.name), slot(3));
  await expect(slot(3)).toContainText(world.streams.savanna.name);
  await expect(editor.getByText('3/5 slots filled')).toBeVisible();
  await expect(editor.locator(`li[data-stream-name="${world.streams.reef.name}"]`)).toHaveCount(0); // placed: hidden

  // Keyboard: pick up slot 1, move it one to the right, drop.
  await slot(1).locator('.slot__handle').focus();
  await page.keyboard.press('Space');
  // dnd-kit announces each step in a live region: wait for it before the next key.
  // "is over slot 1": the slots are measured, so the arrow key has somewhere to go.
  await expect(page.getByText(/is over slot 1\./)).toBeAttached();
  // dnd-kit's keyboard sensor listens for arrow keys from a setTimeout(0) after the pick-up, and the
  // announcement can come first: a timer queued now runs after it, so the arrow key is heard.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText(/over slot 2/)).toBeAttached();
  await page.keyboard.press('Space');
  await expect(slot(1)).toContainText(world.streams.dusk.name);
  await expect(slot(2)).toContainText(world.streams.reef.name);
  await editor.getByRole('button', { name: 'Create scene' }).click();
  await expect(editor).toBeHidden();
  const card = page.locator('.scene-card', { hasText: 'Dragged Together' });
  await expect(card).toBeVisible();

  // Make it the default: the selector asks first, then every screen switches without a reload.
  await page.getByLabel('Walls and kiosks show').selectOption({ label: 'Dragged Together' });
  const confirm = page.getByRole('dialog', { name: 'Switch every wall?' });
  await expect(confirm).toContainText('connected');
  await confirm.getByRole('button', { name: 'Switch all screens' }).click();
  await expect(wall.getByRole('heading', { level: 1 })).toHaveText('Dragged Together');
  await expect.poll(() => shownCardNames(wall)).toEqual([world.streams.dusk.name, world.streams.reef.name, world.streams.savanna.name]);
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(world.streams.reef.name);
  expect(await windowMarker(wall)).toBe('kept');
  expect(await windowMarker(kiosk)).toBe('kept');
  await expect(card.getByText('Default', { exact: true })).toBeVisible();
  await expect(page.getByText(/Last changed by admin/)).toBeVisible();

  await api.setDefaultScene(world.scenes.morning.id);
  await screens.close();
  await context.close();
});

test('a second admin sees the first one\'s edits live', async ({ browser, api }) => {
  const one = await browser.newContext();
  const two = await browser.newContext();
  const first = await adminPage(one);
  const second = await adminPage(two);
  await first.getByRole('button', { name: `Edit ${world.streams.falls.name}` }).click();
  const dialog = first.getByRole('dialog', { name: 'Edit Stream' });
  await dialog.getByLabel('Name', { exact: true }).fill('Highland Falls (edited)');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(second.locator('tr', { hasText: 'Highland Falls (edited)' })).toBeVisible();
  await api.updateStream(world.streams.falls.id, { name: world.streams.falls.name });
  await expect(second.locator('tr', { hasText: 'Highland Falls (edited)' })).toHaveCount(0);
  await one.close();
  await two.close();
});

test('the Screens tab lists the open screens with their playback, and Reload reloads them', async ({ browser }) => {
  const screens = await browser.newContext();
  const wall = await screens.newPage();
  const kiosk = await screens.newPage();
  await wall.goto('/?name=Lobby%20wall');
  await kiosk.goto('/streams/2?name=Tablet%20two');
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(world.streams.kelp.name);

  const context = await browser.newContext();
  const page = await adminPage(context, '/admin/screens');
  const wallRow = page.locator('li.screen-row', { hasText: 'Lobby wall' });
  const kioskRow = page.locator('li.screen-row', { hasText: 'Tablet two' });
  await expect(wallRow).toContainText('Online');
  await expect(wallRow).toContainText(`Shows ${world.scenes.morning.name} · by the default scene`);
  await expect(kioskRow).toContainText('position 2');
  await expect(kioskRow.locator('.health__item', { hasText: world.streams.kelp.name })).toContainText(/playing|loading|buffering/);

  await markWindow(wall);
  await markWindow(kiosk);
  await page.getByRole('button', { name: 'Reload all screens' }).click();
  for (const screen of [wall, kiosk]) await expect.poll(() => windowMarker(screen).catch(() => 'navigating')).toBeUndefined();
  await expect(kiosk.getByRole('heading', { level: 1 })).toHaveText(world.streams.kelp.name);
  await screens.close();
  await context.close();
});
