/**
 * Visitor submissions: stored as pending (one per stream identity, and never for a stream the
 * pool already has), then approved — it becomes an active stream, with the reviewer's edits or
 * the suggested name, category and location — or rejected with a note.
 */
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { conflict, invalid, notFound } from '../../domain/errors.ts';
import { NOT_ALLOWED } from '../../shared/constants.ts';
import type { SubmissionApprove, SubmissionReject, SubmitRequest, SubmitResultDto } from '../../shared/api/submissions.ts';
import { suggestLocationForCategory } from '../../shared/streams/location-suggestion.ts';
import { guessPlatform } from '../../shared/streams/platform.ts';
import { normalizeStreamUrl, suggestCategory, suggestName, thumbnailUrl } from '../../shared/streams/url.ts';
import { Stream } from '../streams/stream.entity.ts';
import { createStream } from '../streams/streams.service.ts';
import { Submission } from './submission.entity.ts';

export const SUBMITTED = 'Thank you! Your stream was submitted for review.';
export const ALREADY_STREAM = 'This stream is already on Nature Wall.';
export const ALREADY_SUBMITTED = 'This stream was already submitted and is waiting for review.';

/** `allows`: the address policy (a link to a private address or to this server is refused like extraction refuses it). */
export async function submitStream(em: EntityManager, changes: Changes, input: SubmitRequest, allows: (url: string) => boolean): Promise<SubmitResultDto> {
  if (!allows(input.url)) throw invalid(NOT_ALLOWED);
  const normalizedUrl = normalizeStreamUrl(input.url);
  if (await em.findOne(Stream, { normalizedUrl }, { fields: ['id'] })) {
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

export function listSubmissions(em: EntityManager, filter: { status: Submission['status']; limit: number }): Promise<Submission[]> {
  return em.find(Submission, { status: filter.status }, { orderBy: { createdAt: filter.status === 'pending' ? 'asc' : 'desc', id: 'asc' }, limit: filter.limit });
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
  const stream = await createStream(em, changes, {
    name: input.name ?? submission.title ?? suggestName(submission.url),
    url: submission.url,
    fallback_url: input.fallback_url ?? null,
    description: input.description ?? `Submitted by ${submission.submittedBy}`,
    category,
    quality: input.quality ?? 'hd',
    active: input.active ?? true,
    location_name: place ? place.name : input.location_name,
    latitude: place ? place.coordinates.lat : input.latitude,
    longitude: place ? place.coordinates.lon : input.longitude,
    timezone: place ? place.timezone : input.timezone,
  });
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
