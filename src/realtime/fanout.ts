/**
 * Fan-out: after a command commits, the node that ran it takes a cluster-wide version, works
 * out which scenes the changes touch, and sends one notice `{version, changes, scenes}` to the
 * other nodes. Every node (this one included) then pushes to its own sockets: screen state
 * for the walls and kiosks the scenes concern, and each feature's pushes (stream edits to the
 * admins' room, and so on) where it has sockets in that feature's rooms. Notices are applied
 * one at a time, in arrival order.
 *
 * The write's answer waits for the version and the notice (so a read after it sees the new
 * state on any node), not for the pushes to every socket: see README, "Writes and fan-out".
 * The notice carries the instant screens show the change at (commit + flip lead): walls flip
 * together, each on its own estimate of the server's clock (src/shared/clock.ts).
 */
import { z } from 'zod';
import { isDatabaseUnavailable, type DatabaseAvailability } from '../database/availability.ts';
import { requestedInstant, type ChangePublisher, type DomainChange } from '../domain/changes.ts';
import type { Logger } from '../logger.ts';
import { serverNow } from './clock.ts';
import type { ChangeNotice, HubServer } from './io-server.ts';
import type { FeaturePushes, Push } from './pushes.ts';
import type { SceneDirectory } from './scene-directory.ts';
import type { ScreenStates } from './screen-state.ts';
import type { ScreenRouter } from './screen-router.ts';
import { KIND_ROOMS } from './rooms.ts';
import type { PushVersions } from './versions.ts';
import { fanoutDuration, pushesSent } from '../metrics.ts';

/** Other nodes are trusted (same cluster) but a notice is still checked for shape. */
const NoticeShape = z.object({
  version: z.number().int().nonnegative(),
  changes: z.array(z.looseObject({ type: z.string() })),
  scenes: z.object({ sceneIds: z.array(z.number().int()), defaultChanged: z.boolean() }),
  at: z.number(),
});

export interface Fanout {
  publisher: ChangePublisher;
  /** Every screen on this node gets its current state again, under a new version. */
  resync(): Promise<void>;
  /** Resolves when every notice received so far has been pushed (tests, shutdown). */
  idle(): Promise<void>;
}

export function createFanout(options: {
  io: HubServer;
  directory: SceneDirectory;
  versions: PushVersions;
  screenStates: ScreenStates;
  features: readonly FeaturePushes[];
  logger: Logger;
  availability?: DatabaseAvailability | undefined;
  /** How long after the commit screens show a change (SCENE_FLIP_LEAD_MS): the fan-out and the preload fit in it. */
  flipLeadMs: number;
  /** Decides what each wall and kiosk follows; asked again when a change concerns it. */
  router: ScreenRouter;
  /** Screens the router moved, for presence. */
  onRerouted: (moves: Awaited<ReturnType<ScreenStates['reroute']>>) => void;
}): Fanout {
  const { io, directory, versions, screenStates, features, availability, flipLeadMs, router } = options;
  const log = options.logger.child({ component: 'fanout' });

  function hasLocalSockets(rooms: readonly string[]): boolean {
    const local = io.of('/').adapter.rooms;
    return rooms.some((room) => (local.get(room)?.size ?? 0) > 0);
  }

  function emitLocally(pushes: readonly Push[]): void {
    for (const { rooms, event, payload } of pushes) {
      // The union of events is checked where the push is built (push()); here it is one emit.
      (io.local.to([...rooms]).emit as (event: string, payload: unknown) => boolean)(event, payload);
      pushesSent.inc({ event });
    }
  }

  /**
   * One change on this node: what it touches is resolved once — the references the screens here
   * follow, and for admins here the scenes it touches and the default scene — and that one
   * resolution feeds the screens' pushes and every feature's.
   */
  async function apply(notice: ChangeNotice): Promise<void> {
    const end = fanoutDuration.startTimer();
    try {
      await pushChange(notice);
    } finally {
      end();
    }
  }

  async function pushChange(notice: ChangeNotice): Promise<void> {
    directory.invalidate();
    const admins = hasLocalSockets([KIND_ROOMS.admin]);
    const refs = screenStates.refsToRefresh(notice.scenes);
    if (admins && notice.scenes.defaultChanged && !refs.includes(null)) refs.push(null);
    const resolution = await directory.resolveChange({ sceneIds: admins ? notice.scenes.sceneIds : [], refs });
    screenStates.apply(notice.version, notice.scenes, resolution, notice.at);
    // The programme changed (a group, a schedule, a takeover…): every screen here is decided again.
    // Decided for the instant the screens will show it (a schedule boundary is queued a lead early).
    if (router.changed(notice.changes)) options.onRerouted(await screenStates.reroute(notice.version, notice.at, (facts) => router.route(facts, { at: notice.at })));
    for (const feature of features) {
      if (!hasLocalSockets(feature.rooms)) continue;
      try {
        emitLocally(await feature.pushes(notice.changes, { version: notice.version, scenes: notice.scenes, resolution }));
      } catch (err) {
        log.error({ err, feature: feature.name, version: notice.version }, 'feature pushes failed');
      }
    }
  }

  let queue: Promise<void> = Promise.resolve();
  const enqueue = (notice: ChangeNotice) => {
    queue = queue.then(() => apply(notice)).catch((err: unknown) => {
      if (!availability?.noteFailure(err)) log.error({ err, version: notice.version }, 'push failed');
    });
    return queue;
  };

  io.on('nw:changes', (notice) => {
    const parsed = NoticeShape.safeParse(notice);
    if (parsed.success) void enqueue(notice);
    else log.warn('ignored a malformed change notice from another node');
  });

  const publisher: ChangePublisher = {
    async publish(changes: readonly DomainChange[]) {
      directory.invalidate(); // before the write's answer goes out: read-your-writes on this node
      try {
        const [version, scenes] = await Promise.all([versions.next(), directory.affected(changes)]);
        // One instant for every screen on every node, taken once the change is committed.
        const notice: ChangeNotice = { version, changes: [...changes], scenes, at: Math.max(serverNow() + flipLeadMs, requestedInstant(changes) ?? 0) };
        io.serverSideEmit('nw:changes', notice);
        void enqueue(notice);
      } catch (err) {
        // The write is committed; screens catch up on the resync that follows the database's return.
        if (availability?.noteFailure(err)) log.warn('could not publish changes: the database is away; screens resync when it is back');
        else log.error({ err }, 'could not publish changes');
      }
    },
  };

  /** Coalesced: triggers that arrive together (database back, cluster link back) make one resync. */
  let resyncing: Promise<void> | undefined;
  function resync(): Promise<void> {
    return (resyncing ??= (async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      resyncing = undefined;
      directory.invalidate();
      const version = await versions.next();
      // In the notice queue: a resync never overtakes a push that arrived before it.
      const run = queue.then(async () => screenStates.resyncAll(version, await directory.resolveChange({ sceneIds: [], refs: screenStates.localRefs() })));
      queue = run.catch(() => undefined);
      await run;
      log.info({ version }, 'screens resynced');
    })().catch((err: unknown) => {
      resyncing = undefined;
      if (!(availability ? availability.noteFailure(err) : isDatabaseUnavailable(err))) log.error({ err }, 'resync failed');
    }));
  }

  return { publisher, resync, idle: () => queue };
}
