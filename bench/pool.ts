/**
 * `npm run bench:pool`: a pool of 10,000 streams (what discovery grows it to) in a throw-away
 * embedded database, and the reads an admin console and the walls make of it, each by 20
 * concurrent callers on a 20-connection pool through the service code (no HTTP, no scene cache):
 * a filtered, sorted page of 50, a name search, and resolving a `recent` and a `ranked` scene.
 *
 * Absolute milliseconds move 2× with the machine's load, so the same run also times the
 * cheapest read there is — one stream by primary key, the row `GET /api/streams/:id` answers
 * with (PRIMARY_KEY_READ below) — under the same conditions: every read, the primary-key read
 * included, runs in the same rounds (--rounds, each read's share of --requests per round, in a
 * rotating order), so all of them see the same load. Each read's p50 and p99 are reported as a
 * ratio to the primary-key read's, and the goals are judged on those ratios (RATIO_GOALS below);
 * the absolute figures are printed beside them, with the old absolute goal (p99 <= 50 ms) as a
 * figure to read, not the verdict. Prints one JSON object on its last line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.ts';
import { initORM, migrate } from '../src/orm.ts';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { freePort } from '../src/free-port.ts';
import { createLogger } from '../src/logger.ts';
import { loadSceneSnapshot } from '../src/modules/scenes/scene-queries.ts';
import { streamPage } from '../src/modules/streams/stream-pages.ts';
import { presentStream, streamColumns, type StreamFields } from '../src/modules/streams/stream.presenter.ts';
import { preparedRead } from '../src/database/prepared-read.ts';
import { percentile } from './stats.ts';

const { streams, connections, requests, rounds } = benchArgs({ streams: 10_000, connections: 20, requests: 2_000, rounds: 4 });
if (rounds < 1 || requests < rounds) throw new Error('--rounds must be at least 1 and at most --requests');
const logger = createLogger('warn');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-bench-pool-'));
const db = await startEmbeddedPostgres({ dataDir, port: await freePort(), logger, onGiveUp: (reason) => { throw new Error(reason); } });
const orm = await initORM({ url: db.url, poolMax: connections, logger });

const ms = (n: number) => Number(n.toFixed(2));

/**
 * `count` calls of `call`, `connections` at a time, from call number `from` on; the latencies
 * are appended to `into`.
 */
async function run(call: (i: number) => Promise<unknown>, from: number, count: number, into: number[]): Promise<void> {
  let next = from;
  const end = from + count;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < end) {
        const i = next++;
        const start = performance.now();
        await call(i);
        into.push(performance.now() - start);
      }
    }),
  );
}

/**
 * Every read in the same rounds, so each sees the same machine: a warm-up of each (plans on
 * every connection, pool, JIT), then `rounds` rounds in which each read makes its share of
 * `requests` calls, in an order that rotates every round (no read always follows the same one).
 * p50/p99 of each read.
 */
async function measureAll<K extends string>(calls: Record<K, (i: number) => Promise<unknown>>) {
  const names = Object.keys(calls) as K[];
  // Concurrent, so every connection of the pool is open and has planned every statement before
  // timing starts (a serial warm-up used one connection, and the first read timed paid the rest).
  for (const name of names) await run(calls[name], 0, connections * 5, []);
  const latencies = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < rounds; round++) {
    const from = Math.floor((round * requests) / rounds);
    const count = Math.floor(((round + 1) * requests) / rounds) - from;
    for (let j = 0; j < names.length; j++) {
      const name = names[(round + j) % names.length]!;
      await run(calls[name], from, count, latencies[name]);
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const taken = latencies[name];
      return [name, { p50_ms: ms(percentile(taken, 50)), p99_ms: ms(percentile(taken, 99)) }];
    }),
  ) as Record<K, { p50_ms: number; p99_ms: number }>;
}

/**
 * The goals, as ratios to the primary-key read timed in the same rounds (each read's p50 to its
 * p50, its p99 to its p99), per kind of read: the console's page and search cost about three
 * times a scene read, and one goal loose enough for them would let a scene read — every push's
 * read — triple unnoticed. Set at the default settings (a smaller pool shrinks the page's and the
 * search's ratios), from 12 runs here (2 cores shared by the benchmark, Node and
 * PostgreSQL): 5 on an otherwise idle machine (primary-key read p50 2.6–2.9 / p99 9.1–10.6 ms),
 * 4 beside a vitest run and 3 beside two busy loops (p50 5.1–5.8 / p99 18.9–20.2 ms). The
 * absolute figures moved 1.7–2× between them (page p50 18.7 → 33.4 ms, p99 40 → 84 ms, over
 * the old 50 ms goal); the ratios stayed within: page p50 5.6–7.3× / p99 3.4–5.1×, search
 * 5.0–6.5× / 3.2–4.9×, recent scene 1.9–2.6× / 1.5–4.0×, ranked scene 1.7–2.6× / 1.2–2.0×
 * (p99s spread more: two tails). Each goal is the kind's worst ratio seen plus about 15%, so the
 * noise of these runs passes and a read whose median cost beside an indexed row grows by more
 * than that fails; the p99 goals are as loose as the tails' spread is (the two scene reads are
 * one statement shape and share the looser one, set by recent's 4.0× beside the vitest run).
 * The old p99 <= 50 ms was about 5× the idle machine's primary-key p99: the console reads' 6×
 * is close to it, the scene reads' is tighter.
 */
const RATIO_GOALS = {
  filtered_sorted_page_50: { p50: 8.5, p99: 6 },
  name_search: { p50: 7.5, p99: 6 },
  recent_scene: { p50: 3, p99: 4.5 },
  ranked_scene: { p50: 3, p99: 4.5 },
} as const;

/**
 * The yardstick: one stream by primary key, the row GET /api/streams/:id answers with, read the
 * way every read measured here is read (a named prepared statement on the same pool, the same
 * columns, the same presenter), so the ratio is what each read's own query costs beyond one
 * indexed row. Not the route's findStream: the ORM's hydration made that read cost twice a scene
 * read here (p50 12.5 against 6.5 ms), and the yardstick would then measure the ORM, not the machine.
 */
const PRIMARY_KEY_READ = `select ${streamColumns('st')} from streams st where st.id = ?`;
const ratio = (a: number, b: number) => Math.round((a / b) * 10) / 10;

let result: Record<string, unknown>;
try {
  await migrate(orm);
  const conn = orm.em.getConnection();
  // Names, places and categories like discovery's finds; a third unscored, a tenth inactive.
  await conn.execute(`
    insert into streams (name, url, normalized_url, category, quality, active, quality_score, location_name, created_at, updated_at)
    select (array['Brooks Falls','Coral Reef','Kilauea','Iguazu','Yellowstone','Monterey Bay','Etna','Niagara'])[1 + i % 8] || ' Cam ' || i,
      'https://streams.example.org/' || i || '/index.m3u8', 'streams.example.org/' || i || '/index.m3u8',
      (array['wildlife','ocean','volcano','waterfall','nature'])[1 + i % 5], 'hd', i % 10 <> 0,
      case when i % 3 = 0 then null else (i * 7919) % 10001 / 100.0 end,
      (array['Alaska','Hawaii','Sicily','Ontario','Wyoming','California'])[1 + i % 6],
      now() - (i || ' seconds')::interval, now()
    from generate_series(1, ${streams}) i`);
  await conn.execute(`
    insert into scenes (name, slug, selection_algorithm, max_streams, layout_type, active, created_at, updated_at) values
      ('Bench recent', 'bench-recent', 'recent', 5, 'grid', true, now(), now()),
      ('Bench ranked', 'bench-ranked', 'ranked', 5, 'grid', true, now(), now())`);
  await conn.execute('vacuum analyze streams'); // the steady state autovacuum keeps (index-only counts)

  const fork = () => orm.em.fork();
  const ids = (await conn.execute<{ id: number }[]>('select id from streams order by id')).map((r) => r.id);
  const read = await measureAll({
    primary_key_read: async (i) => {
      const [row] = await preparedRead<StreamFields>(fork(), PRIMARY_KEY_READ, [ids[(i * 7919) % ids.length]]);
      if (!row) throw new Error('the primary-key read found no stream');
      return presentStream(row);
    },
    filtered_sorted_page_50: () => streamPage(fork(), { limit: 50, category: 'wildlife', active: true, sort: 'quality' }),
    name_search: (i) => streamPage(fork(), { limit: 50, q: ['falls', 'reef', 'kilauea', 'cam 42'][i % 4]! }),
    recent_scene: () => loadSceneSnapshot(fork(), { ref: 'bench-recent' }),
    ranked_scene: () => loadSceneSnapshot(fork(), { ref: 'bench-ranked' }),
  });
  const check = await loadSceneSnapshot(fork(), { ref: 'bench-ranked' });
  if (check?.streams.length !== 5) throw new Error('the ranked scene did not resolve 5 streams');

  const { primary_key_read: pk, ...reads } = read;
  const judged = Object.fromEntries(
    (Object.keys(RATIO_GOALS) as (keyof typeof RATIO_GOALS)[]).map((name) => {
      const r = reads[name];
      const p50_ratio = ratio(r.p50_ms, pk.p50_ms);
      const p99_ratio = ratio(r.p99_ms, pk.p99_ms);
      const goal = RATIO_GOALS[name];
      return [name, { ...r, p50_ratio, p99_ratio, goal: { p50_ratio: goal.p50, p99_ratio: goal.p99 }, met: p50_ratio <= goal.p50 && p99_ratio <= goal.p99 }];
    }),
  );
  const all = Object.values(judged);
  result = {
    streams,
    connections,
    requests_each: requests,
    rounds,
    primary_key_read: pk,
    ...judged,
    goal: { judged_on: 'p50 and p99 as ratios to primary_key_read (each read\'s goal beside it)' },
    met: all.every((r) => r.met),
    absolute: { goal: { p99_ms: '<= 50 each' }, met: all.every((r) => r.p99_ms <= 50), judged: false },
  };
} finally {
  await orm.close();
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}
// After the database has stopped, so its shutdown lines come before: the last line is the figures.
console.log(JSON.stringify(result));
