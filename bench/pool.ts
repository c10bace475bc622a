/**
 * `npm run bench:pool`: a pool of 10,000 streams (what discovery grows it to) in a throw-away
 * embedded database, and the reads an admin console and the walls make of it, each by 20
 * concurrent callers on a 20-connection pool through the service code (no HTTP, no scene cache):
 * a filtered, sorted page of 50, a name search, and resolving a `recent` and a `ranked` scene.
 * Prints one JSON object on its last line. Goal: p99 <= 50 ms for each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.ts';
import { initORM, migrate } from '../src/db.ts';
import { startEmbeddedPostgres } from '../src/embedded-postgres.ts';
import { freePort } from '../src/free-port.ts';
import { createLogger } from '../src/logger.ts';
import { loadSceneSnapshot } from '../src/modules/scenes/scene-queries.ts';
import { streamPage } from '../src/modules/streams/stream-pages.ts';

const { streams, connections, requests } = benchArgs({ streams: 10_000, connections: 20, requests: 2_000 });
const logger = createLogger('warn');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-bench-pool-'));
const db = await startEmbeddedPostgres({ dataDir, port: await freePort(), logger, onGiveUp: (reason) => { throw new Error(reason); } });
const orm = await initORM({ url: db.url, poolMax: connections, logger });

function percentile(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2));
}

/** `requests` calls of `call`, `connections` at a time; p50/p99 of their latencies. */
async function measure(call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < connections * 5; i++) await call(i); // warm-up: plans, pool, JIT
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < requests) {
        const i = next++;
        const start = performance.now();
        await call(i);
        latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) };
}

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
  const page = await measure(() => streamPage(fork(), { limit: 50, category: 'wildlife', active: true, sort: 'quality' }));
  const search = await measure((i) => streamPage(fork(), { limit: 50, q: ['falls', 'reef', 'kilauea', 'cam 42'][i % 4]! }));
  const recent = await measure(() => loadSceneSnapshot(fork(), { ref: 'bench-recent' }));
  const ranked = await measure(() => loadSceneSnapshot(fork(), { ref: 'bench-ranked' }));
  const check = await loadSceneSnapshot(fork(), { ref: 'bench-ranked' });
  if (check?.streams.length !== 5) throw new Error('the ranked scene did not resolve 5 streams');

  result = {
      streams,
      connections,
      requests_each: requests,
      filtered_sorted_page_50: page,
      name_search: search,
      recent_scene: recent,
      ranked_scene: ranked,
      goal: { p99_ms: '<= 50 each' },
      met: [page, search, recent, ranked].every((r) => r.p99_ms <= 50),
  };
} finally {
  await orm.close();
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}
// After the database has stopped, so its shutdown lines come before: the last line is the figures.
console.log(JSON.stringify(result));
