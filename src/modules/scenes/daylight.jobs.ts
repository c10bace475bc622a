/**
 * Scenes that follow the sun change by themselves: at the next sunrise or sunset among a
 * daylight scene's candidates (its snapshot's validUntil), a queue job publishes a change for
 * the daylight scenes, and the hub re-resolves them and moves their screens (in step, like any
 * change). Pushed, not journaled: the sun is no one's edit. The next crossing is queued again
 * after each one, when a scene changes, and every few minutes (candidates come and go).
 */
import type { Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { DomainChange } from '../../domain/changes.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import { Scene } from './scene.entity.ts';
import type { SceneSnapshots } from './scene-snapshots.ts';

const CROSSING_QUEUE = 'daylight-crossing';
/** A crossing's job starts this long after it: the sun is then clearly on its new side. */
const AFTER_MS = 1_000;
const RESYNC_MS = 5 * 60_000;

export interface DaylightJobs {
  start(): Promise<void>;
  sync(): Promise<void>;
  /** Re-resolves every daylight scene (a crossing came); returns their ids. */
  applyCrossing(): Promise<number[]>;
  stop(): void;
}

export function createDaylightJobs(deps: { orm: Orm; queue: JobQueue; commands: CommandDeps; snapshots: SceneSnapshots; logger: Logger; work: boolean }): DaylightJobs {
  const { orm, queue, snapshots, logger } = deps;
  const pushOnly: CommandDeps = { publisher: deps.commands.publisher };
  let timer: NodeJS.Timeout | undefined;

  const daylightScenes = async () => (await orm.em.fork().find(Scene, { active: true, selectionAlgorithm: 'daylight' }, { fields: ['id'] })).map((s) => s.id);

  async function sync(): Promise<void> {
    let next: number | null = null;
    for (const id of await daylightScenes()) {
      const until = (await snapshots.byId(id))?.validUntil;
      if (until !== undefined && (next === null || until < next)) next = until;
    }
    if (next === null) return;
    await queue.send(CROSSING_QUEUE, { at: next }, { singletonKey: String(next), startAfter: new Date(Math.max(snapshots.now(), next + AFTER_MS)), retryLimit: 2 });
  }

  async function applyCrossing(): Promise<number[]> {
    const sceneIds = await daylightScenes();
    if (sceneIds.length === 0) return [];
    await runCommand(orm.em.fork(), pushOnly, 'sun', async (_tx, changes) => {
      changes.push({ type: 'scene.daylight', sceneIds, transient: true });
    });
    return sceneIds;
  }

  return {
    async start() {
      await queue.createQueue(CROSSING_QUEUE, { policy: 'standard', retryLimit: 2 });
      if (deps.work) {
        await queue.work(CROSSING_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
          await applyCrossing();
          await sync();
        });
      }
      const resync = () => void sync().catch((err: unknown) => logger.warn({ err }, 'could not queue the next daylight crossing'));
      resync();
      timer = setInterval(resync, RESYNC_MS);
      timer.unref();
    },
    sync,
    applyCrossing,
    stop: () => clearInterval(timer),
  };
}

/** Whether committed changes may move a daylight scene's next crossing (a scene edited). */
export function movesCrossing(changes: readonly DomainChange[]): boolean {
  return changes.some((c) => c.type === 'scene.created' || c.type === 'scene.updated' || c.type === 'scene.deleted');
}
