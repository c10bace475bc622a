import type { SubmissionDto } from '../../shared/api/submissions.ts';
import type { Platform } from '../../shared/streams/platform.ts';
import type { Submission } from './submission.entity.ts';

export function presentSubmission(s: Submission): SubmissionDto {
  return {
    id: s.id,
    url: s.url,
    normalized_url: s.normalizedUrl,
    title: s.title ?? null,
    platform: (s.platform as Platform | null | undefined) ?? null,
    thumbnail: s.thumbnail ?? null,
    submitted_by: s.submittedBy,
    status: s.status,
    created_at: s.createdAt.toISOString(),
    reviewed_at: s.reviewedAt ? s.reviewedAt.toISOString() : null,
    reviewed_by: s.reviewedBy ?? null,
    review_note: s.reviewNote ?? null,
    stream_id: s.stream?.id ?? null,
    request_headers: s.requestHeaders ?? null,
  };
}
