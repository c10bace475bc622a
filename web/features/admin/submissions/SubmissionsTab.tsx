/**
 * The review queue: visitors' submissions and discovery's finds arrive live; each can be
 * previewed in the real player, approved (it becomes an active stream, with the name and
 * category the reviewer set; inactive, saying why, when it needs headers a browser cannot
 * send) or rejected with a note. The queue is paged (thousands from one playlist), filtered by
 * words and submitter, and a filtered set can be rejected at once. Approved and rejected ones
 * stay listed as history.
 */
import { useAtomValue } from 'jotai';
import { useDeferredValue, useState } from 'react';
import type { SubmissionDto } from '../../../../src/shared/api/index.ts';
import { CATEGORIES, type Category } from '../../../../src/shared/constants.ts';
import { headersInactiveReason } from '../../../../src/shared/streams/request-headers.ts';
import { suggestCategory, suggestName } from '../../../../src/shared/streams/url.ts';
import { Player } from '../../../components/Player/Player.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { ErrorBox, Options } from '../../../components/FormParts.tsx';
import { DataView, ShowMore, Table } from '../../../components/DataView.tsx';
import { countOf, formFor, numberOf } from '../../../lib/count.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { useLiveFetch } from '../live/live.ts';
import { submissionsVersionAtom } from './submissions.live.ts';
import { formatDateTime, timeAgo } from '../format.ts';
import { Thumbnail } from '../../../components/Thumbnail.tsx';

type Status = 'pending' | 'approved' | 'rejected';

function Review({ submission, onDone }: { submission: SubmissionDto; onDone: () => void }) {
  const [name, setName] = useState(submission.title ?? suggestName(submission.url));
  const [category, setCategory] = useState<Category>(suggestCategory(`${submission.url} ${submission.title ?? ''}`));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const may = useMay();

  async function approve() {
    try {
      await adminApi.approveSubmission({ id: submission.id, name, category });
      showSuccess(`Approved "${name}": it is in the stream pool now`);
      onDone();
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to approve the submission'));
      showFailure('Failed to approve the submission', failure);
    }
  }

  async function reject() {
    try {
      await adminApi.rejectSubmission(submission.id, note);
      showSuccess('Rejected the submission');
      onDone();
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to reject the submission'));
      showFailure('Failed to reject the submission', failure);
    }
  }

  return (
    <div className="form-grid">
      <div className="span-all" style={{ aspectRatio: '16 / 9', position: 'relative', borderRadius: 8, overflow: 'hidden' }}>
        <Player stream={{ id: -submission.id, name, url: submission.url, fallback_url: null }} fit="contain" />
      </div>
      <p className="span-all scene-card__meta">
        {submission.url} · submitted by {submission.submitted_by} {timeAgo(submission.created_at)}
      </p>
      <label className="field">
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
      </label>
      <label className="field">
        Category
        <select value={category} onChange={(e) => setCategory(e.target.value as Category)}>
          <Options values={CATEGORIES} />
        </select>
      </label>
      <label className="field span-all">
        Note (shown with a rejection)
        <input value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} placeholder="Why it was rejected (optional)" />
      </label>
      <ErrorBox error={error} wide />
      <div className="modal__footer span-all">
        <button type="button" className="button button--ghost" onClick={() => void reject()} {...may.button('submission.reject')}>
          Reject
        </button>
        <button type="button" className="button" onClick={() => void approve()} disabled={name.trim() === ''} {...may.button('submission.approve')}>
          Approve
        </button>
      </div>
    </div>
  );
}

/** The page the console holds: the first page fetched for the filter, then each "Show more" appended. */
interface Listing {
  first: unknown;
  submissions: SubmissionDto[];
  nextCursor: number | null;
  total: number;
  submitters: { name: string; count: number }[];
}

export default function SubmissionsTab() {
  const version = useAtomValue(submissionsVersionAtom, { store });
  const [status, setStatus] = useState<Status>('pending');
  const [search, setSearch] = useState('');
  const [submitter, setSubmitter] = useState('');
  const q = useDeferredValue(search.trim());
  const [reviewing, setReviewing] = useState<SubmissionDto | null>(null);
  const [rejectingAll, setRejectingAll] = useState(false);
  const [more, setMore] = useState<Listing | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const may = useMay();
  const filter = { ...(q ? { q } : {}), ...(submitter ? { submitted_by: submitter } : {}) };
  const key = `${status}|${q}|${submitter}`;

  const { value: first, error } = useLiveFetch(() => adminApi.submissions({ status, ...filter }), key, version, 'Failed to load submissions');
  // Pages fetched with "Show more" belong to the first page they followed; a new first page starts over.
  const listing: Listing | null = first
    ? more && more.first === first
      ? more
      : { first, submissions: first.submissions, nextCursor: first.next_cursor, total: first.total, submitters: first.submitters ?? [] }
    : null;

  async function showMore() {
    if (!listing?.nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await adminApi.submissions({ status, ...filter, cursor: listing.nextCursor });
      setMore({ ...listing, submissions: [...listing.submissions, ...page.submissions], nextCursor: page.next_cursor, total: page.total });
    } catch (failure) {
      showFailure('Failed to load more submissions', failure);
    } finally {
      setLoadingMore(false);
    }
  }

  async function rejectAll(note: string) {
    setRejectingAll(false);
    try {
      const { rejected } = await adminApi.rejectMatching(filter, note);
      showSuccess(`Rejected ${countOf(rejected, ['submission', 'submissions'])}`);
    } catch (failure) {
      showFailure('Failed to reject the submissions', failure);
    }
  }

  const list = listing?.submissions ?? null;
  return (
    <section className="panel" aria-labelledby="submissions-title">
      <div className="panel__header">
        <h2 id="submissions-title">Submissions</h2>
        <label className="field">
          Show
          <select value={status} onChange={(e) => setStatus(e.target.value as Status)}>
            <option value="pending">Waiting for review</option>
            <option value="approved">Approved</option>
            <option value="rejected">Rejected</option>
          </select>
        </label>
      </div>
      <div className="toolbar">
        <label className="field toolbar__search">
          Search
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Title or address" />
        </label>
        <label className="field">
          Submitted by
          <select value={submitter} onChange={(e) => setSubmitter(e.target.value)}>
            <option value="">Anyone</option>
            {submitter && !listing?.submitters.some((s) => s.name === submitter) && <option value={submitter}>{submitter}</option>}
            {listing?.submitters.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} ({numberOf(s.count)})
              </option>
            ))}
          </select>
        </label>
        {status === 'pending' && listing && listing.total > 0 && (
          <button type="button" className="button button--ghost button--danger-text" onClick={() => setRejectingAll(true)} {...may.button('submission.rejectMatching')}>
            Reject all {numberOf(listing.total)} shown
          </button>
        )}
      </div>
      {listing && (
        <p className="counts" aria-live="polite">
          <span>
            <strong>{numberOf(listing.total)}</strong> {status === 'pending' ? 'waiting' : status}
          </span>
          <span>
            <strong>{numberOf(listing.submissions.length)}</strong> listed
          </span>
        </p>
      )}
      <DataView
        value={list}
        error={error}
        empty={q || submitter ? 'Nothing matches this filter.' : status === 'pending' ? 'No submissions are waiting. New ones appear here as visitors send them.' : 'None yet.'}
      >
        {(list) => (
          <Table columns={['Thumbnail', 'Title', 'Platform', 'Submitted by', 'When', status === 'pending' ? 'Actions' : 'Review']}>
            <tbody>
              {list.map((s) => (
                <tr key={s.id} data-submission-id={s.id}>
                  <td>
                    <Thumbnail url={s.url} name={s.title ?? s.url} />
                  </td>
                  <td>
                    <strong>{s.title ?? suggestName(s.url)}</strong>
                    <div className="scene-card__meta">{s.url}</div>
                    {s.request_headers && <div className="scene-card__meta status-reason">{headersInactiveReason(s.request_headers)}</div>}
                  </td>
                  <td>{s.platform ?? 'unknown'}</td>
                  <td>{s.submitted_by}</td>
                  <td>{formatDateTime(s.created_at)}</td>
                  <td>
                    {status === 'pending' ? (
                      <button type="button" className="button button--small" onClick={() => setReviewing(s)} {...may.button('submission.approve')}>
                        Review
                      </button>
                    ) : (
                      <span className="scene-card__meta">
                        {s.status} by {s.reviewed_by ?? '—'}
                        {s.review_note ? ` — ${s.review_note}` : ''}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </DataView>
      {listing?.nextCursor && <ShowMore onMore={() => void showMore()} loading={loadingMore} left={listing.total - listing.submissions.length} />}
      {reviewing && (
        <Modal title="Review submission" onClose={() => setReviewing(null)} wide>
          <Review submission={reviewing} onDone={() => setReviewing(null)} />
        </Modal>
      )}
      {rejectingAll && listing && (
        <RejectAllDialog total={listing.total} filter={[submitter && `from ${submitter}`, q && `matching "${q}"`].filter(Boolean).join(', ')} onConfirm={(note) => void rejectAll(note)} onCancel={() => setRejectingAll(false)} />
      )}
    </section>
  );
}

function RejectAllDialog(props: { total: number; filter: string; onConfirm: (note: string) => void; onCancel: () => void }) {
  const [note, setNote] = useState('');
  return (
    <Modal title="Reject submissions" onClose={props.onCancel}>
      <div className="modal__text">
        Reject all <strong>{numberOf(props.total)}</strong> waiting {formFor(props.total, ['submission', 'submissions'])}{props.filter ? ` ${props.filter}` : ''}? They stay listed under Rejected.
      </div>
      <label className="field">
        Note (optional)
        <input value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} placeholder="Why they were rejected" />
      </label>
      <div className="modal__footer">
        <button type="button" className="button button--ghost" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="button button--danger" onClick={() => props.onConfirm(note)}>
          Reject {numberOf(props.total)}
        </button>
      </div>
    </Modal>
  );
}
