/** Visitor submissions (POST /api/discovery/submit) and the admins' review queue. */
import { z } from 'zod';
import { StreamUpdate, StreamUrl } from './streams.ts';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '../constants.ts';
import type { Platform } from '../streams/platform.ts';
import type { RequestHeaders } from '../streams/request-headers.ts';

const submitterName = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string()
    .trim()
    .max(80, 'Must be at most 80 characters')
    .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'Contains control characters')
    .optional(),
);

export const SubmitRequest = z.object({
  url: StreamUrl,
  /** Optional; 'anonymous' when empty (spec §5). */
  submittedBy: submitterName,
  /** The title extraction found, if any (shown to reviewers, never trusted as markup). */
  title: submitterName.pipe(z.string().max(200).optional()),
});
export type SubmitRequest = z.infer<typeof SubmitRequest>;

export interface SubmissionDto {
  id: number;
  url: string;
  normalized_url: string;
  title: string | null;
  platform: Platform | null;
  thumbnail: string | null;
  submitted_by: string;
  status: SubmissionStatus;
  created_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
  review_note: string | null;
  stream_id: number | null;
  /** Headers the stream needs (from a playlist); it becomes an inactive stream unless they are dropped. */
  request_headers: RequestHeaders | null;
}

/** The answer to a submission: stored, or already known (not an error: said plainly). */
export interface SubmitResultDto {
  id: number | null;
  status: SubmissionStatus | null;
  duplicate: 'stream' | 'submission' | null;
  message: string;
}

const filterText = (max: number) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().max(max, `Must be at most ${max} characters`).optional());

/** Which submissions a list or a bulk rejection is about (all given filters apply). */
export const SubmissionFilter = z.object({
  /** Words in the title or the address. */
  q: filterText(200),
  /** Exactly this submitter (a visitor's name, or `discovery: <source>`). */
  submitted_by: filterText(200),
  platform: filterText(40),
});
export type SubmissionFilter = z.output<typeof SubmissionFilter>;

/** GET /api/submissions: a page, oldest first while pending, newest first once reviewed; `cursor` is the last id of the page before. */
export const SubmissionListQuery = SubmissionFilter.extend({
  status: z.enum(SUBMISSION_STATUSES).default('pending'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.coerce.number().int().positive().optional(),
});
export type SubmissionListQuery = z.output<typeof SubmissionListQuery>;

export interface SubmissionPageDto {
  submissions: SubmissionDto[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: number | null;
  /** How many match the filter and status in all. */
  total: number;
  /** On the first page: who submitted what matches, with counts, most first (the review filter's choices). */
  submitters: { name: string; count: number }[] | null;
}

/** POST /api/submissions/reject-matching: rejects every pending submission the filter matches. */
export const SubmissionRejectMatching = z.object({
  filter: SubmissionFilter.default({}),
  note: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(1000, 'Must be at most 1000 characters').optional()),
});
export type SubmissionRejectMatching = z.output<typeof SubmissionRejectMatching>;

export interface RejectMatchingDto {
  rejected: number;
  pending: number;
}

/** Approve: the submission id, plus any stream field the reviewer changed before approving. */
export const SubmissionApprove = StreamUpdate.omit({ url: true });
export type SubmissionApprove = z.infer<typeof SubmissionApprove>;

export const SubmissionReject = z.object({
  id: StreamUpdate.shape.id,
  note: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(1000, 'Must be at most 1000 characters').optional()),
});
export type SubmissionReject = z.infer<typeof SubmissionReject>;

export interface SubmissionCountsDto {
  pending: number;
}
