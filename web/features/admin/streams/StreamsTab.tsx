/** The Streams tab (spec §2): analytics, add, search, filter, sort and the stream table. */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { StreamDto } from '../../../../src/shared/api/index.ts';
import type { QualityFilter } from '../../../../src/shared/quality/grade.ts';
import { guessPlatform } from '../../../../src/shared/streams/platform.ts';
import { CategoryLabel } from '../../../components/Badges.tsx';
import { ChartIcon, EditIcon, ExternalIcon, TrashIcon } from '../../../components/icons.tsx';
import { AnalyzeAllButton, AnalyzeAllProgress } from '../quality/AnalyzeAll.tsx';
import { QueuePanel } from '../quality/QueuePanel.tsx';
import { HealthBadge } from '../quality/HealthBadge.tsx';
import { HistoryModal } from '../quality/HistoryModal.tsx';
import { ReanalyzeButton } from '../quality/ReanalyzeButton.tsx';
import { Thumbnail } from '../../../components/Thumbnail.tsx';
import { ConfirmDialog, Modal } from '../../../components/Modal.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { readyOr, streamsAtom, upsertById } from '../atoms.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import { DEFAULT_QUERY, queryStreams, streamCounts, type StreamQuery } from '../rules.ts';
import { updateReady } from '../useAdminLive.ts';
import { AnalyticsPanel } from './AnalyticsPanel.tsx';
import { GradeBadge } from './GradeBadge.tsx';
import { EMPTY_STREAM, StreamForm, valuesOf, type StreamValues } from './StreamForm.tsx';
import { saveStream } from '../saving.ts';

/** Above this many rows the table renders only what is on screen (a pool of thousands stays smooth). */
const VIRTUAL_FROM = 200;

interface RowActions {
  onEdit: (s: StreamDto) => void;
  onDelete: (s: StreamDto) => void;
  onHistory: (s: StreamDto) => void;
}

function StreamRow(props: { stream: StreamDto; index: number; actions: RowActions; rowRef?: ((row: HTMLTableRowElement | null) => void) | undefined }) {
  const { stream, index, actions, rowRef } = props;
  return (
    <tr data-stream-id={stream.id} data-index={index} ref={rowRef}>
      <td className="table__num">{index + 1}</td>
      <td className="col-thumb">
        <Thumbnail url={stream.url} name={stream.name} />
      </td>
      <td>
        <strong>{stream.name}</strong>
        {stream.location_name && <div className="scene-card__meta">{stream.location_name}</div>}
      </td>
      <td>
        <GradeBadge stream={stream} />
      </td>
      <td>{guessPlatform(stream.url)}</td>
      <td>
        <CategoryLabel category={stream.category} />
      </td>
      <td>
        <span className={`status-dot${stream.active ? ' status-dot--live' : ''}`}>{stream.active ? 'Live' : 'Inactive'}</span>
        {stream.inactive_reason && <div className="scene-card__meta status-reason">{stream.inactive_reason}</div>}
      </td>
      <td>
        <HealthBadge health={stream.health} />
      </td>
      <td>
        <div className="row-actions">
          <ReanalyzeButton stream={stream} />
          <button type="button" className="icon-button" onClick={() => actions.onHistory(stream)} aria-label={`Quality history of ${stream.name}`}>
            <ChartIcon />
          </button>
          <a className="icon-button" href={stream.url} target="_blank" rel="noopener noreferrer" aria-label={`Open ${stream.name} on its platform`}>
            <ExternalIcon />
          </a>
          <button type="button" className="icon-button" onClick={() => actions.onEdit(stream)} aria-label={`Edit ${stream.name}`}>
            <EditIcon />
          </button>
          <button type="button" className="icon-button" onClick={() => actions.onDelete(stream)} aria-label={`Delete ${stream.name}`}>
            <TrashIcon />
          </button>
        </div>
      </td>
    </tr>
  );
}

function StreamRows({ streams, actions }: { streams: readonly StreamDto[]; actions: RowActions }) {
  const [body, setBody] = useState<HTMLTableSectionElement | null>(null);
  const virtual = streams.length > VIRTUAL_FROM;
  const virtualizer = useWindowVirtualizer({
    count: virtual ? streams.length : 0,
    estimateSize: () => 76,
    overscan: 10,
    scrollMargin: body ? body.getBoundingClientRect().top + window.scrollY : 0,
  });
  const row = (stream: StreamDto, index: number, rowRef?: (row: HTMLTableRowElement | null) => void) => (
    <StreamRow key={stream.id} stream={stream} index={index} actions={actions} rowRef={rowRef} />
  );
  if (!virtual) return <tbody>{streams.map((stream, index) => row(stream, index))}</tbody>;
  const items = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;
  const top = items.length > 0 ? items[0]!.start - margin : 0;
  const bottom = items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)!.end - margin) : 0;
  return (
    <tbody ref={setBody} data-virtual="true">
      {top > 0 && <tr aria-hidden="true" className="table__spacer" style={{ height: top }} />}
      {items.map((item) => row(streams[item.index]!, item.index, virtualizer.measureElement))}
      {bottom > 0 && <tr aria-hidden="true" className="table__spacer" style={{ height: bottom }} />}
    </tbody>
  );
}

export default function StreamsTab() {
  const loaded = useAtomValue(streamsAtom, { store });
  const streams = readyOr(loaded, []);
  const [query, setQuery] = useState<StreamQuery>(DEFAULT_QUERY);
  const [editing, setEditing] = useState<StreamDto | null>(null);
  const [deleting, setDeleting] = useState<StreamDto | null>(null);
  const [history, setHistory] = useState<StreamDto | null>(null);
  const shown = useMemo(() => queryStreams(streams, query), [streams, query]);
  const counts = streamCounts(shown);
  const update = <K extends keyof StreamQuery>(key: K) => (event: { target: { value: string } }) =>
    setQuery((q) => ({ ...q, [key]: event.target.value as StreamQuery[K] }));

  async function add(values: StreamValues): Promise<string | null> {
    const saved = await saveStream(null, values);
    if (!saved.ok) return saved.sentence;
    updateReady(streamsAtom, (list) => upsertById(list, saved.value, true));
    return null;
  }

  async function save(values: StreamValues): Promise<string | null> {
    if (!editing) return null;
    const saved = await saveStream(editing.id, values);
    if (!saved.ok) return saved.sentence;
    updateReady(streamsAtom, (list) => upsertById(list, saved.value));
    setEditing(null);
    return null;
  }

  async function remove(stream: StreamDto) {
    setDeleting(null);
    try {
      await adminApi.deleteStream(stream.id);
      updateReady(streamsAtom, (list) => list.filter((s) => s.id !== stream.id));
      showSuccess(`Deleted "${stream.name}"`);
    } catch (error) {
      showFailure('Failed to delete stream', error);
    }
  }

  return (
    <>
      <AnalyticsPanel streams={streams} />
      <section className="panel" aria-labelledby="add-stream-title">
        <div className="panel__header">
          <h2 id="add-stream-title">Add Stream</h2>
          <p className="panel__hint">YouTube, Twitch, Vimeo, EarthCam, SkylineWebcams, or a direct .m3u8 / .mp4 address.</p>
        </div>
        <StreamForm initial={EMPTY_STREAM} submitLabel="Add Stream" busyLabel="Adding..." onSubmit={add} idPrefix="add-stream" />
      </section>
      <section className="panel" aria-labelledby="streams-title">
        <div className="panel__header">
          <h2 id="streams-title">Streams</h2>
          <div className="panel__actions">
            <QueuePanel />
            <AnalyzeAllButton />
          </div>
        </div>
        <AnalyzeAllProgress />
        <div className="toolbar">
          <label className="field toolbar__search">
            Search
            <input type="search" value={query.search} onChange={update('search')} placeholder="Name, location or category" />
          </label>
          <label className="field">
            Quality
            <select value={query.quality} onChange={update('quality')}>
              {(
                [
                  ['all', 'All qualities'],
                  ['A', 'A (80+)'],
                  ['B', 'B (60–79)'],
                  ['C', 'C (40–59)'],
                  ['failed', 'Failed (below 40)'],
                  ['not-analyzed', 'Not analyzed'],
                ] as [QualityFilter, string][]
              ).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            Status
            <select value={query.status} onChange={update('status')}>
              <option value="all">All</option>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
            </select>
          </label>
          <label className="field">
            Sort
            <select value={query.sort} onChange={update('sort')}>
              <option value="quality">Quality</option>
              <option value="name">Name</option>
              <option value="category">Category</option>
              <option value="recent">Recent</option>
            </select>
          </label>
        </div>
        <p className="counts" aria-live="polite">
          <span>
            <strong>{counts.found}</strong> found
          </span>
          <span>
            <strong>{counts.analyzed}</strong> analyzed
          </span>
          <span>
            <strong>{counts.pending}</strong> pending
          </span>
        </p>
        {loaded.status === 'loading' ? (
          <p className="empty">Loading streams…</p>
        ) : loaded.status === 'error' ? (
          <p className="error-box" role="alert">
            Failed to fetch streams: {loaded.error}
          </p>
        ) : shown.length === 0 ? (
          <p className="empty">No streams found. Add your first stream above.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col" className="col-thumb">
                    Thumbnail
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Quality</th>
                  <th scope="col">Platform</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col">Health</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <StreamRows streams={shown} actions={{ onEdit: setEditing, onDelete: setDeleting, onHistory: setHistory }} />
            </table>
          </div>
        )}
      </section>
      {editing && (
        <Modal title="Edit Stream" onClose={() => setEditing(null)} wide>
          {editing.request_headers && (
            <p className="notice" role="note">
              {editing.inactive_reason ?? 'This stream needs request headers a browser cannot send.'} Its analyses send
              {editing.request_headers.user_agent ? ` User-Agent: ${editing.request_headers.user_agent}` : ''}
              {editing.request_headers.user_agent && editing.request_headers.referrer ? ' and' : ''}
              {editing.request_headers.referrer ? ` Referer: ${editing.request_headers.referrer}` : ''}.
            </p>
          )}
          <StreamForm
            initial={valuesOf(editing)}
            submitLabel="Save changes"
            busyLabel="Saving..."
            onSubmit={save}
            onCancel={() => setEditing(null)}
            idPrefix="edit-stream"
            editingId={editing.id}
          />
        </Modal>
      )}
      {history && <HistoryModal stream={history} onClose={() => setHistory(null)} />}
      {deleting && (
        <ConfirmDialog
          title="Delete stream"
          message={`Delete "${deleting.name}"?`}
          confirm="Delete"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
