/** Discovery queries (sources, jobs, per-source stats); the discovery runs land with their issue. */
import type { EntityManager } from '../../db.ts';
import { DiscoveryJob, DiscoverySource, DiscoveryStat } from './discovery.entity.ts';

export function listSources(em: EntityManager): Promise<DiscoverySource[]> {
  return em.find(DiscoverySource, {}, { orderBy: { name: 'asc' } });
}

/** The newest jobs first, with their source. */
export function listJobs(em: EntityManager, limit: number): Promise<DiscoveryJob[]> {
  return em.find(DiscoveryJob, {}, { populate: ['source'], orderBy: { createdAt: 'desc', id: 'desc' }, limit });
}

export function listStats(em: EntityManager): Promise<DiscoveryStat[]> {
  return em.find(DiscoveryStat, {}, { orderBy: { sourceName: 'asc' } });
}
