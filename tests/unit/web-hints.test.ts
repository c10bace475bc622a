/** What a screen page's HTML says ahead (src/http/web-hints.ts), over a small build manifest. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SceneDto, SceneStreamDto } from '../../src/shared/api/index.ts';
import type { Registration, ScreenState } from '../../src/shared/events.ts';
import { createWebHints, screenPageAt } from '../../src/http/web-hints.ts';

const manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  'features/kiosk/KioskScreen.tsx': { file: 'assets/KioskScreen-1.js', imports: ['index.html', '_react-1.js', '_Player-1.js'], css: ['assets/KioskScreen-1.css'] },
  'features/viewer/SceneViewer.tsx': { file: 'assets/SceneViewer-1.js', imports: ['index.html', '_Player-1.js'] },
  'features/wall/LiveWall.tsx': { file: 'assets/LiveWall-1.js', imports: ['index.html'] },
  '_Player-1.js': { file: 'assets/Player-1.js', css: ['assets/Player-1.css'] },
  '../node_modules/hls.js/dist/hls.light.mjs': { file: 'assets/hls.light-1.js', isDynamicEntry: true },
};
const dist = mkdtempSync(path.join(os.tmpdir(), 'nw-hints-'));
mkdirSync(path.join(dist, '.vite'));
writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));

const stream = (position: number, url: string, name = `Cam ${position}`) => ({ id: position, position, url, fallback_url: null, name }) as unknown as SceneStreamDto;
const scene = { id: 7, name: 'Morning', slug: 'morning' } as SceneDto;
const STREAMS = [
  stream(1, 'https://cams.example.org/bears/index.m3u8'),
  stream(2, 'https://files.example.net/falls.mp4'),
  stream(3, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'Owl </script><script>alert(1)</script>'),
];

function stateOf(registration: Registration): ScreenState {
  if (registration.kind === 'kiosk') {
    const s = STREAMS.find((x) => x.position === registration.position) ?? null;
    return { kind: 'kiosk', version: 4, follows: registration.sceneSlug ?? null, position: registration.position, scene, stream: s, problem: s ? null : 'no-stream-at-position' };
  }
  return { kind: 'wall', version: 4, follows: registration.kind === 'wall' ? (registration.sceneSlug ?? null) : null, scene, streams: STREAMS, problem: null };
}

const seen: Registration[] = [];
const hints = createWebHints({
  distDir: dist,
  stateFor: async (registration) => {
    seen.push(registration);
    return stateOf(registration);
  },
});

/** The state a page's HTML carries, read back as the browser would. */
function carried(html: string): ScreenState | null {
  const found = /<script type="application\/json" id="nw-screen-state">(.*?)<\/script>/s.exec(html);
  return found ? (JSON.parse(found[1]!) as ScreenState) : null;
}

describe('screen pages by path', () => {
  it.each([
    ['/', 'features/viewer/SceneViewer.tsx', { kind: 'wall' }],
    ['/scenes/morning', 'features/viewer/SceneViewer.tsx', { kind: 'wall', sceneSlug: 'morning' }],
    ['/scenes/morning/2', 'features/kiosk/KioskScreen.tsx', { kind: 'kiosk', sceneSlug: 'morning', position: 2 }],
    ['/streams/5', 'features/kiosk/KioskScreen.tsx', { kind: 'kiosk', position: 5 }],
    ['/app', 'features/wall/LiveWall.tsx', { kind: 'wall' }],
    ['/scenes/caf%C3%A9', 'features/viewer/SceneViewer.tsx', { kind: 'wall', sceneSlug: 'café' }],
  ])('%s is %s', (pathname, module, registration) => {
    const found = screenPageAt(pathname);
    expect(found?.page.module).toBe(module);
    expect(found?.registration).toEqual(registration);
  });

  it.each(['/streams/9', '/streams/0', '/streams/abc', '/streams/1.5'])('%s is a kiosk page with nothing to register', (pathname) => {
    expect(screenPageAt(pathname)?.page.module).toBe('features/kiosk/KioskScreen.tsx');
    expect(screenPageAt(pathname)?.registration).toBeNull();
  });

  it.each(['/admin', '/admin/streams', '/submit', '/login', '/scenes/a/b/c', '/scenes/%E0%A4%A'])('%s is no screen page', (pathname) => {
    expect(screenPageAt(pathname)).toBeNull();
  });
});

describe('hints in a screen page', () => {
  it('an HLS kiosk: its page, hls.js marked for the player, its playlist, a CORS connection, its state', async () => {
    const html = (await hints.forPath('/streams/1', 'wall.example.com')).html;
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/KioskScreen-1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/Player-1.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/KioskScreen-1.css">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/Player-1.css">');
    // What the entry already loads is not said twice.
    expect(html).not.toContain('index-1.js');
    expect(html).not.toContain('react-1.js');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/hls.light-1.js" data-player="hls">');
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="https://cams.example.org/bears/index.m3u8">');
    expect(html).toContain('<link rel="preconnect" href="https://cams.example.org" crossorigin>');
    expect(carried(html)).toMatchObject({ kind: 'kiosk', position: 1, stream: { id: 1 } });
  });

  it('a kiosk showing a file never hints hls.js', async () => {
    const html = (await hints.forPath('/scenes/morning/2', 'wall.example.com')).html;
    expect(html).not.toContain('hls');
    expect(html).toContain('<link rel="preconnect" href="https://files.example.net">');
    expect(carried(html)).toMatchObject({ kind: 'kiosk', follows: 'morning', position: 2 });
  });

  it("a wall: every tile's origin, and text that cannot end the script element", async () => {
    const html = (await hints.forPath('/', 'wall.example.com')).html;
    expect(html).toContain('data-player="hls"');
    expect(html).toContain('<link rel="preconnect" href="https://www.youtube.com">');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(carried(html)?.kind).toBe('wall');
    expect((carried(html) as Extract<ScreenState, { kind: 'wall' }>).streams[2]!.name).toBe('Owl </script><script>alert(1)</script>');
  });

  it('other pages get nothing, and an invalid position gets its page but no state', async () => {
    expect((await hints.forPath('/admin/streams', 'wall.example.com')).html).toBe('');
    const before = seen.length;
    const html = (await hints.forPath('/streams/9', 'wall.example.com')).html;
    expect(html).toContain('KioskScreen-1.js');
    expect(carried(html)).toBeNull();
    expect(seen.length).toBe(before);
  });

  it('a state that cannot be read at once is left out, the page hints stay', async () => {
    const slow = createWebHints({ distDir: dist, stateFor: () => new Promise(() => {}) });
    const failing = createWebHints({ distDir: dist, stateFor: () => Promise.reject(new Error('database is away')) });
    for (const h of [slow, failing]) {
      const html = (await h.forPath('/streams/1', 'wall.example.com')).html;
      expect(html).toContain('KioskScreen-1.js');
      expect(html).not.toContain('nw-screen-state');
    }
  });

  it('without a build manifest, nothing', async () => {
    const bare = createWebHints({ distDir: mkdtempSync(path.join(os.tmpdir(), 'nw-hints-')), stateFor: async (r) => stateOf(r) });
    expect((await bare.forPath('/streams/1', 'wall.example.com')).html).toBe('');
  });
});

describe("a kiosk's camera started before the app (web/prestart.ts)", () => {
  // The build once the prestart entry imports hls.js too: hls.js is a shared chunk, known by its name.
  const withPrestart = {
    ...manifest,
    'prestart.ts': { file: 'assets/prestart-1.js', isEntry: true, imports: ['_hls.light-2.js', '_start-media-1.js'] },
    '_start-media-1.js': { file: 'assets/start-media-1.js', imports: ['_react-1.js'] },
    '_hls.light-2.js': { file: 'assets/hls.light-2.js', name: 'hls.light' },
  } as Record<string, unknown>;
  delete withPrestart['../node_modules/hls.js/dist/hls.light.mjs'];
  const prestartDist = mkdtempSync(path.join(os.tmpdir(), 'nw-hints-'));
  mkdirSync(path.join(prestartDist, '.vite'));
  writeFileSync(path.join(prestartDist, '.vite', 'manifest.json'), JSON.stringify(withPrestart));
  const prestartHints = createWebHints({ distDir: prestartDist, stateFor: async (r) => stateOf(r) });

  it('an HLS kiosk loads it async with all it imports, before its page, and hls.js is still marked for the player', async () => {
    const html = (await prestartHints.forPath('/streams/1', 'wall.example.com')).html;
    expect(html).toContain('<script type="module" async crossorigin src="/assets/prestart-1.js"></script>');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/hls.light-2.js" data-player="hls">');
    // Its own imports in full, even what the app's entry loads too: it may run first.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/start-media-1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/react-1.js">');
    expect(html.indexOf('nw-screen-state')).toBeLessThan(html.indexOf('prestart-1.js'));
    expect(html.indexOf('prestart-1.js')).toBeLessThan(html.indexOf('KioskScreen-1.js'));
    expect((await prestartHints.forPath('/streams/1', 'wall.example.com')).ahead).toBe(true);
  });

  it('a kiosk showing a file, and a wall, start nothing before the app', async () => {
    expect((await prestartHints.forPath('/scenes/morning/2', 'wall.example.com')).html).not.toContain('prestart');
    const wall = (await prestartHints.forPath('/', 'wall.example.com')).html;
    expect(wall).not.toContain('prestart');
    expect(wall).toContain('data-player="hls"');
    expect((await prestartHints.forPath('/', 'wall.example.com')).ahead).toBe(false);
  });
});
