/** The Stream Discovery panel's rules (spec §4, §8): last-run texts, card states, job lines. */
import type { DiscoveryJobDto, DiscoverySourceDto } from '../../../../src/shared/api/index.ts';
import type { DiscoveryPlatform } from '../../../../src/shared/constants.ts';

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
    const n = Math.floor(hours);
    return `Last run: ${n} ${n === 1 ? 'hour' : 'hours'} ago`;
  }
  const days = Math.floor(hours / 24);
  return `Last run: ${days} ${days === 1 ? 'day' : 'days'} ago`;
}

export type CardState = { kind: 'running'; job: DiscoveryJobDto | null } | { kind: 'failed'; error: string } | { kind: 'idle' };

/** Running while a run is pending (asked for, not answered) or its newest job is queued or running; failed when that job failed. */
export function cardState(source: DiscoverySourceDto, jobs: readonly DiscoveryJobDto[], pending: boolean): CardState {
  const newest = jobs.filter((j) => j.source_id === source.id).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)[0];
  if (newest && (newest.status === 'running' || newest.status === 'queued')) return { kind: 'running', job: newest };
  if (pending) return { kind: 'running', job: null };
  if (newest?.status === 'failed') return { kind: 'failed', error: newest.error_message || 'Failed' };
  return { kind: 'idle' };
}

export const foundAdded = (job: Pick<DiscoveryJobDto, 'streams_discovered' | 'streams_added'>) => `Found: ${job.streams_discovered} • Added: ${job.streams_added}`;

export const jobSourceName = (job: DiscoveryJobDto) => job.source_name ?? `Source #${job.source_id ?? job.id}`;

/** Newest first, one entry per job (a push replaces the job it is about). */
export function mergeJob(jobs: readonly DiscoveryJobDto[], job: DiscoveryJobDto, keep = 10): DiscoveryJobDto[] {
  return [job, ...jobs.filter((j) => j.id !== job.id)].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id).slice(0, keep);
}
