import Router from '@koa/router';
import { runAs, type CommandDeps } from '../../domain/command.ts';
import type { AppState } from '../../http/context.ts';
import { mount } from '../../http/route.ts';
import { programmeEndpoints as api } from '../../shared/api/programme.ts';
import { decide } from '../../shared/schedules/precedence.ts';
import { equalPriorityOverlaps, nextBoundary } from '../../shared/schedules/windows.ts';
import { presentGroup, presentPlacement, presentProgramme, presentSchedule, presentTakeover } from './programme.presenter.ts';
import {
  createGroup,
  createSchedule,
  activeTakeover,
  deleteGroup,
  deleteSchedule,
  listGroups,
  listPlacements,
  listSchedules,
  loadProgramme,
  placeScreen,
  releaseTakeover,
  startTakeover,
  updateGroup,
  updateSchedule,
} from './programme.service.ts';

const WEEK_MS = 7 * 86_400_000;

export function programmeRouter(deps: { commands: CommandDeps; now: () => number }): Router<AppState> {
  const router = new Router<AppState>();

  mount(router, api.read)(async (ctx) => presentProgramme(ctx.state.em, deps.now()));

  mount(router, api.groups)(async (ctx) => {
    const [groups, placements] = await Promise.all([listGroups(ctx.state.em), listPlacements(ctx.state.em)]);
    return groups.map((g) => presentGroup(g, placements));
  });

  mount(router, api.createGroup)(async (ctx, { body }) => {
    const group = await runAs(ctx, deps.commands, (tx, changes) => createGroup(tx, changes, body));
    return presentGroup(group, await listPlacements(ctx.state.em));
  });

  mount(router, api.updateGroup)(async (ctx, { body }) => {
    const group = await runAs(ctx, deps.commands, (tx, changes) => updateGroup(tx, changes, body));
    return presentGroup(group, await listPlacements(ctx.state.em));
  });

  mount(router, api.deleteGroup)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteGroup(tx, changes, body.id));
    return { success: true };
  });

  mount(router, api.assign)(async (ctx, { body }) => presentPlacement(await runAs(ctx, deps.commands, (tx, changes) => placeScreen(tx, changes, body))));

  mount(router, api.schedules)(async (ctx) => (await listSchedules(ctx.state.em)).map(presentSchedule));

  mount(router, api.createSchedule)(async (ctx, { body }) => {
    const entry = await runAs(ctx, deps.commands, (tx, changes) => createSchedule(tx, changes, body));
    return presentSchedule(entry);
  });

  mount(router, api.updateSchedule)(async (ctx, { body }) => presentSchedule(await runAs(ctx, deps.commands, (tx, changes) => updateSchedule(tx, changes, body))));

  mount(router, api.deleteSchedule)(async (ctx, { body }) => {
    await runAs(ctx, deps.commands, (tx, changes) => deleteSchedule(tx, changes, body.id));
    return { success: true };
  });

  /** What plays at an instant on each group's screens and on screens in no group (addresses and own scenes aside). */
  mount(router, api.preview)(async (ctx, { query }) => {
    const at = query.at ? Date.parse(query.at) : deps.now();
    const { programme } = await loadProgramme(ctx.state.em);
    const groups = await listGroups(ctx.state.em);
    const shown = (groupId: number | null) => {
      const decision = decide({ device: null, groupId, address: null }, programme, at);
      return { scene_id: decision.ref === null ? null : Number(decision.ref), rule: decision.rule, schedule_id: decision.schedule_id ?? null };
    };
    const next = nextBoundary(programme.schedules, at);
    return {
      at: new Date(at).toISOString(),
      groups: groups.map((g) => ({ group_id: g.id, ...shown(g.id) })),
      ungrouped: shown(null),
      next_change: next === null ? null : new Date(next).toISOString(),
      overlaps: equalPriorityOverlaps(programme.schedules, at, at + WEEK_MS).map((o) => ({ ...o, at: new Date(o.at).toISOString() })),
    };
  });

  mount(router, api.takeover)(async (ctx) => {
    const takeover = await activeTakeover(ctx.state.em, deps.now());
    return { takeover: takeover ? presentTakeover(takeover) : null };
  });

  mount(router, api.startTakeover)(async (ctx, { body }) => {
    const by = (await ctx.state.actor())?.username ?? 'anonymous';
    return presentTakeover(await runAs(ctx, deps.commands, (tx, changes) => startTakeover(tx, changes, body, by, deps.now())));
  });

  mount(router, api.releaseTakeover)(async (ctx) => {
    await runAs(ctx, deps.commands, (tx, changes) => releaseTakeover(tx, changes));
    return { success: true };
  });

  return router;
}
