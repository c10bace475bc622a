/**
 * The review queue: visitors' submissions arrive live; each can be previewed in the real
 * player, approved (it becomes an active stream, with the name and category the reviewer
 * set) or rejected with a note. Approved and rejected ones stay listed as history.
 */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { SubmissionDto } from '../../../../src/shared/api/index.ts';
import { CATEGORIES } from '../../../../src/shared/constants.ts';
import { suggestCategory, suggestName } from '../../../../src/shared/streams/url.ts';
import { Player } from '../../../components/Player/Player.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { ErrorBox, Options } from '../../../components/FormParts.tsx';
import { submissionsVersionAtom } from '../atoms.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { useRemote } from '../useRemote.ts';
import { formatDateTime, timeAgo } from '../format.ts';
import { Thumbnail } from '../../../components/Thumbnail.tsx';

type Status = 'pending' | 'approved' | 'rejected';

function Review({ submission, onDone }: { submission: SubmissionDto; onDone: () => void }) {
  const [name, setName] = useState(submission.title ?? suggestName(submission.url));
  const [category, setCategory] = useState<string>(suggestCategory(`${submission.url} ${submission.title ?? ''}`));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

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
        <select value={category} onChange={(e) => setCategory(e.target.value)}>
          <Options values={CATEGORIES} />
        </select>
      </label>
      <label className="field span-all">
        Note (shown with a rejection)
        <input value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} placeholder="Why it was rejected (optional)" />
      </label>
      <ErrorBox error={error} wide />
      <div className="modal__footer span-all">
        <button type="button" className="button button--ghost" onClick={() => void reject()}>
          Reject
        </button>
        <button type="button" className="button" onClick={() => void approve()} disabled={name.trim() === ''}>
          Approve
        </button>
      </div>
    </div>
  );
}

export default function SubmissionsTab() {
  const version = useAtomValue(submissionsVersionAtom, { store });
  const [status, setStatus] = useState<Status>('pending');
  const [reviewing, setReviewing] = useState<SubmissionDto | null>(null);

  const { value: list, error } = useRemote(() => adminApi.submissions(status), `${status}:${version}`, 'Failed to load submissions');

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
      {error && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      {list === null ? (
        <p className="empty">Loading…</p>
      ) : list.length === 0 ? (
        <p className="empty">{status === 'pending' ? 'No submissions are waiting. New ones appear here as visitors send them.' : 'None yet.'}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Thumbnail</th>
                <th scope="col">Title</th>
                <th scope="col">Platform</th>
                <th scope="col">Submitted by</th>
                <th scope="col">When</th>
                <th scope="col">{status === 'pending' ? 'Actions' : 'Review'}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id} data-submission-id={s.id}>
                  <td>
                    <Thumbnail url={s.url} name={s.title ?? s.url} />
                  </td>
                  <td>
                    <strong>{s.title ?? suggestName(s.url)}</strong>
                    <div className="scene-card__meta">{s.url}</div>
                  </td>
                  <td>{s.platform ?? 'unknown'}</td>
                  <td>{s.submitted_by}</td>
                  <td>{formatDateTime(s.created_at)}</td>
                  <td>
                    {status === 'pending' ? (
                      <button type="button" className="button button--small" onClick={() => setReviewing(s)}>
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
          </table>
        </div>
      )}
      {reviewing && (
        <Modal title="Review submission" onClose={() => setReviewing(null)} wide>
          <Review submission={reviewing} onDone={() => setReviewing(null)} />
        </Modal>
      )}
    </section>
  );
}
