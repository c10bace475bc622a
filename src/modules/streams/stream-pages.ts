/**
 * A page of the stream pool: searched (name, place, category, address — the one search rule),
 * filtered (active, category, grade bucket, ids) and sorted by the server with a keyset cursor, so page 200
 * costs what page 1 costs. Every sort has an index; the search uses a trigram index. The same
 * filters count the pool for the analytics (streamAnalytics).
 */
import type { EntityManager } from '../../db.ts';
import { CURSOR_REFUSAL } from '../../shared/api/streams.ts';
import { preparedRead } from '../../database/prepared-read.ts';
import { invalid } from '../../domain/errors.ts';
import type { StreamAnalyticsDto, StreamFilterQuery, StreamListQuery, StreamPageDto, StreamSort } from '../../shared/api/streams.ts';
import { CATEGORIES } from '../../shared/constants.ts';
import { HEALTH_STATES } from '../../shared/quality/health.ts';
import { GRADE_BUCKETS, type GradeBucket } from '../../shared/quality/grade.ts';
import { presentStream, streamColumns, type StreamFields } from './stream.presenter.ts';

const DEFAULT_PAGE = 50;
/** Matches are counted exactly up to this many. */
export const COUNT_CAP = 1000;

const COLUMNS = streamColumns('st');

/** Per sort: the key expression (as in its index), its direction, and how a cursor's text value is cast. */
const SORTS: Record<StreamSort, { key: string; dir: 'asc' | 'desc'; cast: string }> = {
  newest: { key: 'created_at', dir: 'desc', cast: 'timestamptz' },
  name: { key: 'lower(name)', dir: 'asc', cast: 'text' },
  quality: { key: 'coalesce(quality_score, -1)', dir: 'desc', cast: 'float8' },
  // By category, then by name, as one key (its own index).
  category: { key: `(category || chr(1) || lower(name))`, dir: 'asc', cast: 'text' },
};

/** Spec §5's grade buckets as conditions (a score of 0 is in none of them). */
const GRADE_SQL: Record<GradeBucket, string> = {
  A: 'quality_score >= 80',
  B: 'quality_score >= 60 and quality_score < 80',
  C: 'quality_score >= 40 and quality_score < 60',
  failed: 'quality_score > 0 and quality_score < 40',
  unreachable: 'quality_score <= 0',
  'not-analyzed': 'quality_score is null',
};

/** The table's filters as SQL conditions and their parameters. */
function filtersOf(query: StreamFilterQuery & Pick<StreamListQuery, 'ids'>): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.active !== undefined) {
    where.push('active = ?');
    params.push(query.active);
  }
  if (query.category) {
    where.push('category = ?');
    params.push(query.category);
  }
  if (query.grade) where.push(GRADE_SQL[query.grade]);
  if (query.ids) {
    where.push('id = any(?::int[])');
    params.push(`{${query.ids.join(',')}}`); // an array literal: one parameter however many ids
  }
  if (query.q) {
    where.push(`${SEARCH} like ?`);
    params.push(`%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { where, params };
}

/** A stored generated column (lower-case name, place, category and address) with a trigram index. */
const SEARCH = 'search_text';

interface Cursor {
  sort: StreamSort;
  key: string;
  id: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.key, cursor.id])).toString('base64url');
}

function decodeCursor(text: string, sort: StreamSort): Cursor {
  try {
    const [s, key, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (s === sort && typeof key === 'string' && key.length <= 300 && Number.isSafeInteger(id)) return { sort, key, id: id as number };
  } catch {
    // falls through to the readable error
  }
  throw invalid(`cursor: ${CURSOR_REFUSAL}`);
}

export function isPageQuery(query: StreamListQuery): boolean {
  return query.limit !== undefined || query.cursor !== undefined || query.q !== undefined || query.category !== undefined || query.sort !== undefined || query.grade !== undefined || query.ids !== undefined;
}

export async function streamPage(em: EntityManager, query: StreamListQuery & { active?: boolean | undefined }): Promise<StreamPageDto> {
  const sortName = query.sort ?? 'newest';
  const sort = SORTS[sortName];
  const limit = query.limit ?? DEFAULT_PAGE;
  const { where, params } = filtersOf(query);
  const filters = [...where];
  const filterParams = [...params]; // the count's: the filters without the cursor
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, sortName);
    where.push(`(${sort.key}, id) ${sort.dir === 'asc' ? '>' : '<'} (?::${sort.cast}, ?)`);
    params.push(cursor.key, cursor.id);
  }
  const clause = (parts: string[]) => (parts.length ? `where ${parts.join(' and ')}` : '');
  // Prepared: the SQL takes one of a bounded set of shapes (which filters, which sort).
  const rows = await preparedRead<StreamFields & { sortKey: string }>(
    em,
    `select ${COLUMNS}, (${sort.key})::text as "sortKey" from streams st ${clause(where)}
      order by ${sort.key} ${sort.dir}, id ${sort.dir} limit ?`,
    [...params, limit + 1],
  );
  // Counted on the first page only (later pages keep it), and only up to COUNT_CAP: "1,000+"
  // tells an operator as much as 9,412 does, at a fraction of the cost on a pool of thousands.
  // A search is not counted: it answers as the admin types, and its count would double its cost.
  const total = query.cursor || query.q
    ? null
    : ((await preparedRead<{ n: number }>(em, `select count(*)::int as n from (select 1 from streams st ${clause(filters)} limit ${COUNT_CAP + 1}) c`, filterParams))[0]?.n ?? 0);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    streams: page.map(presentStream),
    next_cursor: rows.length > limit && last ? encodeCursor({ sort: sortName, key: last.sortKey, id: last.id }) : null,
    total: total === null ? null : Math.min(total, COUNT_CAP),
    total_capped: total !== null && total > COUNT_CAP,
  };
}

/** Counts of the pool under the filters: the table's found/analysed/pending and the analytics panel, in one query. */
export async function streamAnalytics(em: EntityManager, query: StreamFilterQuery): Promise<StreamAnalyticsDto> {
  const { where, params } = filtersOf(query);
  const clause = where.length ? `where ${where.join(' and ')}` : '';
  const count = (condition: string) => `count(*) filter (where ${condition})::int`;
  const [row] = await em.execute<Record<string, number>[]>(
    `select count(*)::int as found, ${count('active')} as active, ${count('quality_score is not null')} as analyzed,
      ${count('active and (latitude is null or longitude is null)')} as unplaced,
      ${CATEGORIES.map((c) => `${count(`category = '${c}'`)} as "c_${c}"`).join(', ')},
      ${GRADE_BUCKETS.map((g) => `${count(GRADE_SQL[g])} as "g_${g}"`).join(', ')},
      ${HEALTH_STATES.map((h) => `${count(`health = '${h}'`)} as "h_${h}"`).join(', ')},
      ${Array.from({ length: 10 }, (_, i) => `${count(`quality_score is not null and least(9, floor(quality_score / 10)) = ${i}`)} as "s_${i}"`).join(', ')}
     from streams ${clause}`,
    params,
    'all',
  );
  const n = (key: string) => row?.[key] ?? 0;
  return {
    found: n('found'),
    active: n('active'),
    inactive: n('found') - n('active'),
    analyzed: n('analyzed'),
    pending: n('found') - n('analyzed'),
    active_without_location: n('unplaced'),
    by_category: Object.fromEntries(CATEGORIES.map((c) => [c, n(`c_${c}`)])) as StreamAnalyticsDto['by_category'],
    by_grade: Object.fromEntries(GRADE_BUCKETS.map((g) => [g, n(`g_${g}`)])) as StreamAnalyticsDto['by_grade'],
    by_health: Object.fromEntries(HEALTH_STATES.map((h) => [h, n(`h_${h}`)])) as StreamAnalyticsDto['by_health'],
    histogram: Array.from({ length: 10 }, (_, i) => n(`s_${i}`)),
  };
}
