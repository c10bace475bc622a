/**
 * Quality's live slice: the latest "analyze all" and its failures, which streams are being
 * analysed now and the newest analysis of each (the grade card's faults), and the analysis
 * queue — all merged by the one versioned rule, so analyses that finish side by side and whose
 * pushes cross never put an older figure back.
 */
import { atom } from 'jotai';
import type { QualityAnalysisDto, QualityQueueDto, QualityRunDto } from '../../../../src/shared/api/index.ts';
import { applyPush, type LiveRecords } from '../../../../src/shared/live-records.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { fetchValue, pushValue, valueOf, type LiveSlice, type LiveValue } from '../live/live.ts';

export const qualityRunAtom = atom<LiveValue<QualityRunDto | null>>(null);
/** Per stream: whether an analysis of it runs now. */
export const analyzingAtom = atom<LiveRecords<boolean>>(new Map());
/** Per stream: the newest analysis this console has seen. */
export const lastAnalysisAtom = atom<LiveRecords<QualityAnalysisDto>>(new Map());
/** The failures of the run shown (reset when another run starts). */
export const runFailuresAtom = atom<readonly { stream_id: number; name: string; error: string }[]>([]);
export const qualityQueueAtom = atom<LiveValue<QualityQueueDto>>(null);

/** The run shown now, if any. */
export const currentRun = () => valueOf(store.get(qualityRunAtom));

/** The run this console just started (its answer), before its first push arrives. */
export function startedRun(run: QualityRunDto): void {
  if (currentRun()?.id !== run.id) store.set(runFailuresAtom, []);
  store.set(qualityRunAtom, { value: run, version: store.get(qualityRunAtom)?.version ?? 0 });
}

export const qualityLive: LiveSlice = {
  name: 'quality',
  load() {
    store.set(analyzingAtom, new Map()); // after a reconnect, what ran meanwhile has ended or is pushed again
    void fetchValue(qualityRunAtom, async () => (await adminApi.latestQualityRun()).run, null); // the Streams tab shows the run's own errors
    void fetchValue(qualityQueueAtom, adminApi.qualityQueue, null); // a node without the job queue has no queue to show
  },
  listen(socket) {
    socket.on('quality:queue', (queue) => pushValue(qualityQueueAtom, queue, queue.version));
    socket.on('quality:progress', (p) => {
      if (p.run) {
        if (currentRun()?.id !== p.run.id && (store.get(qualityRunAtom)?.version ?? -1) < p.version) store.set(runFailuresAtom, []);
        pushValue(qualityRunAtom, p.run, p.version);
      }
      if (p.stream_id === null) return;
      const id = p.stream_id;
      store.set(analyzingAtom, (records) => applyPush(records, id, p.status === 'analyzing', p.version));
      const analysis = p.analysis;
      if (!analysis) return;
      store.set(lastAnalysisAtom, (records) => applyPush(records, id, analysis, p.version));
      const failed = analysis.error !== null || analysis.faults.includes('unreachable');
      if (p.run && failed && currentRun()?.id === p.run.id) {
        store.set(runFailuresAtom, (list) => [...list, { stream_id: id, name: p.stream_name ?? `Stream #${id}`, error: analysis.error ?? analysis.faults.join(', ') }]);
      }
    });
  },
};
