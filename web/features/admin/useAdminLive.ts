/**
 * Keeps the console live: loads everything over REST, registers as an admin with the hub and
 * folds its pushes into the store — stream and scene edits, default-scene switches, screens
 * coming and going, submissions and the activity journal. A reconnect loads everything again.
 */
import type { WritableAtom } from 'jotai';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { store } from '../../lib/store.ts';
import { openSocket } from '../../lib/socket.ts';
import { adminApi } from './admin-api.ts';
import { mergeJob } from './discovery/rules.ts';
import {
  activityVersionAtom,
  analyzingAtom,
  lastAnalysisAtom,
  qualityRunAtom,
  ratingsVersionAtom,
  runFailuresAtom,
  defaultSceneIdAtom,
  discoveryJobsAtom,
  discoverySourcesAtom,
  discoveryStatsAtom,
  pendingSubmissionsAtom,
  qualityQueueAtom,
  scenesAtom,
  screensAtom,
  streamsAtom,
  submissionsVersionAtom,
  upsertById,
  type Loaded,
} from './atoms.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Unknown error');

/**
 * Loads one list into its atom; a failure is shown (spec §8 text plus the server's reason).
 * `merge` reconciles the answer with what pushes brought while it was on its way.
 */
export async function load<T>(
  target: WritableAtom<Loaded<T>, [Loaded<T>], void>,
  fetcher: () => Promise<T>,
  failure: string,
  merge?: (current: T, fetched: T) => T,
): Promise<void> {
  try {
    const fetched = await fetcher();
    const current = store.get(target);
    store.set(target, { status: 'ready', value: merge && current.status === 'ready' ? merge(current.value, fetched) : fetched });
  } catch (error) {
    store.set(target, { status: 'error', error: messageOf(error) });
    toast.error(failure, { description: messageOf(error), id: failure });
  }
}

/** Applies a change to a loaded list (a list still loading will read the new state anyway). */
export function updateReady<T>(target: WritableAtom<Loaded<T[]>, [Loaded<T[]>], void>, change: (list: T[]) => T[]): void {
  const current = store.get(target);
  if (current.status === 'ready') store.set(target, { status: 'ready', value: change(current.value) });
}

export function reloadAll(): void {
  void load(streamsAtom, adminApi.streams, 'Failed to fetch streams');
  void load(scenesAtom, adminApi.scenes, 'Failed to fetch scenes');
  void load(screensAtom, adminApi.screens, 'Failed to fetch screens');
  adminApi.defaultScene().then(
    (d) => store.set(defaultSceneIdAtom, d.scene_id),
    (error: unknown) => toast.error('Failed to load the default scene', { description: messageOf(error) }),
  );
  adminApi.latestQualityRun().then(
    ({ run }) => store.set(qualityRunAtom, run),
    () => undefined, // the Streams tab shows the run's own errors
  );
  adminApi.qualityQueue().then(
    // A push that arrived first is as fresh: the REST answer only fills an empty panel.
    (queue) => store.set(qualityQueueAtom, (current) => current ?? queue),
    () => undefined, // a node without the job queue has no queue to show
  );
  adminApi.pendingCount().then(
    (c) => store.set(pendingSubmissionsAtom, c.pending),
    () => undefined, // the Submissions tab shows its own error
  );
  store.set(activityVersionAtom, (n) => n + 1);
  store.set(submissionsVersionAtom, (n) => n + 1);
}

export function useAdminLive(): void {
  useEffect(() => {
    reloadAll();
    const client = openSocket({
      registration: { kind: 'admin', name: 'Admin console' },
      onMessage: () => undefined,
      onError: (error) => toast.error('Live updates are unavailable', { description: error, id: 'admin-socket' }),
    });
    const socket = client.socket;
    let connectedBefore = false;
    socket.on('connect', () => {
      if (connectedBefore) reloadAll(); // catch up on what happened while away
      connectedBefore = true;
    });
    socket.on('stream:created', ({ stream }) => updateReady(streamsAtom, (list) => upsertById(list, stream, true)));
    socket.on('stream:updated', ({ stream }) => updateReady(streamsAtom, (list) => upsertById(list, stream)));
    socket.on('stream:deleted', ({ stream_id }) => updateReady(streamsAtom, (list) => list.filter((s) => s.id !== stream_id)));
    socket.on('scene:updated', ({ scene }) => updateReady(scenesAtom, (list) => upsertById(list, scene, true)));
    // A deleted (deactivated) scene keeps its row: fetch the list to show it inactive.
    socket.on('scene:deleted', () => void load(scenesAtom, adminApi.scenes, 'Failed to fetch scenes'));
    socket.on('scene:default-changed', ({ scene }) => {
      store.set(defaultSceneIdAtom, scene.id);
      void load(scenesAtom, adminApi.scenes, 'Failed to fetch scenes'); // is_default moved
    });
    socket.on('screens:updated', (screens) => store.set(screensAtom, { status: 'ready', value: screens }));
    socket.on('submission:created', ({ pending }) => {
      store.set(pendingSubmissionsAtom, pending);
      store.set(submissionsVersionAtom, (n) => n + 1);
    });
    socket.on('submission:reviewed', ({ pending }) => {
      store.set(pendingSubmissionsAtom, pending);
      store.set(submissionsVersionAtom, (n) => n + 1);
    });
    socket.on('submissions:bulk-reviewed', ({ pending }) => {
      store.set(pendingSubmissionsAtom, pending);
      store.set(submissionsVersionAtom, (n) => n + 1);
    });
    socket.on('quality:queue', (queue) => store.set(qualityQueueAtom, (current) => (current && current.version > queue.version ? current : queue)));
    socket.on('activity:recorded', () => store.set(activityVersionAtom, (n) => n + 1));
    let qualityVersion = 0;
    socket.on('quality:progress', (p) => {
      // Analyses finish side by side and their pushes may cross: an older run figure never replaces a newer one.
      const newest = p.version > qualityVersion;
      qualityVersion = Math.max(qualityVersion, p.version);
      if (p.run && newest) {
        const previous = store.get(qualityRunAtom);
        if (previous?.id !== p.run.id) store.set(runFailuresAtom, []);
        store.set(qualityRunAtom, p.run);
      }
      if (p.stream_id === null) return;
      const id = p.stream_id;
      store.set(analyzingAtom, (set) => {
        const next = new Set(set);
        if (p.status === 'analyzing') next.add(id);
        else next.delete(id);
        return next;
      });
      if (p.analysis) {
        const analysis = p.analysis;
        store.set(lastAnalysisAtom, (map) => new Map(map).set(id, analysis));
        const failed = analysis.error !== null || analysis.faults.includes('unreachable');
        if (p.run && failed) store.set(runFailuresAtom, (list) => [...list, { stream_id: id, name: p.stream_name ?? `Stream #${id}`, error: analysis.error ?? analysis.faults.join(', ') }]);
      }
    });
    socket.on('evaluation:queue', () => store.set(ratingsVersionAtom, (n) => n + 1));
    socket.on('discovery:sources', ({ sources }) => store.set(discoverySourcesAtom, { status: 'ready', value: sources }));
    socket.on('discovery:progress', ({ job, stats }) => {
      updateReady(discoveryJobsAtom, (jobs) => mergeJob(jobs, job));
      if (stats) updateReady(discoveryStatsAtom, (list) => [...list.filter((s) => s.source_id !== stats.source_id), stats]);
    });
    return () => client.close();
  }, []);
}
