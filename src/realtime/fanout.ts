/**
 * Fan-out: after a command commits, the node that ran it takes a cluster-wide version, asks the
 * features what every node will need (each feature's `origin`: the scenes a change touches, the
 * instant screens show it) and sends one notice `{version, changes, facts}` to the other nodes.
 * Every node (this one included) then hands the notice to the screen feature (walls and kiosks)
 * and to each feature that has sockets in its rooms here, and emits what they push. Notices are
 * applied one at a time, in version order (notice-order.ts: a notice waits a moment for the
 * versions below it). The hub decides nothing about what a push means.
 *
 * The write's answer waits for the version and the notice (so a read after it sees the new
 * state on any node), not for the pushes to every socket: see docs, "Writes and fan-out".
 */
import { z } from 'zod';
import { isDatabaseUnavailable, type DatabaseAvailability } from '../database/availability.ts';
import type { ChangePublisher, DomainChange } from '../domain/changes.ts';
import type { Logger } from '../logger.ts';
import { fanoutDuration, pushesSent } from '../metrics.ts';
import type { HubServer } from './io-server.ts';
import type { FeaturePushes, Push } from './pushes.ts';
import type { ChangeNotice, ScreenFeature } from './screen-feature.ts';
import type { PushVersions } from './versions.ts';
import { createNoticeOrder } from './notice-order.ts';

/** Other nodes are trusted (same cluster) but a notice is still checked for shape. */
const NoticeShape = z.object({
  version: z.number().int().nonnegative(),
  changes: z.array(z.looseObject({ type: z.string() })),
  facts: z.record(z.string(), z.unknown()),
});

export interface Fanout {
  publisher: ChangePublisher;
  /** Every screen on this node gets its current state again, under a new version. */
  resync(): Promise<void>;
  /** Resolves when every notice received so far has been pushed (tests, shutdown). */
  idle(): Promise<void>;
  /** The highest version this node has applied. */
  appliedVersion(): number;
  /** The screen feature is pushing `version` now: registrations from here on are labelled with it (HubLink.pushing). */
  markApplied(version: number): void;
}

/** The screen feature's key among the notice's facts. */
const SCREENS = 'screens';

/**
 * How long a notice waits for a lower version's to arrive. Notices cross between nodes in a few
 * milliseconds; a version that never comes (a resync elsewhere, a failed publish) costs this once.
 */
export const NOTICE_HOLD_MS = 250;

export function createFanout(options: {
  io: HubServer;
  versions: PushVersions;
  initialVersion: number;
  screens: ScreenFeature | undefined;
  features: readonly FeaturePushes[];
  logger: Logger;
  availability?: DatabaseAvailability | undefined;
  /** Overrides NOTICE_HOLD_MS (tests). */
  holdMs?: number | undefined;
  /** Told every notice first, on every node: what it keeps of committed state is forgotten (the admission's credentials). */
  forget?: ((changes: readonly DomainChange[]) => void) | undefined;
}): Fanout {
  const { io, versions, screens, features, availability } = options;
  const log = options.logger.child({ component: 'fanout' });
  let applied = options.initialVersion;

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

  async function apply(notice: ChangeNotice): Promise<void> {
    const end = fanoutDuration.startTimer();
    try {
      options.forget?.(notice.changes);
      await screens?.apply(notice);
      // After the screens here have it: a registration is never labelled past what it was shown.
      applied = Math.max(applied, notice.version);
      for (const feature of features) {
        if (!hasLocalSockets(feature.rooms)) continue;
        try {
          emitLocally(await feature.pushes(notice.changes, { version: notice.version, facts: notice.facts[feature.name] }));
        } catch (err) {
          log.error({ err, feature: feature.name, version: notice.version }, 'feature pushes failed');
        }
      }
    } finally {
      end();
    }
  }

  let queue: Promise<void> = Promise.resolve();
  const order = createNoticeOrder({
    start: options.initialVersion,
    holdMs: options.holdMs ?? NOTICE_HOLD_MS,
    onGap: (missing) => log.debug({ missing }, 'a version never announced: pushing the later ones'),
  });
  const enqueue = (notice: ChangeNotice) =>
    order.add(notice.version, () => {
      queue = queue.then(() => apply(notice)).catch((err: unknown) => {
        if (!availability?.noteFailure(err)) log.error({ err, version: notice.version }, 'push failed');
      });
    });

  io.on('nw:changes', (notice) => {
    const parsed = NoticeShape.safeParse(notice);
    if (parsed.success) enqueue(notice);
    else log.warn('ignored a malformed change notice from another node');
  });

  /** Each feature's facts for the notice, worked out once here. */
  async function factsOf(changes: readonly DomainChange[]): Promise<Record<string, unknown>> {
    const entries: [string, Promise<unknown>][] = features.flatMap((f) => (f.origin ? [[f.name, f.origin(changes)] as [string, Promise<unknown>]] : []));
    if (screens) entries.push([SCREENS, screens.origin(changes)]);
    return Object.fromEntries(await Promise.all(entries.map(async ([name, work]) => [name, await work] as const)));
  }

  const publisher: ChangePublisher = {
    async publish(changes: readonly DomainChange[]) {
      try {
        const [version, facts] = await Promise.all([versions.next(), factsOf(changes)]);
        const notice: ChangeNotice = { version, changes: [...changes], facts };
        io.serverSideEmit('nw:changes', notice);
        enqueue(notice);
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
      const version = await versions.next();
      // In version order: a resync never overtakes a push that arrived, or is due, before it.
      const run = new Promise<void>((resolve, reject) =>
        order.add(version, () => {
          const done = queue.then(async () => {
            await screens?.resync(version);
            applied = Math.max(applied, version);
          });
          queue = done.catch(() => undefined);
          done.then(resolve, reject);
        }),
      );
      await run;
      log.info({ version }, 'screens resynced');
    })().catch((err: unknown) => {
      resyncing = undefined;
      if (!(availability ? availability.noteFailure(err) : isDatabaseUnavailable(err))) log.error({ err }, 'resync failed');
    }));
  }

  return {
    publisher,
    resync,
    idle: async () => {
      await order.drained();
      await queue;
    },
    appliedVersion: () => applied,
    markApplied: (version) => void (applied = Math.max(applied, version)),
  };
}
