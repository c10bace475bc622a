import type { DiscoveryJobDto, DiscoverySourceDto, DiscoveryStatDto } from '../../shared/api/index.ts';
import type { DiscoveryJob, DiscoverySource, DiscoveryStat } from './discovery.entity.ts';

export function presentSource(s: DiscoverySource): DiscoverySourceDto {
  return {
    id: s.id,
    name: s.name,
    platform: s.platform,
    url: s.url ?? null,
    config: s.config,
    schedule: s.schedule ?? null,
    deliver: s.deliver,
    active: s.active,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

export function presentJob(j: DiscoveryJob): DiscoveryJobDto {
  return {
    id: j.id,
    source_id: j.source?.id ?? null,
    source_name: j.source?.name ?? null,
    status: j.status,
    trigger: j.trigger,
    error_message: j.errorMessage ?? null,
    streams_discovered: j.streamsDiscovered,
    streams_added: j.streamsAdded,
    streams_reviewed: j.streamsReviewed,
    streams_inactive: j.streamsInactive,
    skipped: j.skipped,
    attempts: j.attempts,
    created_at: j.createdAt.toISOString(),
    started_at: j.startedAt ? j.startedAt.toISOString() : null,
    finished_at: j.finishedAt ? j.finishedAt.toISOString() : null,
  };
}

export function presentStat(s: DiscoveryStat): DiscoveryStatDto {
  return {
    source_id: s.sourceId,
    source_name: s.sourceName,
    last_run: s.lastRun ? s.lastRun.toISOString() : null,
    total_added: s.totalAdded,
    total_discovered: s.totalDiscovered,
  };
}
