/** The Stream Discovery panel's rules (spec §4, §8): last-run texts, card states, job lines. */
import type { DiscoveryJobDto, DiscoverySourceDto } from '../../../../src/shared/api/index.ts';
import type { DiscoveryPlatform, SkipReason } from '../../../../src/shared/constants.ts';
import { countOf, type Forms } from '../../../lib/count.ts';

export const PLATFORM_LABELS: Record<DiscoveryPlatform, string> = {
  youtube: 'YouTube',
  twitch: 'Twitch',
  vimeo: 'Vimeo',
  direct: 'M3U playlist',
  earthcam: 'EarthCam',
  custom: 'Web pages',
};

/** 'Just run' under an hour, 'Last run: N hours ago' under a day, then days; 'Never run'. */
export function lastRunText(lastRun: string | null, now = Date.now()): string {
  if (!lastRun) return 'Never run';
  const hours = Math.max(0, (now - Date.parse(lastRun)) / 3_600_000);
  if (hours < 1) return 'Just run';
  if (hours < 24) {
    return `Last run: ${countOf(Math.floor(hours), ['hour', 'hours'])} ago`;
  }
  return `Last run: ${countOf(Math.floor(hours / 24), ['day', 'days'])} ago`;
}

/** A source's newest job among those the console holds. */
export function newestJobOf(source: Pick<DiscoverySourceDto, 'id'>, jobs: readonly DiscoveryJobDto[]): DiscoveryJobDto | undefined {
  return jobs.filter((j) => j.source_id === source.id).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)[0];
}

export type CardState = { kind: 'running'; job: DiscoveryJobDto | null } | { kind: 'failed'; error: string } | { kind: 'idle' };

/** Running while a run is pending (asked for, not answered) or its newest job is queued or running; failed when that job failed. */
export function cardState(source: DiscoverySourceDto, jobs: readonly DiscoveryJobDto[], pending: boolean): CardState {
  const newest = newestJobOf(source, jobs);
  if (newest && (newest.status === 'running' || newest.status === 'queued')) return { kind: 'running', job: newest };
  if (pending) return { kind: 'running', job: null };
  if (newest?.status === 'failed') return { kind: 'failed', error: newest.error_message || 'Failed' };
  return { kind: 'idle' };
}

export const foundAdded = (job: Pick<DiscoveryJobDto, 'streams_discovered' | 'streams_added'>) => `Found: ${job.streams_discovered} • Added: ${job.streams_added}`;

const SKIP_LABELS: Record<SkipReason, Forms> = {
  'not-relevant': ['not a nature cam', 'not nature cams'],
  'non-http': ['not HTTP (rtmp, rtsp…)', 'not HTTP (rtmp, rtsp…)'],
  duplicate: ['duplicate', 'duplicates'],
  invalid: ['broken address', 'broken addresses'],
};

/**
 * What a run did besides adding, for its line in the jobs list: filed for review, added
 * inactive because they need headers, and what it skipped by reason (largest first). Empty
 * when there is nothing to say.
 */
export function jobTally(job: Pick<DiscoveryJobDto, 'streams_reviewed' | 'streams_inactive' | 'skipped'>): string {
  const parts: string[] = [];
  if (job.streams_reviewed > 0) parts.push(`To review: ${job.streams_reviewed}`);
  if (job.streams_inactive > 0) parts.push(`Inactive (need headers): ${job.streams_inactive}`);
  const skipped = (Object.entries(job.skipped) as [SkipReason, number][]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  if (skipped.length > 0) parts.push(`Skipped: ${skipped.map(([reason, n]) => countOf(n, SKIP_LABELS[reason])).join(', ')}`);
  return parts.join(' • ');
}

export const jobSourceName = (job: DiscoveryJobDto) => job.source_name ?? `Source #${job.source_id ?? job.id}`;
