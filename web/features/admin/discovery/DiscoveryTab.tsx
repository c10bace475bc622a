/**
 * Stream Discovery (spec §2, §4): source cards with their platform, last run and state — running
 * (blue) with live counts, failed (red) with the error, or idle — a run button each, Run All, and
 * the recent jobs. Everything moves with the hub's discovery pushes; the spec's 30 s refresh
 * (and the one 2 s after a run starts) stays only as a safety net.
 */
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import type { DiscoveryJobDto, DiscoverySourceDto } from '../../../../src/shared/api/index.ts';
import { CheckIcon, ClockIcon, CloseIcon, EditIcon, PlayIcon, PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { ConfirmDialog, Modal } from '../../../components/Modal.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { DataView } from '../../../components/DataView.tsx';
import { countOf } from '../../../lib/count.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime, timeAgo } from '../format.ts';
import { itemsOf } from '../live/live.ts';
import { discoveryJobsAtom, discoverySourcesAtom, discoveryStatsAtom, loadDiscovery as reload, newestFirst } from './discovery.live.ts';
import { cardState, foundAdded, jobSourceName, jobTally, lastRunText, newestJobOf, PLATFORM_LABELS } from './rules.ts';
import { SourceForm } from './SourceForm.tsx';
import './discovery.css';

const SAFETY_REFRESH_MS = 30_000;
const AFTER_RUN_MS = 2_000;
const SHOWN_JOBS = 5;
/** The jobs the console weighs (a source's state is its newest job among them). */
const RECENT_JOBS = 10;

function JobIcon({ job }: { job: DiscoveryJobDto }) {
  if (job.status === 'completed') return <CheckIcon className="job__icon job__icon--completed" aria-label="Completed" role="img" aria-hidden={false} />;
  if (job.status === 'failed') return <CloseIcon className="job__icon job__icon--failed" aria-label="Failed" role="img" aria-hidden={false} />;
  if (job.status === 'running') return <span className="spinner spinner--small" role="img" aria-label="Running" />;
  return <ClockIcon className="job__icon" aria-label="Queued" role="img" aria-hidden={false} />;
}

export default function DiscoveryTab() {
  const sources = useAtomValue(discoverySourcesAtom, { store });
  const jobs = itemsOf(useAtomValue(discoveryJobsAtom, { store }), newestFirst).slice(0, RECENT_JOBS);
  const stats = itemsOf(useAtomValue(discoveryStatsAtom, { store }));
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set());
  const [runningAll, setRunningAll] = useState(false);
  const [showJobs, setShowJobs] = useState(false);
  const [editing, setEditing] = useState<DiscoverySourceDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<DiscoverySourceDto | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const may = useMay();

  useEffect(() => {
    reload();
    const timer = setInterval(() => {
      reload();
      setNow(Date.now());
    }, SAFETY_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const afterRun = useCallback(() => setTimeout(reload, AFTER_RUN_MS), []);

  async function run(source: DiscoverySourceDto) {
    setPending((p) => new Set(p).add(source.id));
    try {
      await adminApi.runSource(source.id);
      afterRun();
    } catch (failure) {
      showFailure(serverSentence(failure, 'Failed to create discovery job'), failure);
    } finally {
      setPending((p) => {
        const next = new Set(p);
        next.delete(source.id);
        return next;
      });
    }
  }

  async function runAll() {
    setRunningAll(true);
    try {
      const { jobs: count } = await adminApi.runAllSources();
      showSuccess(`Started ${countOf(count, ['run', 'runs'])}`);
      afterRun();
    } catch (failure) {
      showFailure(serverSentence(failure, 'Failed to run all sources'), failure);
    } finally {
      setRunningAll(false);
    }
  }

  async function remove(source: DiscoverySourceDto) {
    setDeleting(null);
    try {
      await adminApi.deleteSource(source.id);
      showSuccess(`Deleted the source "${source.name}"`);
    } catch (failure) {
      showFailure('Failed to delete the source', failure);
    }
  }

  const list = itemsOf(sources);
  const anyRunning = runningAll || jobs.some((j) => j.status === 'running' || j.status === 'queued');
  const statOf = (id: number) => stats.find((s) => s.source_id === id);

  return (
    <section className="panel" aria-labelledby="discovery-title">
      <div className="panel__header">
        <div>
          <h2 id="discovery-title">Stream Discovery</h2>
          <p className="panel__hint">Sources find live cams on YouTube, Twitch, Vimeo, playlists and web pages; new ones join the pool (or the review queue) as they are found.</p>
        </div>
        <div className="scene-card__actions">
          <button type="button" className="button button--ghost" onClick={() => setEditing('new')} {...may.button('discovery.createSource')}>
            <PlusIcon width={16} height={16} /> Add source
          </button>
          <button type="button" className="button" onClick={() => void runAll()} disabled={list.length === 0 || anyRunning} {...may.button('discovery.run')}>
            {anyRunning ? 'Running...' : 'Run All Sources'}
          </button>
        </div>
      </div>

      <DataView
        value={sources.status === 'ready' ? list : null}
        error={sources.error}
        empty="No sources yet. Add a YouTube search, a Twitch category, an M3U playlist or a site to crawl."
      >
        {(list) => (
        <ul className="scene-grid" aria-label="Discovery sources">
          {list.map((source) => {
            const state = cardState(source, jobs, pending.has(source.id));
            const stat = statOf(source.id);
            return (
              <li key={source.id} className={`scene-card source-card source-card--${state.kind}`} data-source-id={source.id} data-state={state.kind}>
                <div className="scene-card__title">
                  <h3>{source.name}</h3>
                  <span className={`badge platform-badge platform-badge--${source.platform}`}>{PLATFORM_LABELS[source.platform]}</span>
                  {!source.active && <span className="badge badge--inactive">Inactive</span>}
                </div>
                <p className="scene-card__meta">
                  {lastRunText(stat?.last_run ?? null, now)}
                  {stat && stat.total_discovered > 0 ? ` · ${stat.total_added} added of ${stat.total_discovered} found in all` : ''}
                  {source.schedule ? ` · scheduled (${source.schedule})` : ''}
                  {source.deliver === 'review' ? ' · finds go to review' : ''}
                </p>
                {(() => {
                  const newest = newestJobOf(source, jobs);
                  const tally = newest ? jobTally(newest) : '';
                  return tally ? <p className="scene-card__meta source-card__tally">Last run: {tally}</p> : null;
                })()}
                {state.kind === 'running' && (
                  <p className="source-card__status" role="status">
                    <span className="spinner spinner--small" aria-hidden="true" /> {state.job?.status === 'running' ? `Running… ${foundAdded(state.job)}` : 'Starting…'}
                  </p>
                )}
                {state.kind === 'failed' && (
                  <p className="source-card__status source-card__status--failed" role="alert">
                    {state.error}
                  </p>
                )}
                <div className="scene-card__actions">
                  <button type="button" className="button button--small" onClick={() => void run(source)} disabled={state.kind === 'running' || !source.active} aria-label={`Run ${source.name}`} {...may.button('discovery.run')}>
                    <PlayIcon width={14} height={14} /> {state.kind === 'running' ? 'Running...' : 'Run'}
                  </button>
                  <button type="button" className="button button--ghost button--small" onClick={() => setEditing(source)} aria-label={`Edit ${source.name}`} {...may.button('discovery.updateSource')}>
                    <EditIcon width={14} height={14} /> Edit
                  </button>
                  <button type="button" className="button button--ghost button--small" onClick={() => setDeleting(source)} aria-label={`Delete ${source.name}`} {...may.button('discovery.deleteSource')}>
                    <TrashIcon width={14} height={14} /> Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
        )}
      </DataView>

      <div>
        <button type="button" className="link-button" onClick={() => setShowJobs((v) => !v)} aria-expanded={showJobs}>
          {showJobs ? 'Hide recent jobs' : `View recent jobs (${jobs.length})`}
        </button>
        {showJobs && (
          <ul className="job-list" aria-label="Recent jobs">
            {jobs.slice(0, SHOWN_JOBS).map((job) => (
              <li key={job.id} className={`job job--${job.status}`} data-job-id={job.id}>
                <JobIcon job={job} />
                <strong>{jobSourceName(job)}</strong>
                <span>{foundAdded(job)}</span>
                {jobTally(job) && <span className="job__tally">{jobTally(job)}</span>}
                {job.status === 'failed' && <span className="job__error">{job.error_message || 'Failed'}</span>}
                <time dateTime={job.created_at} title={formatDateTime(job.created_at)}>
                  {timeAgo(job.created_at, now)}
                </time>
              </li>
            ))}
            {jobs.length === 0 && <li className="job">No runs yet.</li>}
          </ul>
        )}
      </div>

      {editing && (
        <Modal title={editing === 'new' ? 'New discovery source' : `Edit ${editing.name}`} onClose={() => setEditing(null)} wide>
          <SourceForm source={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        </Modal>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this source?"
          message={`"${deleting.name}" and its schedule go; the streams it found stay in the pool.`}
          confirm="Delete source"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
