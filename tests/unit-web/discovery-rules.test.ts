/** The Stream Discovery panel's rules (spec §4, §8): last-run texts, card states, the jobs list. */
import { describe, expect, it } from 'vitest';
import type { DiscoveryJobDto, DiscoverySourceDto } from '../../src/shared/api/index.ts';
import { cardState, foundAdded, jobSourceName, jobTally, lastRunText } from '../../web/features/admin/discovery/rules.ts';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3_600_000;

const source = { id: 7, name: 'Playlist' } as DiscoverySourceDto;
function job(over: Partial<DiscoveryJobDto>): DiscoveryJobDto {
  return { id: 1, source_id: 7, source_name: 'Playlist', status: 'completed', trigger: 'manual', error_message: null, streams_discovered: 3, streams_added: 2, streams_reviewed: 0, streams_inactive: 0, skipped: {}, attempts: 1, created_at: ago(HOUR), started_at: null, finished_at: null, ...over };
}

describe('last-run text', () => {
  it.each([
    [null, 'Never run'],
    [ago(0), 'Just run'],
    [ago(HOUR - 1000), 'Just run'],
    [ago(HOUR), 'Last run: 1 hour ago'],
    [ago(5.5 * HOUR), 'Last run: 5 hours ago'],
    [ago(24 * HOUR - 1000), 'Last run: 23 hours ago'],
    [ago(24 * HOUR), 'Last run: 1 day ago'],
    [ago(80 * HOUR), 'Last run: 3 days ago'],
  ])('%s → %s', (lastRun, text) => {
    expect(lastRunText(lastRun, NOW)).toBe(text);
  });
});

describe('card state', () => {
  it('is running while a run is pending or the newest job is queued or running', () => {
    expect(cardState(source, [], true).kind).toBe('running');
    expect(cardState(source, [job({ status: 'queued' })], false).kind).toBe('running');
    expect(cardState(source, [job({ id: 2, status: 'running', created_at: ago(10) }), job({ status: 'failed' })], false)).toMatchObject({ kind: 'running', job: { id: 2 } });
  });

  it('is failed with the newest job\'s error, or "Failed" when it has none', () => {
    expect(cardState(source, [job({ status: 'failed', error_message: 'Quota exceeded' })], false)).toEqual({ kind: 'failed', error: 'Quota exceeded' });
    expect(cardState(source, [job({ status: 'failed' })], false)).toEqual({ kind: 'failed', error: 'Failed' });
  });

  it('is idle when the newest job completed (an older failure is history), or there is none', () => {
    expect(cardState(source, [job({ id: 2, created_at: ago(5) }), job({ status: 'failed' })], false).kind).toBe('idle');
    expect(cardState(source, [job({ source_id: 8, status: 'running' })], false).kind).toBe('idle');
  });
});

describe('jobs', () => {
  it('reads "Found: X • Added: Y" and names a job by its source, or "Source #id"', () => {
    expect(foundAdded(job({}))).toBe('Found: 3 • Added: 2');
    expect(jobSourceName(job({}))).toBe('Playlist');
    expect(jobSourceName(job({ source_name: null, source_id: 12 }))).toBe('Source #12');
  });
});

describe('what a run did besides adding', () => {
  it.each([
    [{ streams_reviewed: 0, streams_inactive: 0, skipped: {} }, ''],
    [{ streams_reviewed: 300, streams_inactive: 0, skipped: {} }, 'To review: 300'],
    [{ streams_reviewed: 0, streams_inactive: 1, skipped: { duplicate: 1 } }, 'Inactive (need headers): 1 • Skipped: 1 duplicate'],
    [
      { streams_reviewed: 0, streams_inactive: 10, skipped: { 'non-http': 50, 'not-relevant': 800, duplicate: 40, invalid: 0 } },
      'Inactive (need headers): 10 • Skipped: 800 not nature cams, 50 not HTTP (rtmp, rtsp…), 40 duplicates',
    ],
    [{ streams_reviewed: 2, streams_inactive: 0, skipped: { invalid: 2, 'not-relevant': 1 } }, 'To review: 2 • Skipped: 2 broken addresses, 1 not a nature cam'],
  ] as const)('%j → %s', (tally, text) => {
    expect(jobTally(tally)).toBe(text);
  });
});
