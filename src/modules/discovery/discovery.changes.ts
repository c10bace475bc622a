/** Discovery's change types, and the pushes that let every admin watch sources and runs live. */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { presentJob, presentSource, presentStat } from './discovery.presenter.ts';
import { DiscoveryJob, DiscoverySource, DiscoveryStat } from './discovery.entity.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'discovery.created': { type: 'discovery.created'; sourceId: number; name: string };
    'discovery.updated': { type: 'discovery.updated'; sourceId: number; name: string };
    'discovery.deleted': { type: 'discovery.deleted'; sourceId: number; name: string };
    /** A run was queued (by an admin, Run All or the schedule). */
    'discovery.started': { type: 'discovery.started'; jobId: number; sourceId: number; name: string };
    /** A run began working or found more: pushed, never journaled. */
    'discovery.progress': { type: 'discovery.progress'; jobId: number; transient: true };
    /** A run ended, completed or failed; `name` reads "<source>: found X, added Y". */
    'discovery.finished': { type: 'discovery.finished'; jobId: number; sourceId: number | null; name: string };
  }
}

export function discoveryPushes(orm: Orm): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'discovery',
    rooms: admins,
    async pushes(changes, { version }) {
      const em = orm.em.fork();
      const out = [];
      if (changesOf(changes, 'discovery.created', 'discovery.updated', 'discovery.deleted').length > 0) {
        const sources = await em.find(DiscoverySource, {}, { orderBy: { name: 'asc' } });
        out.push(push(admins, 'discovery:sources', { version, sources: sources.map(presentSource) }));
      }
      const jobIds = [...new Set(changesOf(changes, 'discovery.started', 'discovery.progress', 'discovery.finished').map((c) => c.jobId))];
      if (jobIds.length > 0) {
        const jobs = await em.find(DiscoveryJob, { id: { $in: jobIds } }, { populate: ['source'] });
        const sourceIds = jobs.flatMap((j) => (j.source ? [j.source.id] : []));
        const stats = sourceIds.length > 0 ? await em.find(DiscoveryStat, { sourceId: { $in: sourceIds } }) : [];
        const statOf = new Map(stats.map((s) => [s.sourceId, presentStat(s)]));
        for (const job of jobs) {
          out.push(push(admins, 'discovery:progress', { version, job: presentJob(job), stats: job.source ? (statOf.get(job.source.id) ?? null) : null }));
        }
      }
      return out;
    },
  };
}
