/** Quality's change types, and the progress pushes admins watch an "analyze all" by. */
import type { Orm } from '../../db.ts';
import { changesOf } from '../../domain/changes.ts';
import { push, type FeaturePushes, type Push } from '../../realtime/pushes.ts';
import type { QualityQueueDto } from '../../shared/api/quality.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';
import { presentAnalysis, presentRun } from './quality.presenter.ts';
import { QualityAnalysis, QualityRun } from './quality.entity.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    /** An analysis of a stream ended (scored, or failed); `runId` when part of an "analyze all". */
    'quality.analyzed': { type: 'quality.analyzed'; streamId: number; analysisId: number; name: string; runId?: number; transient: true };
    /** An analysis started. */
    'quality.started': { type: 'quality.started'; streamId: number; name: string; runId?: number; transient: true };
    /** An "analyze all" was queued (journaled: who asked). */
    'quality.queued': { type: 'quality.queued'; runId: number; name: string };
    /** What the analysis queue holds now (news for the console). */
    'quality.queue': { type: 'quality.queue'; queue: Omit<QualityQueueDto, 'version'>; transient: true };
  }
}

export function qualityPushes(orm: Orm): FeaturePushes {
  const admins = [KIND_ROOMS.admin];
  return {
    name: 'quality',
    rooms: admins,
    async pushes(changes, { version }) {
      // Only the newest queue status of a batch matters.
      const queue = changesOf(changes, 'quality.queue').at(-1);
      const queuePush: Push[] = queue ? [push(admins, 'quality:queue', { version, ...queue.queue })] : [];
      const events = changesOf(changes, 'quality.analyzed', 'quality.started', 'quality.queued');
      if (events.length === 0) return queuePush;
      const em = orm.em.fork();
      const runIds = [...new Set(events.flatMap((e) => ('runId' in e && e.runId ? [e.runId] : [])))];
      const runs = new Map((runIds.length ? await em.find(QualityRun, { id: { $in: runIds } }) : []).map((r) => [r.id, presentRun(r)]));
      const analysisIds = changesOf(events, 'quality.analyzed').map((e) => e.analysisId);
      const analyses = new Map((analysisIds.length ? await em.find(QualityAnalysis, { id: { $in: analysisIds } }) : []).map((a) => [a.id, a]));
      const out: Push[] = [...queuePush];
      for (const event of events) {
        const run = 'runId' in event && event.runId ? (runs.get(event.runId) ?? null) : null;
        if (event.type === 'quality.queued') {
          out.push(push(admins, 'quality:progress', { version, run, stream_id: null, stream_name: null, status: 'queued', analysis: null }));
          continue;
        }
        const analysis = event.type === 'quality.analyzed' ? (analyses.get(event.analysisId) ?? null) : null;
        out.push(
          push(admins, 'quality:progress', {
            version,
            run,
            stream_id: event.streamId,
            stream_name: event.name,
            status: event.type === 'quality.started' ? 'analyzing' : analysis?.error && analysis.score === null ? 'failed' : 'done',
            analysis: analysis ? presentAnalysis(analysis) : null,
          }),
        );
      }
      return out;
    },
  };
}
