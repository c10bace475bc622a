/**
 * The admin console's state in the one store: loaded over REST when the console opens, kept
 * current by the hub's pushes to the admins' room (useAdminLive), so two admins see each
 * other's edits at once.
 */
import { atom } from 'jotai';
import type { DiscoveryJobDto, DiscoverySourceDto, DiscoveryStatDto, QualityAnalysisDto, QualityQueueDto, QualityRunDto, SceneDto, StreamDto } from '../../../src/shared/api/index.ts';
import type { ScreenPresence } from '../../../src/shared/events.ts';

export type Loaded<T> = { status: 'loading' } | { status: 'error'; error: string } | { status: 'ready'; value: T };

export const streamsAtom = atom<Loaded<StreamDto[]>>({ status: 'loading' });
export const scenesAtom = atom<Loaded<SceneDto[]>>({ status: 'loading' });
export const defaultSceneIdAtom = atom<number | null>(null);
export const screensAtom = atom<Loaded<ScreenPresence[]>>({ status: 'loading' });
export const pendingSubmissionsAtom = atom<number>(0);
/** Bumped by every push that may change the activity list or the review queue. */
export const activityVersionAtom = atom(0);
export const submissionsVersionAtom = atom(0);
/** Bumped when raters record ratings (the Ratings tab refreshes). */
export const ratingsVersionAtom = atom(0);
export const adminNameAtom = atom<string | null>(null);
/** Stream Discovery: sources, the newest jobs (10 fetched, 5 shown) and per-source totals. */
export const discoverySourcesAtom = atom<Loaded<DiscoverySourceDto[]>>({ status: 'loading' });
export const discoveryJobsAtom = atom<Loaded<DiscoveryJobDto[]>>({ status: 'loading' });
export const discoveryStatsAtom = atom<Loaded<DiscoveryStatDto[]>>({ status: 'loading' });
/** Quality: the latest "analyze all", streams being analysed now, the newest analysis of each stream seen by push, and this run's failures. */
export const qualityRunAtom = atom<QualityRunDto | null>(null);
export const analyzingAtom = atom<ReadonlySet<number>>(new Set<number>());
export const lastAnalysisAtom = atom<ReadonlyMap<number, QualityAnalysisDto>>(new Map());
export const runFailuresAtom = atom<readonly { stream_id: number; name: string; error: string }[]>([]);
/** The analysis queue (waiting by lane, running, per minute); pushes carry a version, the REST answer 0. */
export const qualityQueueAtom = atom<QualityQueueDto | null>(null);

/** The ready value, or an empty list while loading or failed. */
export function readyOr<T>(loaded: Loaded<T>, fallback: T): T {
  return loaded.status === 'ready' ? loaded.value : fallback;
}

/** Replaces or inserts a record by id (pushes arrive for records the list may not have yet). */
export function upsertById<T extends { id: number }>(list: readonly T[], item: T, prepend = false): T[] {
  const index = list.findIndex((x) => x.id === item.id);
  if (index === -1) return prepend ? [item, ...list] : [...list, item];
  return list.map((x, i) => (i === index ? item : x));
}
