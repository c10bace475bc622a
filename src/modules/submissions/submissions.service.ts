/**
 * Visitor submissions: stored as pending (one per stream identity, and never for a stream the
 * pool already has), then approved — it becomes an active stream, with the reviewer's edits or
 * the suggested name, category and location — or rejected with a note.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import { NOT_ALLOWED } from '../../shared/constants.ts';
import { raw, type FilterQuery } from '@mikro-orm/core';
import type { SubmissionApprove, SubmissionFilter, SubmissionListQuery, SubmissionReject, SubmissionRejectMatching, SubmitRequest, SubmitResultDto } from '../../shared/api/submissions.ts';
import { suggestLocationForCategory } from '../../shared/streams/location-suggestion.ts';
import { guessPlatform } from '../../shared/streams/platform.ts';
import { cleanRequestHeaders, headersInactiveReason, type RequestHeaders } from '../../shared/streams/request-headers.ts';
import { normalizeStreamUrl, suggestCategory, suggestName, thumbnailUrl } from '../../shared/streams/url.ts';
import { Stream } from '../streams/stream.entity.ts';
import { knownUrls, streamByUrl } from '../streams/stream-reads.ts';
import { createStream } from '../streams/streams.service.ts';
import { Submission } from './submission.entity.ts';

export const SUBMITTED = 'Thank you! Your stream was submitted for review.';
export const ALREADY_STREAM = 'This stream is already on Nature Wall.';
export const ALREADY_SUBMITTED = 'This stream was already submitted and is waiting for review.';

/** `allows`: the address policy (a link to a private address or to this server is refused like extraction refuses it). */
export async function submitStream(em: EntityManager, changes: Changes, input: SubmitRequest, allows: (url: string) => boolean): Promise<SubmitResultDto> {
  if (!allows(input.url)) throw invalid(NOT_ALLOWED);
  const normalizedUrl = normalizeStreamUrl(input.url);
  if (await streamByUrl(em, normalizedUrl)) {
    return { id: null, status: null, duplicate: 'stream', message: ALREADY_STREAM };
  }
  const pending = await em.findOne(Submission, { normalizedUrl, status: 'pending' }, { fields: ['id'] });
  if (pending) return { id: pending.id, status: 'pending', duplicate: 'submission', message: ALREADY_SUBMITTED };
  const submission = em.create(Submission, {
    url: input.url,
    normalizedUrl,
    title: input.title ?? null,
    platform: guessPlatform(input.url),
    thumbnail: thumbnailUrl(input.url),
    submittedBy: input.submittedBy ?? 'anonymous',
  });
  await em.flush();
  changes.push({ type: 'submission.created', submissionId: submission.id, name: submission.title ?? submission.url });
  return { id: submission.id, status: 'pending', duplicate: null, message: SUBMITTED };
}

/** The submissions a filter matches (all given filters apply; `q` is words in the title or the address). */
function matching(status: Submission['status'], filter: SubmissionFilter): FilterQuery<Submission> {
  const where: FilterQuery<Submission> & Record<string, unknown> = { status };
  if (filter.submitted_by) where.submittedBy = filter.submitted_by;
  if (filter.platform) where.platform = filter.platform;
  if (filter.q) {
    const like = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.$or = [{ title: { $ilike: like } }, { url: { $ilike: like } }];
  }
  return where;
}

/** A page of the queue (pending: oldest first) or of its history (newest first), keyset by id. */
export async function listSubmissions(em: EntityManager, query: SubmissionListQuery): Promise<{ rows: Submission[]; nextCursor: number | null; total: number; submitters: { name: string; count: number }[] | null }> {
  const where = matching(query.status, query);
  const oldestFirst = query.status === 'pending';
  const page = query.cursor === undefined ? where : { $and: [where, { id: oldestFirst ? { $gt: query.cursor } : { $lt: query.cursor } }] };
  const rows = await em.find(Submission, page, { orderBy: { id: oldestFirst ? 'asc' : 'desc' }, limit: query.limit + 1 });
  const more = rows.length > query.limit;
  if (more) rows.pop();
  const [total, submitters] = await Promise.all([
    em.count(Submission, where),
    query.cursor === undefined ? submittersOf(em, where) : null,
  ]);
  return { rows, nextCursor: more ? rows[rows.length - 1]!.id : null, total, submitters };
}

async function submittersOf(em: EntityManager, where: FilterQuery<Submission>): Promise<{ name: string; count: number }[]> {
  const rows = await em.createQueryBuilder(Submission, 's').select(['s.submittedBy', raw('count(*) as count')]).where(where as never).groupBy('s.submittedBy').orderBy({ [raw('count(*)')]: 'desc' }).limit(50).execute<{ submittedBy: string; count: string }[]>('all');
  return rows.map((r) => ({ name: r.submittedBy, count: Number(r.count) }));
}

/** Rejects every pending submission the filter matches, in one statement; one journal entry says how many. */
export async function rejectMatching(em: EntityManager, changes: Changes, input: SubmissionRejectMatching, reviewer: string): Promise<number> {
  const rejected = await em.nativeUpdate(Submission, matching('pending', input.filter), { status: 'rejected', reviewedAt: new Date(), reviewedBy: reviewer, reviewNote: input.note ?? null });
  if (rejected > 0) changes.push({ type: 'submission.bulk-rejected', count: rejected, name: `${rejected} submission${rejected === 1 ? '' : 's'}${describeFilter(input.filter)}` });
  return rejected;
}

function describeFilter(filter: SubmissionFilter): string {
  const parts = [filter.submitted_by ? `from ${filter.submitted_by}` : null, filter.platform ? `on ${filter.platform}` : null, filter.q ? `matching "${filter.q}"` : null].filter(Boolean);
  return parts.length ? ` ${parts.join(', ')}` : '';
}

export function countPending(em: EntityManager): Promise<number> {
  return em.count(Submission, { status: 'pending' });
}

async function pendingSubmission(em: EntityManager, id: number): Promise<Submission> {
  const submission = await em.findOne(Submission, { id });
  if (!submission) throw notFound(`Submission not found: ${id}`);
  if (submission.status !== 'pending') throw conflict(`This submission was already ${submission.status}`);
  return submission;
}

export async function approveSubmission(em: EntityManager, changes: Changes, input: SubmissionApprove, reviewer: string): Promise<Submission> {
  const submission = await pendingSubmission(em, input.id);
  const category = input.category ?? suggestCategory(`${submission.url} ${submission.title ?? ''}`);
  const place = input.location_name === undefined ? suggestLocationForCategory(category, submission.id) : null;
  // A playlist entry that needs headers a browser cannot send becomes a stream that waits inactive, saying why.
  const headers = cleanRequestHeaders(submission.requestHeaders);
  const stream = await createStream(em, changes, {
    name: input.name ?? submission.title ?? suggestName(submission.url),
    url: submission.url,
    fallback_url: input.fallback_url ?? null,
    description: input.description ?? `Submitted by ${submission.submittedBy}`,
    category,
    quality: input.quality ?? 'hd',
    active: headers ? false : (input.active ?? true),
    recording_ok: false,
    location_name: place ? place.name : input.location_name,
    latitude: place ? place.coordinates.lat : input.latitude,
    longitude: place ? place.coordinates.lon : input.longitude,
    timezone: place ? place.timezone : input.timezone,
  }, headers ? { requestHeaders: headers, inactiveReason: headersInactiveReason(headers) } : {});
  submission.status = 'approved';
  submission.reviewedAt = new Date();
  submission.reviewedBy = reviewer;
  submission.stream = em.getReference(Stream, stream.id);
  await em.flush();
  changes.push({ type: 'submission.approved', submissionId: submission.id, name: stream.name, streamId: stream.id });
  return submission;
}

export async function rejectSubmission(em: EntityManager, changes: Changes, input: SubmissionReject, reviewer: string): Promise<Submission> {
  const submission = await pendingSubmission(em, input.id);
  submission.status = 'rejected';
  submission.reviewedAt = new Date();
  submission.reviewedBy = reviewer;
  submission.reviewNote = input.note ?? null;
  await em.flush();
  changes.push({ type: 'submission.rejected', submissionId: submission.id, name: submission.title ?? submission.url });
  return submission;
}

export interface DiscoveredSubmission {
  url: string;
  title: string;
  thumbnail: string | null;
  headers: RequestHeaders | null;
}

/**
 * Files finds of a discovery run as pending submissions: not those the pool already has (asked
 * of the streams module), nor those already waiting (one statement; the unique index settles
 * races). Returns how many were filed and how many were known.
 */
export async function fileDiscovered(tx: EntityManager, changes: Changes, submittedBy: string, finds: readonly DiscoveredSubmission[]): Promise<{ filed: number; known: number }> {
  const unique = new Map(finds.map((f) => [normalizeStreamUrl(f.url), f]));
  const inPool = await knownUrls(tx, [...unique.keys()]); // the streams module says what the pool has
  const rows = [...unique.entries()].filter(([normalized]) => !inPool.has(normalized)).map(([normalized, f]) => ({
    url: f.url,
    normalized_url: normalized,
    title: f.title,
    platform: guessPlatform(f.url),
    thumbnail: thumbnailUrl(f.url) ?? f.thumbnail,
    request_headers: f.headers,
  }));
  if (rows.length === 0) return { filed: 0, known: 0 };
  const filed = await tx.execute<{ id: number; title: string }[]>(
    `insert into submissions (url, normalized_url, title, platform, thumbnail, request_headers, submitted_by, status, created_at)
      select r.url, r.normalized_url, r.title, r.platform, r.thumbnail, r.request_headers, ?, 'pending', now()
      from jsonb_to_recordset(?::jsonb) as r(url text, normalized_url text, title text, platform text, thumbnail text, request_headers jsonb)
      on conflict (normalized_url) where status = 'pending' do nothing
      returning id, title`,
    [submittedBy, JSON.stringify(rows)],
    'all',
  );
  for (const row of filed) changes.push({ type: 'submission.created', submissionId: row.id, name: row.title });
  return { filed: filed.length, known: finds.length - filed.length };
}

/** Which of these addresses wait in the review queue (a find there is not added to the pool behind the reviewer's back). */
export async function pendingAmong(tx: EntityManager, urls: readonly string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const identities = urls.map((u) => normalizeStreamUrl(u));
  const rows = await tx.find(Submission, { normalizedUrl: { $in: identities }, status: 'pending' }, { fields: ['normalizedUrl'] });
  return new Set(rows.map((r) => r.normalizedUrl));
}
