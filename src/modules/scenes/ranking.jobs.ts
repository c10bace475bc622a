/**
 * Keeping ranked scenes on the best cameras now. Every RANKED_CHECK_SECONDS (and a moment after
 * a stream's analysis changes what is known of it) one node — an advisory lock decides which —
 * ranks the candidates (src/shared/scenes/ranking.ts) and moves each ranked scene's picks by the
 * rules there: a tile changes when its camera stops being a candidate, or when a clearly better
 * one comes and the tile has been on screen long enough. Each change is a command: the picks, and
 * a `scene.picks-changed` that says why — journaled (the activity log), pushed to the walls.
 */
import type { EntityManager, Orm } from '../../db.ts';
import type { DomainChange } from '../../domain/changes.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import type { Logger } from '../../logger.ts';
import { choosePicks, rankAll, type Pick, type PickRules } from '../../shared/scenes/ranking.ts';
import { rankingCandidates } from '../streams/stream-reads.ts';
import { Stream } from '../streams/stream.entity.ts';
import { RankedPick, Scene } from './scene.entity.ts';

export interface RankingSettings extends PickRules {
  /** RANKED_CHECK_SECONDS: how often ranked scenes are looked at (besides after analyses). */
  checkSeconds: number;
  /** How many candidates are ranked (the best by quality, plus every eventful one). */
  candidates: number;
}

export const DEFAULT_RANKING_SETTINGS: RankingSettings = { checkSeconds: 60, minOnScreenMs: 10 * 60_000, margin: 10, candidates: 60 };

/** pg_try_advisory_xact_lock key: one node moves the picks at a time. */
const RANKING_LOCK = 7_361_005;
const ACTOR = 'ranking';

export interface RankingJobs {
  /** One look now (tests call it; the timer and analyses do). Returns the scenes whose picks changed. */
  rerank(): Promise<number[]>;
  /** The streams ranked highest now, best first (quality re-checks them under its budget). */
  leaders(limit: number): Promise<number[]>;
  start(): Promise<void>;
  stop(): void;
  /** After a commit: a stream's new analysis may change the ranking (looked at a moment later, once per burst). */
  committed(changes: readonly DomainChange[]): void;
}

export function createRankingJobs(deps: { orm: Orm; commands: CommandDeps; logger: Logger; settings: RankingSettings; now: () => number; work: boolean }): RankingJobs {
  const { orm, settings, now, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let running: Promise<number[]> = Promise.resolve([]);

  async function look(tx: EntityManager, changes: DomainChange[]): Promise<number[]> {
    const [lock] = await tx.execute<{ locked: boolean }[]>(`select pg_try_advisory_xact_lock(${RANKING_LOCK}) as locked`);
    if (!lock?.locked) return [];
    const scenes = await tx.find(Scene, { active: true, selectionAlgorithm: 'ranked' }, { orderBy: { id: 'asc' } });
    if (scenes.length === 0) return [];
    const at = now();
    const ranked = rankAll(await rankingCandidates(tx, settings.candidates), at);
    const moved: number[] = [];
    const allPicks = await tx.find(RankedPick, { scene: { $in: scenes.map((s) => s.id) } }, { orderBy: { position: 'asc' } });
    for (const scene of scenes) {
      const rows = allPicks.filter((r) => r.scene.id === scene.id);
      const current: Pick[] = rows.map((r) => ({ position: r.position, streamId: r.stream.id, since: r.since.getTime(), reason: r.reason }));
      const { picks, changes: tiles } = choosePicks(current, ranked, scene.maxStreams, at, settings);
      if (tiles.length === 0) continue;
      // Rows are changed in place (a delete and a re-insert of the same key in one unit of work
      // leaves MikroORM's identity map holding the deleted rows).
      const byPosition = new Map(rows.map((r) => [r.position, r]));
      for (const pick of picks) {
        const row = byPosition.get(pick.position);
        byPosition.delete(pick.position);
        const fields = { stream: tx.getReference(Stream, pick.streamId), since: new Date(pick.since), reason: pick.reason };
        if (row) tx.assign(row, fields);
        else tx.create(RankedPick, { scene, position: pick.position, ...fields });
      }
      for (const gone of byPosition.values()) tx.remove(gone);
      for (const tile of tiles) changes.push({ type: 'scene.picks-changed', sceneId: scene.id, name: `${scene.name}, tile ${tile.position}: ${tile.reason}`.slice(0, 500) });
      moved.push(scene.id);
    }
    await tx.flush();
    return moved;
  }

  const rerank = () =>
    (running = running.catch(() => []).then(() => runCommand(orm.em.fork(), deps.commands, ACTOR, (tx, changes) => look(tx, changes))));

  return {
    rerank,
    async leaders(limit) {
      return rankAll(await rankingCandidates(orm.em.fork(), Math.max(limit, settings.candidates)), now()).slice(0, limit).map((r) => r.id);
    },
    async start() {
      if (!deps.work) return;
      timer = setInterval(() => void rerank().catch((err: unknown) => logger.warn({ err }, 'ranking: could not look at the ranked scenes')), settings.checkSeconds * 1000);
      timer.unref();
      await rerank().catch((err: unknown) => logger.warn({ err }, 'ranking: could not look at the ranked scenes'));
    },
    stop() {
      clearInterval(timer);
      clearTimeout(soon);
    },
    committed(changes) {
      if (!deps.work || !changes.some((c) => c.type === 'stream.updated' || c.type === 'stream.deleted')) return;
      clearTimeout(soon);
      soon = setTimeout(() => void rerank().catch((err: unknown) => logger.warn({ err }, 'ranking: could not look at the ranked scenes')), 1_000);
      soon.unref();
    },
  };
}
