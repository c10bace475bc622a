import pg from 'pg';
import { streamColumns } from '../src/modules/streams/stream.presenter.ts';
const DEFAULT_SCENE_KEY = 'default_scene_id';
const STREAM_COLUMNS = streamColumns('st');

/** Candidates of one algorithm as a JSON array; empty unless the scene uses that algorithm. */
const candidates = (algorithm: string, where: string, order: string) => `
  coalesce((select json_agg(c) from (
    select ${STREAM_COLUMNS} from streams st
    where s."selectionAlgorithm" = '${algorithm}' and ${where} ${order}
  ) c), '[]'::json) as ${algorithm}`;

/**
 * Pool candidates (recent, ranked): the best healthy ones and, to fill what they cannot, the best
 * offline ones — selectSceneStreams puts offline last, so a wall loses a dead camera at once but
 * never goes empty because of the venue's own outage.
 */
const poolCandidates = (algorithm: string, order: string) => `
  coalesce((select json_agg(c) from (
    (select ${STREAM_COLUMNS} from streams st
      where s."selectionAlgorithm" = '${algorithm}' and st.active and st.health <> 'offline' ${order} limit s."maxStreams")
    union all
    (select ${STREAM_COLUMNS} from streams st
      where s."selectionAlgorithm" = '${algorithm}' and st.active and st.health = 'offline' ${order} limit s."maxStreams")
  ) c), '[]'::json) as ${algorithm}`;

/**
 * One round trip: the scene, the default scene id, its slots, and the candidate streams its
 * algorithm needs (pre-selected in the order selectSceneStreams sorts).
 */
const sceneQuery = (where: string, order = '') => `
  with d as (select value::int as id from system_config where key = '${DEFAULT_SCENE_KEY}' and value ~ '^[0-9]{1,9}$'),
  s as (
    select s.id, s.slug, s.name, s.description, s.prompt, s.selection_algorithm as "selectionAlgorithm",
      s.max_streams as "maxStreams", s.layout_type as "layoutType", s.active, s.created_at as "createdAt",
      s.updated_at as "updatedAt"
    from scenes s where s.active and ${where} ${order} limit 1
  )
  select s.*, (select id from d) as "defaultId",
    coalesce((select json_agg(json_build_object('stream_id', ss.stream_id, 'position', ss.position) order by ss.position)
      from scene_streams ss where ss.scene_id = s.id), '[]'::json) as slots,
    ${poolCandidates('recent', 'order by st.created_at desc, st.id desc')},
    ${poolCandidates('ranked', 'order by st.quality_score desc nulls last, st.created_at desc, st.id desc')},
    ${candidates('manual', 'st.id in (select stream_id from scene_streams where scene_id = s.id)', '')}
  from s`;

const BY_DEFAULT = sceneQuery('s.id = (select id from d)');
const BY_ID = sceneQuery('s.id = ?');
// A slug wins over an id made of the same digits (spec: /scenes/{slug}, id when there is no slug).
const BY_REF = sceneQuery('(s.slug = ? or s.id = ?)', 'order by (s.slug = ?) desc nulls last');


const c = new pg.Client('postgres://postgres@127.0.0.1:5432/nw_explain'); await c.connect();
const text = 'explain (analyze, buffers) ' + BY_REF.replaceAll('?', (() => { let i = 0; return () => '$' + (++i); })() as never);
let i = 0; const t2 = BY_REF.replace(/\?/g, () => '$' + (++i));
for (let k = 0; k < 50; k++) await c.query('explain analyze ' + t2, ['bench-recent', -1, 'bench-recent']);
const r0 = 0; const r = await c.query('explain (analyze, buffers) ' + t2, ['bench-recent', -1, 'bench-recent']);
void r0; if (0) console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await c.end();
import { initORM } from '../src/db.ts';
import { createLogger } from '../src/logger.ts';
const orm = await initORM({ url: 'postgres://postgres@127.0.0.1:5432/nw_explain', poolMax: 20, logger: createLogger('warn') });
async function time(name: string, f: () => Promise<unknown>, n = 2000) {
  for (let j = 0; j < 200; j++) await f();
  const t = performance.now(); for (let j = 0; j < n; j++) await f(); console.log(name, ((performance.now() - t) / n).toFixed(3), 'ms serial');
}
await time('raw BY_REF em.execute', () => orm.em.fork().execute(BY_REF, ['bench-recent', -1, 'bench-recent']));
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/nw_explain' });
await time('raw BY_REF pg', () => pool.query(t2, ['bench-recent', -1, 'bench-recent']));
await time('raw BY_REF pg prepared', () => pool.query({ name: 'byref', text: t2, values: ['bench-recent', -1, 'bench-recent'] }));
await pool.end(); await orm.close();
