/**
 * Schedule boundaries on the PostgreSQL job queue: the next instant a schedule window starts
 * or ends (or a takeover runs out) is a queue job, started a little early (a flip lead and the
 * queue's polling); its push carries the boundary as the instant screens show it at. Any node may run it; the boundary's row (programme_boundaries)
 * makes it happen exactly once across all nodes: one command, one Activity row, and the hub
 * moves each screen it concerns once. Every run, and every programme change, queues the next.
 */
import type { Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import { nextBoundary, windowsBetween } from '../../shared/schedules/windows.ts';
import { sceneNames } from '../scenes/scene-reads.ts';
import { ProgrammeBoundary, ScheduleEntry, Takeover } from './programme.entity.ts';
import { loadProgramme } from './programme.service.ts';

const BOUNDARY_QUEUE = 'programme-boundary';
/** How much earlier than the flip lead a boundary's job starts (the queue polls twice a second; a retry waits 2 s). */
const EARLY_MS = 3_000;
/** Applied boundaries are kept this long (a late duplicate job still finds its row). */
const KEEP_MS = 7 * 86_400_000;

export interface ProgrammeJobs {
  start(): Promise<void>;
  /** Queues the next boundary (after a programme change, at start, after each boundary). */
  sync(): Promise<void>;
  /** Applies the boundary at `at` unless a node already did; true when this call did. */
  applyBoundary(at: number): Promise<boolean>;
}

export function createProgrammeJobs(deps: { orm: Orm; queue: JobQueue; commands: CommandDeps; logger: Logger; flipLeadMs: number; work: boolean; now?: () => number }): ProgrammeJobs {
  const { orm, queue, logger } = deps;
  const now = deps.now ?? Date.now;

  /** The next instant screens may switch: a schedule window's start or end, or the takeover's end. */
  async function next(after: number): Promise<number | null> {
    const { programme } = await loadProgramme(orm.em.fork());
    const edges = [nextBoundary(programme.schedules, after)];
    const ends = programme.takeover?.ends_at ? Date.parse(programme.takeover.ends_at) : null;
    if (ends !== null && ends > after) edges.push(ends);
    const found = edges.filter((e): e is number => e !== null);
    return found.length ? Math.min(...found) : null;
  }

  async function sync(): Promise<void> {
    const at = await next(now());
    if (at === null) return;
    // One job per instant (a duplicate from another node finds the boundary's row and does nothing).
    await queue.send(BOUNDARY_QUEUE, { at }, { singletonKey: String(at), startAfter: new Date(Math.max(now(), at - deps.flipLeadMs - EARLY_MS)), retryLimit: 3, retryDelay: 2 });
  }

  /** What starts and ends at `at`, for the Activity log: "Started: Ocean mornings · Ended: Volcano talk". */
  async function describe(at: number): Promise<string> {
    const em = orm.em.fork();
    const [entries, takeover] = await Promise.all([em.find(ScheduleEntry, {}), em.findOne(Takeover, { id: 1 })]);
    const crossing = entries.flatMap((entry) => windowsBetween(entry.when, at - 1, at + 1).map(([start, end]) => ({ entry, start, end })));
    // Unnamed entries go by their scene's name, asked of the scenes module (only for those at this boundary).
    const sceneName = await sceneNames(em, crossing.filter(({ entry }) => entry.name === null).map(({ entry }) => entry.scene.id));
    const nameOf = (entry: ScheduleEntry) => entry.name ?? sceneName.get(entry.scene.id) ?? `Scene ${entry.scene.id}`;
    const started: string[] = [];
    const ended: string[] = [];
    for (const { entry, start, end } of crossing) {
      if (start === at) started.push(nameOf(entry));
      if (end === at) ended.push(nameOf(entry));
    }
    const parts = [started.length ? `Started: ${started.join(', ')}` : '', ended.length ? `Ended: ${ended.join(', ')}` : '', takeover?.endsAt?.getTime() === at ? 'Takeover ended' : ''].filter(Boolean);
    return parts.join(' · ') || 'Schedule boundary';
  }

  async function applyBoundary(at: number): Promise<boolean> {
    const name = await describe(at);
    const applied = await runCommand(orm.em.fork(), deps.commands, 'schedule', async (tx, changes) => {
      // The boundary's row is the claim: a second node's insert conflicts and does nothing.
      const inserted = await tx.execute<{ at: Date }[]>('insert into programme_boundaries (at) values (?) on conflict do nothing returning at', [new Date(at)], 'all');
      if (inserted.length === 0) return false;
      await tx.nativeDelete(ProgrammeBoundary, { at: { $lt: new Date(at - KEEP_MS) } });
      changes.push({ type: 'schedule.boundary', name, showAt: at }); // screens switch at the boundary itself
      return true;
    });
    if (applied) logger.info({ at: new Date(at).toISOString(), name }, 'schedule boundary');
    return applied;
  }

  return {
    async start() {
      await queue.createQueue(BOUNDARY_QUEUE, { policy: 'standard', retryLimit: 3 });
      if (deps.work) {
        await queue.work<{ at: number }>(BOUNDARY_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
          if (!job) return;
          await applyBoundary(job.data.at);
          await sync();
        });
      }
      await sync().catch((err: unknown) => logger.warn({ err }, 'could not queue the next schedule boundary'));
    },
    sync,
    applyBoundary,
  };
}
