/**
 * Visitor submissions and the review queue: stored once per stream identity, never for a
 * stream the pool has, rate-limited per IP; approved into an active stream (with the
 * reviewer's edits or suggestions) or rejected with a note; every admin sees it live.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorDto, StreamDto } from '../../src/shared/api/index.ts';
import type { RejectMatchingDto, SubmissionDto, SubmissionPageDto, SubmitResultDto } from '../../src/shared/api/submissions.ts';
import type { ActivityDto } from '../../src/shared/api/activity.ts';
import { Submission } from '../../src/modules/submissions/submission.entity.ts';
import { adminHeaders, startTestApp, type TestApp } from '../support/app.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

let app: TestApp;
const screens: TestScreen[] = [];
beforeAll(async () => {
  app = await startTestApp({ hub: true });
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await app?.close();
});

const submit = (body: unknown, headers: Record<string, string> = {}) =>
  app.anonymous<SubmitResultDto & ErrorDto>('POST', '/api/discovery/submit', body, { headers });

describe('POST /api/discovery/submit', () => {
  it('stores a pending submission, anonymous by default, with platform and thumbnail', async () => {
    const res = await submit({ url: 'https://www.youtube.com/watch?v=ydYDqZQpim8', title: 'Brooks Falls' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', duplicate: null, message: 'Thank you! Your stream was submitted for review.' });
    const row = await app.orm.em.fork().findOneOrFail(Submission, { id: res.body.id! });
    expect(row).toMatchObject({ submittedBy: 'anonymous', platform: 'youtube', title: 'Brooks Falls', thumbnail: 'https://i.ytimg.com/vi/ydYDqZQpim8/mqdefault.jpg' });
  });

  it('says plainly when the stream was already submitted or is already on the wall', async () => {
    const again = await submit({ url: 'https://youtu.be/ydYDqZQpim8', submittedBy: 'Ana' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: 'submission', message: 'This stream was already submitted and is waiting for review.' });
    await app.request('POST', '/api/streams', { name: 'Known cam', url: 'https://example.org/known.m3u8' });
    const known = await submit({ url: 'https://EXAMPLE.org/known.m3u8' });
    expect(known.body).toMatchObject({ id: null, duplicate: 'stream', message: 'This stream is already on Nature Wall.' });
  });

  it.each([
    ['a javascript: URL', { url: 'javascript:alert(1)' }],
    ['no URL', { submittedBy: 'x' }],
    ['a submitter name with control characters', { url: 'https://example.org/a.m3u8', submittedBy: 'a\u0007b' }],
    ['a 10 kB URL', { url: `https://example.org/${'a'.repeat(10_000)}.m3u8` }],
  ])('refuses %s with a 400 and stores nothing', async (_rule, body) => {
    const before = await app.orm.em.fork().count(Submission, {});
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^\w+: /);
    expect(await app.orm.em.fork().count(Submission, {})).toBe(before);
  });
});

describe('POST /api/discovery/submit: addresses', () => {
  it.each([
    ['loopback with a port', 'http://127.0.0.1:4601/'],
    ['the unspecified IPv6 address', 'http://[::]:4601/'],
    ['an IPv4-compatible IPv6 loopback', 'http://[::127.0.0.1]/live.m3u8'],
    ['a private address', 'http://192.168.1.20/cam.m3u8'],
    ['localhost', 'http://localhost:3000/cam.m3u8'],
  ])('refuses %s with the extraction\'s message and stores nothing', async (_rule, url) => {
    const before = await app.orm.em.fork().count(Submission, {});
    const res = await submit({ url });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('URL is not allowed');
    expect(await app.orm.em.fork().count(Submission, {})).toBe(before);
  });

  it('refuses a link to the host name the server was reached on', async () => {
    const before = await app.orm.em.fork().count(Submission, {});
    const { port } = new URL(app.baseUrl);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ url: `http://wall.example.org:${port}/api/streams` });
      const req = http.request({ host: '127.0.0.1', port, path: '/api/discovery/submit', method: 'POST', headers: { host: `wall.example.org:${port}`, 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'URL is not allowed' });
    expect(await app.orm.em.fork().count(Submission, {})).toBe(before);
  });
});

describe('the review queue', () => {
  it('is for admins only', async () => {
    expect((await app.anonymous('GET', '/api/submissions')).status).toBe(401);
    expect((await app.anonymous('POST', '/api/submissions/approve', { id: 1 })).status).toBe(401);
  });

  it('lists pending submissions, approves one into an active stream with suggestions, rejects another with a note, live for admins', async () => {
    const admin = openScreen(app.baseUrl, { kind: 'admin' }, adminHeaders);
    screens.push(admin);
    await admin.waitFor((s) => s?.kind === 'admin');
    const pushed: string[] = [];
    admin.client.socket.on('submission:created', (p) => pushed.push(`created:${p.submission.url}:${p.pending}`));
    admin.client.socket.on('submission:reviewed', (p) => pushed.push(`${p.submission.status}:${p.pending}`));

    const a = await submit({ url: 'https://www.twitch.tv/alveussanctuary', submittedBy: 'Kim' });
    const b = await submit({ url: 'https://cdn.example.org/reef/index.m3u8' });
    await expect.poll(() => pushed.filter((p) => p.startsWith('created:'))).toHaveLength(2);

    const pending = (await app.request<SubmissionPageDto>('GET', '/api/submissions')).body.submissions;
    expect(pending.map((s) => s.id)).toEqual(expect.arrayContaining([a.body.id, b.body.id]));
    expect((await app.request<{ pending: number }>('GET', '/api/submissions/count')).body.pending).toBe(pending.length);

    const approved = await app.request<SubmissionDto>('POST', '/api/submissions/approve', { id: a.body.id, category: 'wildlife' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', reviewed_by: 'api-token' });
    const stream = (await app.request<StreamDto>('GET', `/api/streams/${approved.body.stream_id}`)).body;
    expect(stream).toMatchObject({ active: true, category: 'wildlife', name: 'Alveussanctuary (Twitch)' });
    expect(stream.location_name).toBeTruthy(); // the suggested place for a wildlife stream
    expect(stream.timezone).toBeTruthy();

    const rejected = await app.request<SubmissionDto>('POST', '/api/submissions/reject', { id: b.body.id, note: 'Not a nature cam' });
    expect(rejected.body).toMatchObject({ status: 'rejected', review_note: 'Not a nature cam' });
    expect((await app.request<ErrorDto>('POST', '/api/submissions/approve', { id: b.body.id })).status).toBe(409);
    await expect.poll(() => pushed.filter((p) => !p.startsWith('created:'))).toEqual([
      `approved:${pending.length - 1}`,
      `rejected:${pending.length - 2}`,
    ]);

    const history = (await app.request<SubmissionPageDto>('GET', '/api/submissions?status=approved')).body.submissions;
    expect(history.map((s) => s.id)).toContain(a.body.id);
    const activity = (await app.request<ActivityDto[]>('GET', '/api/activity?kind=submission')).body.map((x) => [x.action, x.actor]);
    expect(activity).toEqual(expect.arrayContaining([['submission.created', 'anonymous'], ['submission.approved', 'api-token'], ['submission.rejected', 'api-token']]));
  });

  it('pages through thousands of pending submissions with a cursor, filters them, and rejects a filtered set at once', async () => {
    const em = app.orm.em.fork();
    await em.nativeUpdate(Submission, { status: 'pending' }, { status: 'rejected' });
    await em.execute(
      `insert into submissions (url, normalized_url, title, platform, submitted_by, status, created_at)
        select 'https://iptv.example.org/' || i || '.m3u8', 'iptv.example.org/' || i || '.m3u8', 'Channel ' || i, 'hls',
          case when i % 10 = 0 then 'Visitor' else 'discovery: World IPTV' end, 'pending', now()
        from generate_series(1, 2500) as i`,
    );
    const admin = openScreen(app.baseUrl, { kind: 'admin' }, adminHeaders);
    screens.push(admin);
    await admin.waitFor((s) => s?.kind === 'admin');
    const bulk: number[] = [];
    admin.client.socket.on('submissions:bulk-reviewed', (p) => bulk.push(p.pending));

    // Every one of them can be reached, in order, past the first 200.
    const seen: number[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const page: SubmissionPageDto = (await app.request<SubmissionPageDto>('GET', `/api/submissions?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).body;
      expect(page.total).toBe(2500);
      if (pages === 0) expect(page.submitters).toEqual([{ name: 'discovery: World IPTV', count: 2250 }, { name: 'Visitor', count: 250 }]);
      else expect(page.submitters).toBeNull();
      seen.push(...page.submissions.map((s) => s.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(13);
    expect(new Set(seen).size).toBe(2500);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    const search = (await app.request<SubmissionPageDto>('GET', '/api/submissions?q=Channel%20123&limit=5')).body;
    expect(search.total).toBe(11); // 123, 1230–1239
    const bad = await app.request<ErrorDto>('GET', '/api/submissions?cursor=-4');
    expect(bad.status).toBe(400);

    const res = await app.request<RejectMatchingDto>('POST', '/api/submissions/reject-matching', { filter: { submitted_by: 'discovery: World IPTV' }, note: 'A general TV list' });
    expect(res.body).toEqual({ rejected: 2250, pending: 250 });
    await expect.poll(() => bulk).toEqual([250]);
    const left = (await app.request<SubmissionPageDto>('GET', '/api/submissions')).body;
    expect(left.total).toBe(250);
    expect(left.submissions.every((s) => s.submitted_by === 'Visitor')).toBe(true);
    const activity = (await app.request<ActivityDto[]>('GET', '/api/activity?kind=submission')).body;
    expect(activity.find((a) => a.action === 'submission.bulk-rejected')).toMatchObject({ actor: 'api-token', subject_name: '2250 submissions from discovery: World IPTV' });
    expect((await app.request<RejectMatchingDto>('POST', '/api/submissions/reject-matching', {})).body).toEqual({ rejected: 250, pending: 0 });
  });

  it('rate-limits submissions per IP (429 with Retry-After)', async () => {
    const limited = await startTestApp();
    try {
      let res = { status: 0, headers: new Headers() };
      for (let i = 0; i < 21; i++) res = await limited.anonymous('POST', '/api/discovery/submit', { url: `https://example.org/flood-${i}.m3u8` });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
