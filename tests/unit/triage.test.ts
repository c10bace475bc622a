/** Where one find goes, one row per rule of src/modules/discovery/triage.ts. */
import { describe, expect, it } from 'vitest';
import { triage, type TriagePolicy } from '../../src/modules/discovery/triage.ts';

const policy = (over: Partial<TriagePolicy> = {}): TriagePolicy => ({ deliver: 'pool', trustAll: false, irrelevant: 'review', livePlatform: false, category: undefined, reviewLarge: true, ...over });
const cam = { url: 'https://cams.example.org/bears/index.m3u8', title: 'Brown Bear Cam', thumbnail: null };
const news = { url: 'https://tv.example.org/cnn/index.m3u8', title: 'CNN International', thumbnail: null, meta: { group: 'News' } };

describe('triage', () => {
  it.each([
    ['rtmp is not http', { ...cam, url: 'rtmp://live.example.org/app/x' }, policy(), { to: 'skip', reason: 'non-http' }],
    ['rtsp is not http', { ...cam, url: 'rtsp://10.0.0.2/ch1' }, policy(), { to: 'skip', reason: 'non-http' }],
    ['mmsh is not http', { ...cam, url: 'mmsh://old.example.org/x' }, policy(), { to: 'skip', reason: 'non-http' }],
    ['a broken address', { ...cam, url: 'http://[broken/x' }, policy(), { to: 'skip', reason: 'invalid' }],
    ['a relative line', { ...cam, url: 'streams/x.m3u8' }, policy(), { to: 'skip', reason: 'invalid' }],
    ['an address over the length limit', { ...cam, url: `https://a.example.org/${'x'.repeat(3000)}` }, policy(), { to: 'skip', reason: 'invalid' }],
    ['not relevant, skipped when the source says so', news, policy({ irrelevant: 'skip' }), { to: 'skip', reason: 'not-relevant' }],
  ] as const)('%s', (_rule, stream, p, verdict) => {
    expect(triage(stream, p, null)).toEqual(verdict);
  });

  it.each([
    ['a nature cam goes to the pool', cam, policy(), null, 'pool'],
    ['a nature cam of a review source goes to review', cam, policy({ deliver: 'review' }), null, 'review'],
    ['not relevant goes to review by default', news, policy(), null, 'review'],
    ['a trusted list takes what is not relevant', news, policy({ trustAll: true }), null, 'pool'],
    ['a large playlist goes to review', cam, policy(), 301, 'review'],
    ['a playlist of 300 is not large', cam, policy(), 300, 'pool'],
    ['a large playlist the admin sends to the pool', cam, policy({ reviewLarge: false }), 5000, 'pool'],
  ] as const)('%s', (_rule, stream, p, size, to) => {
    expect(triage(stream, p, size).to).toBe(to);
  });

  it('takes the source\'s category over the suggested one, and cleans the headers it keeps', () => {
    const verdict = triage({ ...cam, headers: { user_agent: 'UA\r\nX-Evil: 1', referrer: null } }, policy({ category: 'nature' }), null);
    expect(verdict).toMatchObject({ to: 'pool', find: { category: 'nature', headers: { user_agent: 'UAX-Evil: 1', referrer: null }, normalizedUrl: 'cams.example.org/bears/index.m3u8' } });
    expect(triage(cam, policy(), null)).toMatchObject({ find: { category: 'wildlife', headers: null } });
  });
});
