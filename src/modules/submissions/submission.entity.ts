import { defineEntity, p } from '@mikro-orm/core';
import { SUBMISSION_STATUSES } from '../../shared/constants.ts';
import type { RequestHeaders } from '../../shared/streams/request-headers.ts';
import { Stream } from '../streams/stream.entity.ts';

/** A visitor's stream link waiting for an admin to approve (it becomes a stream) or reject. */
export const SubmissionSchema = defineEntity({
  name: 'Submission',
  tableName: 'submissions',
  properties: {
    id: p.integer().primary(),
    url: p.text(),
    normalizedUrl: p.text().index('submissions_normalized_url_idx'),
    title: p.text().nullable(),
    platform: p.text().nullable(),
    thumbnail: p.text().nullable(),
    submittedBy: p.text().default('anonymous'),
    status: p.enum(SUBMISSION_STATUSES).default('pending'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    reviewedAt: p.datetime().nullable(),
    reviewedBy: p.text().nullable(),
    reviewNote: p.text().nullable(),
    stream: () => p.manyToOne(Stream).nullable().deleteRule('set null'),
    /** Headers the stream needs (from a playlist), carried to the stream it becomes. */
    requestHeaders: p.json<RequestHeaders>().nullable(),
  },
  indexes: [
    { name: 'submissions_status_created_idx', properties: ['status', 'createdAt'] },
    { name: 'submissions_status_id_idx', properties: ['status', 'id'] },
    // One pending submission per stream identity, whatever the race between two visitors.
    {
      name: 'submissions_pending_unique',
      expression: `create unique index "submissions_pending_unique" on "submissions" ("normalized_url") where "status" = 'pending'`,
    },
  ],
});

export class Submission extends SubmissionSchema.class {}
SubmissionSchema.setClass(Submission);
