/**
 * Reading a scene as screens show it, in one plain SQL round trip: the scene, its slots, the
 * default scene id and the candidate streams its algorithm needs. This is the hot path of every
 * push and cache fill, so it skips entity hydration; the shared selectSceneStreams still
 * decides which streams are shown, in which order.
 */
import type { SceneDto, SceneStreamDto } from '../../shared/api/index.ts';
import { DEFAULT_SCENE_KEY, SELECTION_ALGORITHMS, type SelectionAlgorithm } from '../../shared/constants.ts';
import { selectSceneStreams, type Placement } from '../../shared/scenes/selection.ts';
import { nextCrossing } from '../../shared/scenes/daylight.ts';
import type { EntityManager } from '../../db.ts';
import { preparedRead } from '../../database/prepared-read.ts';
import { presentStream, streamColumns, type StreamFields } from '../streams/stream.presenter.ts';
import { presentScene, type PickFields, type SceneFields } from './scene.presenter.ts';

export interface SceneSnapshot {
  scene: SceneDto;
  streams: SceneStreamDto[];
  /** When the streams may change by themselves (a daylight scene's next sunrise or sunset among its candidates). */
  validUntil?: number;
}

export type SceneWhere = { id: number } | { ref: string } | 'default';

const MAX_INT = 2_147_483_647;
/**
 * A daylight scene chooses among the best healthy streams with coordinates: with cameras spread
 * over the globe, about half are in daylight at any time, so a few hundred always fill five tiles.
 */
const DAYLIGHT_CANDIDATES = 300;

const STREAM_COLUMNS = streamColumns('st');
/** Pool scenes never show a recording replayed as live, unless an admin said it is fine. */
const POOLABLE = '(st.looped is null or st.recording_ok)';

/** Candidates of one algorithm as a JSON array. */
const candidates = (where: string, order: string) => `
  coalesce((select json_agg(c) from (
    select ${STREAM_COLUMNS} from streams st where ${where} ${order}
  ) c), '[]'::json)`;

/**
 * Pool candidates (recent, ranked): the best healthy ones and, to fill what they cannot, the best
 * offline ones — selectSceneStreams puts offline last, so a wall loses a dead camera at once but
 * never goes empty because of the venue's own outage.
 */
const poolCandidates = (order: string, picked = '') => `
  coalesce((select json_agg(c) from (
    (select ${STREAM_COLUMNS} from streams st
      where st.active and st.health <> 'offline' and ${POOLABLE} ${order} limit s."maxStreams")
    union all
    (select ${STREAM_COLUMNS} from streams st
      where st.active and st.health = 'offline' and ${POOLABLE} ${order} limit s."maxStreams")
    ${picked}
  ) c), '[]'::json)`;

/** A ranked scene's picks are candidates whatever their score now (they keep their tile until a rule says otherwise). */
const PICKED = `union all (select ${STREAM_COLUMNS} from ranked_picks rp join streams st on st.id = rp.stream_id where rp.scene_id = s.id)`;

/** What each algorithm reads beside the scene: its candidate streams (pre-selected in the order selectSceneStreams sorts) and, for ranked, its picks. */
const READS: Record<SelectionAlgorithm, { candidates: string; picks?: string }> = {
  recent: { candidates: poolCandidates('order by st.created_at desc, st.id desc') },
  ranked: {
    candidates: poolCandidates('order by st.quality_score desc nulls last, st.created_at desc, st.id desc', PICKED),
    picks: `coalesce((select json_agg(json_build_object('position', rp.position, 'stream_id', rp.stream_id, 'since', rp.since, 'reason', rp.reason) order by rp.position)
      from ranked_picks rp where rp.scene_id = s.id), '[]'::json)`,
  },
  manual: { candidates: candidates('st.id in (select stream_id from scene_streams where scene_id = s.id)', '') },
  daylight: {
    candidates: candidates(
      `st.active and st.health <> 'offline' and ${POOLABLE} and st.latitude is not null and st.longitude is not null`,
      `order by st.quality_score desc nulls last, st.id desc limit ${DAYLIGHT_CANDIDATES}`,
    ),
  },
};

/**
 * One round trip: the scene, the default scene id, its slots and what `algorithm` reads, gated
 * on the scene using it (a scene with another algorithm comes back with no candidates). One
 * statement per algorithm, because PostgreSQL sets up a statement's whole plan on every run,
 * branches a one-time filter skips included: with all four algorithms' branches in one plan,
 * the setup cost more than the read.
 */
const sceneQuery = (algorithm: SelectionAlgorithm, where: string, order = '') => `
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
    case when s."selectionAlgorithm" = '${algorithm}' then ${READS[algorithm].picks ?? `'[]'::json`} else '[]'::json end as picks,
    case when s."selectionAlgorithm" = '${algorithm}' then ${READS[algorithm].candidates} else '[]'::json end as candidates
  from s`;

const byAlgorithm = (where: string, order?: string) =>
  Object.fromEntries(SELECTION_ALGORITHMS.map((a) => [a, sceneQuery(a, where, order)])) as Record<SelectionAlgorithm, string>;
const BY_DEFAULT = byAlgorithm('s.id = (select id from d)');
const BY_ID = byAlgorithm('s.id = ?');
// A slug wins over an id made of the same digits (spec: /scenes/{slug}, id when there is no slug).
const BY_REF = byAlgorithm('(s.slug = ? or s.id = ?)', 'order by (s.slug = ?) desc nulls last');

type SceneRow = SceneFields & {
  defaultId: number | null;
  slots: Placement[];
  picks: PickFields[];
  candidates: StreamFields[];
};

/**
 * The algorithm each scene reference last resolved to: the statement to try first. A scene whose
 * algorithm changed since costs one more round trip, once. Bounded, since references come from URLs.
 */
const lastAlgorithm = new Map<string, SelectionAlgorithm>();
/**
 * Each scene's algorithm, as last read (by any reference): a default switched to another scene is
 * read with that scene's statement first — by the default's own last one, a switch between scenes
 * of two algorithms cost a second round trip on every push (bench:fanout's switches did).
 */
const algorithmOfScene = new Map<number, SelectionAlgorithm>();
const REMEMBERED_REFERENCES = 1_000;
const isAlgorithm = (value: string): value is SelectionAlgorithm => (SELECTION_ALGORITHMS as readonly string[]).includes(value);

async function readSceneRow(em: EntityManager, where: SceneWhere, algorithm: SelectionAlgorithm): Promise<SceneRow | null> {
  let rows: SceneRow[];
  if (where === 'default') rows = await preparedRead<SceneRow>(em, BY_DEFAULT[algorithm]);
  else if ('id' in where) rows = await preparedRead<SceneRow>(em, BY_ID[algorithm], [where.id]);
  else {
    const id = /^[1-9][0-9]{0,9}$/.test(where.ref) && Number(where.ref) <= MAX_INT ? Number(where.ref) : -1;
    rows = await preparedRead<SceneRow>(em, BY_REF[algorithm], [where.ref, id, where.ref]);
  }
  return rows[0] ?? null;
}

/** A prepared read, planned once per connection: this is every push's and cache fill's query. */
async function findSceneRow(em: EntityManager, where: SceneWhere, likely?: number): Promise<SceneRow | null> {
  const key = where === 'default' ? 'default' : 'id' in where ? `id:${where.id}` : `ref:${where.ref}`;
  let algorithm = (likely === undefined ? undefined : algorithmOfScene.get(likely)) ?? lastAlgorithm.get(key) ?? 'recent';
  // A second try reads with the scene's own algorithm; a third, only if it changed in between.
  for (let attempt = 0; ; attempt++) {
    const row = await readSceneRow(em, where, algorithm);
    if (!row) return null;
    if (row.selectionAlgorithm === algorithm) {
      if (lastAlgorithm.get(key) !== algorithm) {
        if (lastAlgorithm.size >= REMEMBERED_REFERENCES) lastAlgorithm.clear();
        lastAlgorithm.set(key, algorithm);
      }
      if (algorithmOfScene.get(row.id) !== algorithm) {
        if (algorithmOfScene.size >= REMEMBERED_REFERENCES) algorithmOfScene.clear();
        algorithmOfScene.set(row.id, algorithm);
      }
      return row;
    }
    // Not one of the four (the database allows only them), or still changing: a scene that shows nothing.
    if (!isAlgorithm(row.selectionAlgorithm) || attempt === 2) return { ...row, picks: [], candidates: [] };
    algorithm = row.selectionAlgorithm;
  }
}

/** Slots as the editor shows them: index i is position i+1, null for an empty slot. */
export function slotList(placements: readonly Placement[]): (number | null)[] {
  const list: (number | null)[] = [];
  for (const { stream_id, position } of placements) {
    while (list.length < position - 1) list.push(null);
    list[position - 1] = stream_id;
  }
  return list;
}

/** An offline stream with a second address plays that one (manual slots keep their camera). */
function withFallback<T extends SceneStreamDto>(stream: T): T {
  return stream.health === 'offline' && stream.fallback_url ? { ...stream, url: stream.fallback_url, fallback_url: stream.url } : stream;
}

/** The active scene `where` points at, resolved to what screens show; null when there is none. */
/** `likely`: for the default, the scene it probably is now (a change just made it so): its statement is tried first. */
export async function loadSceneSnapshot(em: EntityManager, where: SceneWhere, now = Date.now(), likely?: number): Promise<SceneSnapshot | null> {
  const row = await findSceneRow(em, where, likely);
  if (!row) return null;
  const algorithm = row.selectionAlgorithm;
  // A pick that is also among the best comes twice: once is enough.
  const pool = [...new Map(row.candidates.map((s) => [s.id, s])).values()].map(presentStream);
  // A ranked scene places its picks; a manual one its slots.
  const placements = algorithm === 'ranked' ? row.picks : row.slots;
  const streams = selectSceneStreams({ selection_algorithm: row.selectionAlgorithm, max_streams: row.maxStreams }, pool, placements, now).map(withFallback);
  const snapshot: SceneSnapshot = { scene: presentScene(row, slotList(row.slots), row.defaultId, row.picks), streams };
  if (algorithm === 'daylight') {
    const crossing = nextCrossing(pool, now);
    if (crossing !== null) snapshot.validUntil = crossing;
  }
  return snapshot;
}
