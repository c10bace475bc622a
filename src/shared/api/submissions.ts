/** Visitor submissions (POST /api/discovery/submit) and the admins' review queue. */
import { z } from 'zod';
import { StreamUpdate, StreamUrl } from './streams.ts';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '../constants.ts';
import type { Platform } from '../streams/platform.ts';

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
}

/** The answer to a submission: stored, or already known (not an error: said plainly). */
export interface SubmitResultDto {
  id: number | null;
  status: SubmissionStatus | null;
  duplicate: 'stream' | 'submission' | null;
  message: string;
}

export const SubmissionListQuery = z.object({
  status: z.enum(SUBMISSION_STATUSES).default('pending'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

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
