import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDto, StreamDto } from '../../src/shared/api/index.ts';
import { SceneStream } from '../../src/modules/scenes/scene.entity.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { buildScene, buildStream } from '../support/factories.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const count = () => app.orm.em.fork().count(Stream, {});

describe('POST /api/streams', () => {
  it('creates a stream with the spec defaults (category nature, quality hd, active)', async () => {
    const res = await app.request<StreamDto>('POST', '/api/streams', { name: '  Etosha waterhole ', url: 'https://youtu.be/AeMUdOPFcXI' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Etosha waterhole',
      url: 'https://youtu.be/AeMUdOPFcXI',
      category: 'nature',
      quality: 'hd',
      active: true,
      description: null,
      quality_score: null,
      latitude: null,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(app.published).toContainEqual(expect.objectContaining({ type: 'stream.created', streamId: res.body.id }));
  });

  it('stores every held field; coordinates may come as text, empty text means none', async () => {
    const res = await app.request<StreamDto>('POST', '/api/streams', {
      name: 'Kilauea',
      url: 'https://example.org/kilauea/live.m3u8',
      description: 'Summit cam',
      category: 'volcano',
      quality: '4k',
      active: false,
      location_name: "Halema'uma'u",
      latitude: '19.41',
      longitude: -155.28,
      timezone: 'Pacific/Honolulu',
      fallback_url: '',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      category: 'volcano', quality: '4k', active: false, latitude: 19.41, longitude: -155.28,
      timezone: 'Pacific/Honolulu', location_name: "Halema'uma'u", fallback_url: null, description: 'Summit cam',
    });
  });

  it('adds https:// to a scheme-less platform link', async () => {
    const res = await app.request<StreamDto>('POST', '/api/streams', { name: 'Alveus', url: 'twitch.tv/alveussanctuary' });
    expect(res.status).toBe(201);
    expect(res.body.url).toBe('https://twitch.tv/alveussanctuary');
  });

  it('refuses a duplicate of the same camera in another URL form with 409', async () => {
    const before = await count();
    const res = await app.request<ErrorDto>('POST', '/api/streams', { name: 'Again', url: 'https://www.youtube.com/embed/AeMUdOPFcXI?autoplay=1' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Duplicate stream detected' });
    expect(await count()).toBe(before);
  });

  it.each([
    ['a missing name', { url: 'https://a.org/x.m3u8' }, 'name: Name is required'],
    ['a blank name', { name: '   ', url: 'https://a.org/x.m3u8' }, 'name: Name is required'],
    ['a missing url', { name: 'X' }, 'url: URL is required'],
    ['an invalid url', { name: 'X', url: 'not a url' }, 'url: Please enter a valid URL'],
    ['a javascript: url', { name: 'X', url: 'javascript:alert(1)' }, 'url: Please enter a valid URL'],
    ['an unknown category', { name: 'X', url: 'https://a.org/1.m3u8', category: 'desert' }, 'category: '],
    ['an unknown quality', { name: 'X', url: 'https://a.org/2.m3u8', quality: '8k' }, 'quality: '],
    ['latitude above 90', { name: 'X', url: 'https://a.org/3.m3u8', latitude: 91 }, 'latitude: Latitude must be between -90 and 90'],
    ['longitude below -180', { name: 'X', url: 'https://a.org/4.m3u8', longitude: -181 }, 'longitude: Longitude must be between -180 and 180'],
    ['non-numeric latitude', { name: 'X', url: 'https://a.org/5.m3u8', latitude: 'north' }, 'latitude: '],
    ['an unknown timezone', { name: 'X', url: 'https://a.org/6.m3u8', timezone: 'Mars/Base' }, 'timezone: Unknown timezone'],
    ['a name with a NUL character', { name: 'a\u0000b', url: 'https://a.org/7.m3u8' }, 'name: Contains a control character (U+0000 at character 2)'],
    ['a name that is too long', { name: 'x'.repeat(201), url: 'https://a.org/8.m3u8' }, 'name: Must be at most 200 characters'],
    ['active that is not a boolean', { name: 'X', url: 'https://a.org/9.m3u8', active: 'yes' }, 'active: '],
  ])('answers 400 for %s and writes nothing', async (_case, body, message) => {
    const before = await count();
    const res = await app.request<ErrorDto>('POST', '/api/streams', body);
    expect(res.status).toBe(400);
    expect(res.body.error.startsWith(message)).toBe(true);
    expect(res.body.details?.length).toBeGreaterThan(0);
    expect(await count()).toBe(before);
  });

  it('ignores unknown fields instead of storing or failing on them', async () => {
    const res = await app.request<StreamDto & { hacker?: unknown }>('POST', '/api/streams', {
      name: 'Extra', url: 'https://a.org/extra.m3u8', hacker: true, id: 999, quality_score: 100,
    });
    expect(res.status).toBe(201);
    expect(res.body.hacker).toBeUndefined();
    expect(res.body.id).not.toBe(999);
    expect(res.body.quality_score).toBeNull();
  });
});

describe('GET /api/streams', () => {
  it('lists streams newest first and filters by active', async () => {
    const all = await app.request<StreamDto[]>('GET', '/api/streams');
    expect(all.status).toBe(200);
    const times = all.body.map((s) => s.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const active = await app.request<StreamDto[]>('GET', '/api/streams?active=true');
    const inactive = await app.request<StreamDto[]>('GET', '/api/streams?active=false');
    expect(active.body.every((s) => s.active)).toBe(true);
    expect(inactive.body.every((s) => !s.active)).toBe(true);
    expect(active.body.length + inactive.body.length).toBe(all.body.length);
  });

  it('refuses a bad filter with 400', async () => {
    const res = await app.request<ErrorDto>('GET', '/api/streams?active=maybe');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^active: /);
  });

  it('reads one stream by id; unknown is 404, malformed is 400', async () => {
    const stream = await buildStream(app.orm.em.fork(), { name: 'One' });
    expect((await app.request<StreamDto>('GET', `/api/streams/${stream.id}`)).body.name).toBe('One');
    expect((await app.request('GET', '/api/streams/999999')).status).toBe(404);
    expect((await app.request('GET', '/api/streams/abc')).status).toBe(400);
    expect((await app.request('GET', '/api/streams/99999999999999')).status).toBe(400);
  });
});

describe('PUT /api/streams', () => {
  it('changes only the fields given and answers success', async () => {
    const stream = await buildStream(app.orm.em.fork(), { name: 'Before', active: false, category: 'ocean' });
    const res = await app.request<{ success: boolean; stream: StreamDto }>('PUT', '/api/streams', { id: stream.id, name: 'After' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.stream).toMatchObject({ name: 'After', active: false, category: 'ocean', url: stream.url });
    expect(app.published).toContainEqual(expect.objectContaining({ type: 'stream.updated', streamId: stream.id }));
  });

  it('clears optional fields with null', async () => {
    const stream = await buildStream(app.orm.em.fork(), { latitude: 10, longitude: 10, timezone: 'UTC' });
    const res = await app.request<{ stream: StreamDto }>('PUT', '/api/streams', { id: stream.id, latitude: null, timezone: '' });
    expect(res.body.stream).toMatchObject({ latitude: null, longitude: 10, timezone: null });
  });

  it('refuses a URL that another stream already has (409) and keeps the old one', async () => {
    const em = app.orm.em.fork();
    const a = await buildStream(em);
    const b = await buildStream(em);
    const res = await app.request<ErrorDto>('PUT', '/api/streams', { id: b.id, url: `${a.url}/` });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Duplicate stream detected');
    expect((await app.orm.em.fork().findOneOrFail(Stream, b.id)).url).toBe(b.url);
  });

  it('allows saving a stream with its own URL', async () => {
    const b = await buildStream(app.orm.em.fork());
    expect((await app.request('PUT', '/api/streams', { id: b.id, url: b.url, name: 'Same url' })).status).toBe(200);
  });

  it.each([
    ['no id', { name: 'x' }, 400, /^id: /],
    ['a non-numeric id', { id: 'abc' }, 400, /^id: /],
    ['a negative id', { id: -1 }, 400, /^id: /],
    ['an id beyond 32 bits', { id: 2 ** 40 }, 400, /^id: /],
    ['an unknown id', { id: 987654 }, 404, /^Stream not found/],
    ['a blank name', { id: 1, name: ' ' }, 400, /^name: Name is required/],
  ])('answers %s with its status', async (_case, body, status, message) => {
    const res = await app.request<ErrorDto>('PUT', '/api/streams', body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatch(message);
  });
});

describe('DELETE /api/streams', () => {
  it('removes the stream and its scene slots, reporting the scenes that showed it', async () => {
    const em = app.orm.em.fork();
    const stream = await buildStream(em);
    const other = await buildStream(em);
    const scene = await buildScene(em, { streams: [other, stream] });
    const res = await app.request('DELETE', '/api/streams', { id: stream.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const check = app.orm.em.fork();
    expect(await check.count(Stream, { id: stream.id })).toBe(0);
    expect(await check.count(SceneStream, { scene: scene.id })).toBe(1);
    expect(app.published).toContainEqual({ type: 'stream.deleted', streamId: stream.id, name: stream.name, sceneIds: [scene.id] });
  });

  it('answers 404 for an unknown id and 400 without one', async () => {
    expect((await app.request('DELETE', '/api/streams', { id: 424242 })).status).toBe(404);
    expect((await app.request('DELETE', '/api/streams', {})).status).toBe(400);
    expect((await app.request('DELETE', '/api/streams')).status).toBe(400);
  });
});
