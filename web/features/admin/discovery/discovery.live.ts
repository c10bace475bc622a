/**
 * Discovery's live slice: the sources (pushed whole, they are few), the newest jobs and each
 * source's totals — pushes and fetches merged by the one versioned rule, so a job never seems
 * to go back and a total never shrinks because an answer was slow.
 */
import { atom } from 'jotai';
import type { DiscoveryJobDto, DiscoverySourceDto, DiscoveryStatDto } from '../../../../src/shared/api/index.ts';
import { adminApi } from '../admin-api.ts';
import { emptyList, fetchInto, pushInto, pushListInto, type LiveList, type LiveSlice } from '../live/live.ts';

export const discoverySourcesAtom = atom<LiveList<DiscoverySourceDto>>(emptyList<DiscoverySourceDto>());
/** The jobs the console has seen (the newest ten fetched, and every one pushed since). */
export const discoveryJobsAtom = atom<LiveList<DiscoveryJobDto>>(emptyList<DiscoveryJobDto>());
export const discoveryStatsAtom = atom<LiveList<DiscoveryStatDto>>(emptyList<DiscoveryStatDto>());

export const newestFirst = (a: DiscoveryJobDto, b: DiscoveryJobDto) => b.created_at.localeCompare(a.created_at) || b.id - a.id;

export function loadDiscovery(): void {
  void fetchInto(discoverySourcesAtom, adminApi.discoverySources, (s) => s.id, 'Failed to load discovery sources');
  void fetchInto(discoveryJobsAtom, adminApi.discoveryJobs, (j) => j.id, 'Failed to load discovery jobs', false);
  void fetchInto(discoveryStatsAtom, adminApi.discoveryStats, (s) => s.source_id, 'Failed to load discovery stats');
}

export const discoveryLive: LiveSlice = {
  name: 'discovery',
  load: loadDiscovery,
  listen(socket) {
    socket.on('discovery:sources', ({ version, sources }) => pushListInto(discoverySourcesAtom, sources, (s) => s.id, version));
    socket.on('discovery:progress', ({ version, job, stats }) => {
      pushInto(discoveryJobsAtom, job.id, job, version);
      if (stats) pushInto(discoveryStatsAtom, stats.source_id, stats, version);
    });
  },
};
