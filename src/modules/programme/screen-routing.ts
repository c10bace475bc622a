/**
 * The ScreenRouter of the programme: what each wall and kiosk follows and why
 * (src/shared/schedules/precedence.ts), read from a programme cached on this node until a
 * change touches it (the hub asks `changed` for every change, on every node). A screen that
 * registers with `?group=<slug>` joins that group here, as a command: one Activity row, and the
 * change moves nothing else.
 */
import type { Orm } from '../../db.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import { changesOf } from '../../domain/changes.ts';
import type { ScreenRouter } from './screen-router.ts';
import { decide } from '../../shared/schedules/precedence.ts';
import { PROGRAMME_CHANGES } from './programme.changes.ts';
import { joinGroup, loadProgramme } from './programme.service.ts';

const CONCERNS: ReadonlySet<string> = new Set(PROGRAMME_CHANGES);

export function createScreenRouter(deps: { orm: Orm; commands: CommandDeps; now?: () => number }): ScreenRouter {
  const now = deps.now ?? Date.now;
  let cached: ReturnType<typeof loadProgramme> | null = null;
  /**
   * The latest boundary pushed: until it comes (its push goes out a few seconds early), screens
   * registering or moved by another change are decided as of the boundary too — or they would
   * miss the switch.
   */
  let boundary = 0;
  const load = () => {
    cached ??= loadProgramme(deps.orm.em.fork()).catch((error: unknown) => {
      cached = null; // the database was away: ask again next time
      throw error;
    });
    return cached;
  };

  return {
    async route(facts, { join = true, at } = {}) {
      const { programme, groupsBySlug, groupOf } = await load();
      let groupId = facts.device ? (groupOf.get(facts.device) ?? null) : null;
      const joining = facts.group ? groupsBySlug.get(facts.group) : undefined;
      if (joining !== undefined && joining !== groupId) {
        // Set up once at install: the screen's address names its group. Without a device id
        // (storage blocked) it follows the group without being placed in it.
        if (facts.device && join) await runCommand(deps.orm.em.fork(), deps.commands, 'screen', (tx, changes) => joinGroup(tx, changes, facts.device!, facts.group!));
        groupId = joining;
      }
      const decision = decide({ device: facts.device, groupId, address: facts.address }, programme, Math.max(at ?? now(), boundary));
      const banner = decision.rule === 'takeover' ? (programme.takeover?.banner ?? undefined) : undefined;
      return { ref: decision.ref, rule: decision.rule, groupId, ...(banner ? { banner } : {}) };
    },
    changed(changes) {
      if (!changes.some((change) => CONCERNS.has(change.type))) return false;
      cached = null;
      for (const change of changesOf(changes, 'schedule.boundary')) boundary = Math.max(boundary, change.showAt);
      return true;
    },
  };
}
