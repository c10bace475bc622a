/**
 * The stream table's filters as the operator sets them, and the server query they become (the
 * search, filters and sort themselves are the server's: src/modules/streams/stream-pages.ts).
 * Table-tested in tests/unit-web/admin-rules.test.ts.
 */
import type { Category } from '../../../../src/shared/constants.ts';
import type { StreamSort } from '../../../../src/shared/api/index.ts';
import type { GradeBucket } from '../../../../src/shared/quality/grade.ts';
import type { StreamQuery } from './streams.live.ts';

export interface StreamFilters {
  search: string;
  category: Category | '';
  grade: GradeBucket | '';
  status: 'all' | 'active' | 'inactive';
  sort: StreamSort;
}

export const DEFAULT_FILTERS: StreamFilters = { search: '', category: '', grade: '', status: 'all', sort: 'quality' };

/** Spec §5's grade buckets, as the filter and the analytics panel name them. */
export const GRADE_LABELS: readonly (readonly [GradeBucket, string])[] = [
  ['A', 'A (80+)'],
  ['B', 'B (60–79)'],
  ['C', 'C (40–59)'],
  ['failed', 'Failed (below 40)'],
  ['unreachable', 'Unreachable'],
  ['not-analyzed', 'Not analyzed'],
];

export const SORT_LABELS: readonly (readonly [StreamSort, string])[] = [
  ['quality', 'Quality'],
  ['name', 'Name'],
  ['category', 'Category'],
  ['newest', 'Recent'],
];

/** The filters without paging: what the counts are read under. */
export function filterQuery(filters: StreamFilters): Omit<StreamQuery, 'sort' | 'limit' | 'cursor' | 'ids'> {
  const q = filters.search.trim();
  return {
    ...(q ? { q } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.grade ? { grade: filters.grade } : {}),
    ...(filters.status === 'all' ? {} : { active: filters.status === 'active' ? 'true' : 'false' }),
  };
}

/** The first page's query: the filters, the sort, 50 rows. */
export const pageQuery = (filters: StreamFilters): StreamQuery => ({ ...filterQuery(filters), sort: filters.sort, limit: 50 });
