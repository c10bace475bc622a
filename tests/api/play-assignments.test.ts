/**
 * Each screen's assignment history as proof of play keeps it (src/modules/plays/play-assignments.ts),
 * on a real database: written in batches in time order, a row that repeats the one before it is
 * not written (within a batch and across batches, empty positions included), the history over a
 * span is the row in force at its start and every later one, a write that fails is tried again,
 * and the retention forgets only rows a later one took over from before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentsBetween, createAssignmentLog, everAssigned, forgetAssignments, writeAssignments } from '../../src/modules/plays/play-assignments.ts';
import { createLogger } from '../../src/logger.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const T = Date.UTC(2026, 10, 27, 12, 0, 0);
const rowsOf = async (screen: string) =>
  (await app.orm.em.fork().getConnection().execute<{ from_at: string; streams: (number | null)[] }[]>('select from_at, streams from play_assignments where screen = ? order by from_at', [screen])).map((r) => [
    new Date(r.from_at).getTime() - T,
    r.streams,
  ]);

describe('assignment history', () => {
  it('writes each screen in time order and nothing that repeats the row before it', async () => {
    const em = app.orm.em.fork();
    const a = [1, 2, null, null, null];
    const b = [3, null, null, null, null];
    // Out of order, with repeats: A at 0 and 5 s, B at 10 s, B again at 12 s, A at 20 s.
    await writeAssignments(em, [
      { screen: 'wall-a', at: T + 20_000, sceneId: 1, streams: a },
      { screen: 'wall-a', at: T, sceneId: 1, streams: a },
      { screen: 'wall-a', at: T + 12_000, sceneId: 2, streams: b },
      { screen: 'wall-a', at: T + 5_000, sceneId: 1, streams: a },
      { screen: 'wall-a', at: T + 10_000, sceneId: 2, streams: b },
      { screen: 'other', at: T, sceneId: 1, streams: b },
    ]);
    expect(await rowsOf('wall-a')).toEqual([[0, a], [10_000, b], [20_000, a]]);
    // A later batch that repeats the last row (empty positions and all) writes nothing; one that changes it does.
    await writeAssignments(em, [{ screen: 'wall-a', at: T + 30_000, sceneId: 1, streams: [...a] }]);
    await writeAssignments(em, [{ screen: 'wall-a', at: T + 40_000, sceneId: 3, streams: [1, 2, 4, null, null] }]);
    expect((await rowsOf('wall-a')).map(([at]) => at)).toEqual([0, 10_000, 20_000, 40_000]);
    expect(await rowsOf('other')).toEqual([[0, b]]);
  });

  it('reads the row in force at a span\'s start and every later one up to its end', async () => {
    const em = app.orm.em.fork();
    const span = await assignmentsBetween(em, 'wall-a', T + 15_000, T + 25_000);
    expect(span.map((s) => s.from - T)).toEqual([10_000, 20_000]);
    expect(await assignmentsBetween(em, 'wall-a', T - 60_000, T - 1)).toEqual([]);
    expect(await assignmentsBetween(em, 'nobody', T, T + 60_000)).toEqual([]);
    const ever = await everAssigned(em, 'wall-a', [{ position: 1, stream: 3 }, { position: 2, stream: 3 }, { position: 3, stream: 4 }, { position: 1, stream: 99 }]);
    expect([...ever].sort()).toEqual(['1:3', '3:4']);
  });

  it('forgets only rows a later one took over before the cut (a screen\'s newest row stays, however old)', async () => {
    const em = app.orm.em.fork();
    await writeAssignments(em, [
      { screen: 'old-kiosk#kiosk-1', at: T - 100 * 86_400_000, sceneId: 1, streams: [5, null, null, null, null] },
      { screen: 'old-kiosk#kiosk-1', at: T - 95 * 86_400_000, sceneId: 1, streams: [6, null, null, null, null] },
      { screen: 'still-kiosk#kiosk-1', at: T - 100 * 86_400_000, sceneId: 1, streams: [5, null, null, null, null] },
    ]);
    await forgetAssignments(em, T - 90 * 86_400_000);
    expect((await rowsOf('old-kiosk#kiosk-1')).map(([at]) => at)).toEqual([-95 * 86_400_000]);
    expect((await rowsOf('still-kiosk#kiosk-1')).length).toBe(1);
    // The row in force at the cut stays for a record from just after it.
    await writeAssignments(em, [{ screen: 'old-kiosk#kiosk-1', at: T - 80 * 86_400_000, sceneId: 1, streams: [7, null, null, null, null] }]);
    await forgetAssignments(em, T - 85 * 86_400_000);
    expect((await rowsOf('old-kiosk#kiosk-1')).map(([at]) => at)).toEqual([-95 * 86_400_000, -80 * 86_400_000]);
  });

  it('keeps what screens with a device id were told, batched, and tries a failed write again', async () => {
    // A log on a database that refuses the first write (as while the database is away).
    let refuse = 1;
    const orm = {
      em: {
        fork: () => {
          const em = app.orm.em.fork();
          return new Proxy(em, {
            get(target, key) {
              if (key === 'execute' && refuse > 0) {
                refuse--;
                return () => Promise.reject(new Error('connection refused'));
              }
              const value = Reflect.get(target, key) as unknown;
              return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
            },
          });
        },
      },
    } as unknown as typeof app.orm;
    const log = createAssignmentLog({ orm, logger: createLogger('silent') });
    log.note({ kind: 'wall', device: 'logged-wall', position: null, at: T, sceneId: 1, streams: [1, null, null, null, null] });
    log.note({ kind: 'kiosk', device: 'logged-kiosk', position: 2, at: T, sceneId: 1, streams: [null, 2, null, null, null] });
    log.note({ kind: 'wall', device: 'logged-wall', position: null, at: T + 1_000, sceneId: 1, streams: [1, null, null, null, null] });
    await log.flush(); // refused: waits for its retry
    expect(await rowsOf('logged-wall')).toEqual([]);
    await log.flush();
    expect(await rowsOf('logged-wall')).toEqual([[0, [1, null, null, null, null]]]);
    expect(await rowsOf('logged-kiosk#kiosk-2')).toEqual([[0, [null, 2, null, null, null]]]);
  });
});
