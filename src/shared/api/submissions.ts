/** Visitor submissions (POST /api/discovery/submit) and the admins' review queue. */
import { z } from 'zod';
import { StreamUpdate, StreamUrl } from './streams.ts';
import { SUBMISSION_STATUSES } from '../constants.ts';
import { IsoDate, line, multiline, name, PathId, queryInt, RequestHeadersDto } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { PLATFORM_GUESSES } from './discovery.ts';

/** Blank means "not given". */
const optionalName = (max: number) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), name({ max }).optional());

export const SubmitRequest = z.object({
  url: StreamUrl,
  /** Optional; 'anonymous' when empty (spec §5). */
  submittedBy: optionalName(80),
  /** The title extraction found, if any (shown to reviewers, never trusted as markup). */
  title: optionalName(200),
});
export type SubmitRequest = z.infer<typeof SubmitRequest>;

export const SubmissionDto = z.strictObject({
  id: z.number().int(),
  url: z.string(),
  normalized_url: z.string(),
  title: z.string().nullable(),
  platform: z.enum(PLATFORM_GUESSES).nullable(),
  thumbnail: z.string().nullable(),
  submitted_by: z.string(),
  status: z.enum(SUBMISSION_STATUSES),
  created_at: IsoDate,
  reviewed_at: IsoDate.nullable(),
  reviewed_by: z.string().nullable(),
  review_note: z.string().nullable(),
  stream_id: z.number().int().nullable(),
  request_headers: RequestHeadersDto.nullable().describe('Headers the stream needs (from a playlist); it becomes an inactive stream unless they are dropped'),
});
export type SubmissionDto = z.output<typeof SubmissionDto>;

/** The answer to a submission: stored, or already known (not an error: said plainly). */
export const SubmitResultDto = z.strictObject({
  id: z.number().int().nullable(),
  status: z.enum(SUBMISSION_STATUSES).nullable(),
  duplicate: z.enum(['stream', 'submission']).nullable(),
  message: z.string(),
});
export type SubmitResultDto = z.output<typeof SubmitResultDto>;

const filterText = (max: number) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), line({ max }).optional());

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
  limit: queryInt(1, 200).withDefault(50),
  cursor: PathId.optional(),
});
export type SubmissionListQuery = z.output<typeof SubmissionListQuery>;

export const SubmissionPageDto = z.strictObject({
  submissions: z.array(SubmissionDto),
  next_cursor: z.number().int().nullable().describe('Pass as `cursor` for the next page; null on the last one'),
  total: z.number().int().describe('How many match the filter and status in all'),
  submitters: z
    .array(z.strictObject({ name: z.string(), count: z.number().int() }))
    .nullable()
    .describe('On the first page: who submitted what matches, with counts, most first (the review filter\'s choices)'),
});
export type SubmissionPageDto = z.output<typeof SubmissionPageDto>;

/** POST /api/submissions/reject-matching: rejects every pending submission the filter matches. */
export const SubmissionRejectMatching = z.object({
  filter: SubmissionFilter.default({}),
  note: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), multiline({ max: 1000 }).optional()),
});
export type SubmissionRejectMatching = z.output<typeof SubmissionRejectMatching>;

export const RejectMatchingDto = z.strictObject({
  rejected: z.number().int(),
  pending: z.number().int().describe('What is left pending'),
});
export type RejectMatchingDto = z.output<typeof RejectMatchingDto>;

/** Approve: the submission id, plus any stream field the reviewer changed before approving. */
export const SubmissionApprove = StreamUpdate.omit({ url: true });
export type SubmissionApprove = z.infer<typeof SubmissionApprove>;

export const SubmissionReject = z.object({
  id: StreamUpdate.shape.id,
  note: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), multiline({ max: 1000 }).optional()),
});
export type SubmissionReject = z.infer<typeof SubmissionReject>;

export const SubmissionCountsDto = z.strictObject({
  pending: z.number().int(),
});
export type SubmissionCountsDto = z.output<typeof SubmissionCountsDto>;

export const submissionEndpoints = {
  submit: endpoint({
    ...ROUTES['submission.submit'],
    summary: 'A visitor submits a link for review (201 when filed, 200 when already known; rate-limited per IP)',
    access: 'public',
    body: SubmitRequest,
    responses: { 201: SubmitResultDto, 200: SubmitResultDto },
    statusOf: (answer) => ((answer as SubmitResultDto).duplicate ? 200 : 201),
    errors: [409, 429],
  }),
  list: endpoint({
    ...ROUTES['submission.list'],
    summary: 'A page of submissions (oldest first while pending, newest first once reviewed)',
    access: 'viewer',
    query: SubmissionListQuery,
    responses: { 200: SubmissionPageDto },
  }),
  count: endpoint({ ...ROUTES['submission.count'], summary: 'How many submissions wait for review', access: 'viewer', responses: { 200: SubmissionCountsDto } }),
  approve: endpoint({
    ...ROUTES['submission.approve'],
    summary: 'Approve a pending submission: it becomes a stream (with any fields the reviewer changed)',
    access: 'curator',
    body: SubmissionApprove,
    responses: { 200: SubmissionDto },
    errors: [404, 409],
  }),
  reject: endpoint({
    ...ROUTES['submission.reject'],
    summary: 'Reject a pending submission',
    access: 'curator',
    body: SubmissionReject,
    responses: { 200: SubmissionDto },
    errors: [404, 409],
  }),
  rejectMatching: endpoint({
    ...ROUTES['submission.rejectMatching'],
    summary: 'Reject every pending submission the filter matches',
    access: 'curator',
    body: SubmissionRejectMatching,
    responses: { 200: RejectMatchingDto },
  }),
};
