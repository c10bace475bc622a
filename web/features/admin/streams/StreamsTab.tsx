/**
 * The Streams tab (spec §2): analytics, add, search, filter, sort and the stream table. The
 * table shows the server's pages (its one search rule, filters and sort, for a pool of any size):
 * 50 rows, then "Show more"; beyond 200 rows only what is on screen is rendered. The counts are
 * the server's, under the same filters.
 */
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useAtomValue } from 'jotai';
import { useDeferredValue, useState } from 'react';
import type { StreamAnalyticsDto, StreamDto } from '../../../../src/shared/api/index.ts';
import { CATEGORIES } from '../../../../src/shared/constants.ts';
import { guessPlatform } from '../../../../src/shared/streams/platform.ts';
import { CategoryLabel } from '../../../components/Badges.tsx';
import { ChartIcon, EditIcon, ExternalIcon, TrashIcon } from '../../../components/icons.tsx';
import { AnalyzeAllButton, AnalyzeAllProgress } from '../quality/AnalyzeAll.tsx';
import { QueuePanel } from '../quality/QueuePanel.tsx';
import { HealthBadge } from '../quality/HealthBadge.tsx';
import { ActivitySpark, LoopedNote } from '../quality/Activity.tsx';
import { CameraClockNote } from '../quality/CameraClockNote.tsx';
import { HistoryModal } from '../quality/HistoryModal.tsx';
import { ReanalyzeButton } from '../quality/ReanalyzeButton.tsx';
import { StreamStill } from '../../../components/Thumbnail.tsx';
import { ConfirmDialog, Modal } from '../../../components/Modal.tsx';
import { DataView, ShowMore, Table } from '../../../components/DataView.tsx';
import { Options } from '../../../components/FormParts.tsx';
import { call } from '../../../lib/api.ts';
import { numberOf } from '../../../lib/count.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import { useLiveFetch } from '../live/live.ts';
import { AnalyticsPanel } from './AnalyticsPanel.tsx';
import { GradeBadge } from './GradeBadge.tsx';
import { EMPTY_STREAM, StreamForm, valuesOf, type StreamValues } from './StreamForm.tsx';
import { saveStream } from '../saving.ts';
import { DEFAULT_FILTERS, filterQuery, GRADE_LABELS, pageQuery, SORT_LABELS, type StreamFilters } from './stream-filters.ts';
import { forgetDeleted, rememberWritten, streamsChangedAtom } from './streams.live.ts';
import { useStreamPages } from './useStreamPages.ts';
import './streams.css';

/** Above this many rows the table renders only what is on screen (a pool of thousands stays smooth). */
const VIRTUAL_FROM = 200;

interface RowActions {
  onEdit: (s: StreamDto) => void;
  onDelete: (s: StreamDto) => void;
  onHistory: (s: StreamDto) => void;
}

function StreamRow(props: { stream: StreamDto; index: number; actions: RowActions; rowRef?: ((row: HTMLTableRowElement | null) => void) | undefined }) {
  const { stream, index, actions, rowRef } = props;
  const may = useMay();
  return (
    <tr data-stream-id={stream.id} data-index={index} ref={rowRef}>
      <td className="table__num">{index + 1}</td>
      <td className="col-thumb">
        <StreamStill stream={stream} />
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
        <ActivitySpark stream={stream} />
      </td>
      <td>
        <HealthBadge health={stream.health} />
        <LoopedNote stream={stream} />
        <CameraClockNote stream={stream} />
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
          <button type="button" className="icon-button" onClick={() => actions.onEdit(stream)} aria-label={`Edit ${stream.name}`} {...may.button('stream.update')}>
            <EditIcon />
          </button>
          <button type="button" className="icon-button" onClick={() => actions.onDelete(stream)} aria-label={`Delete ${stream.name}`} {...may.button('stream.remove')}>
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

const COLUMNS = ['#', { label: 'Thumbnail', className: 'col-thumb' }, 'Name', 'Quality', 'Platform', 'Category', 'Status', 'Activity', 'Health', 'Actions'] as const;

/** Found, analysed and pending under the table's filters (spec §2), from the server. */
function Counts({ counts }: { counts: StreamAnalyticsDto | null }) {
  return (
    <p className="counts" aria-live="polite">
      <span>
        <strong>{counts ? numberOf(counts.found) : '…'}</strong> found
      </span>
      <span>
        <strong>{counts ? numberOf(counts.analyzed) : '…'}</strong> analyzed
      </span>
      <span>
        <strong>{counts ? numberOf(counts.pending) : '…'}</strong> pending
      </span>
    </p>
  );
}

export default function StreamsTab() {
  const [filters, setFilters] = useState<StreamFilters>(DEFAULT_FILTERS);
  // Typing stays responsive: the server is asked once the search has settled for a beat.
  const search = useDeferredValue(filters.search);
  const asked = { ...filters, search };
  const pages = useStreamPages(pageQuery(asked));
  const counted = filterQuery(asked);
  const changed = useAtomValue(streamsChangedAtom, { store });
  const counts = useLiveFetch(() => call('stream.analytics', { query: counted }), JSON.stringify(counted), changed, 'Failed to count streams');
  const [editing, setEditing] = useState<StreamDto | null>(null);
  const [deleting, setDeleting] = useState<StreamDto | null>(null);
  const [history, setHistory] = useState<StreamDto | null>(null);
  const update = <K extends keyof StreamFilters>(key: K) => (event: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [key]: event.target.value as StreamFilters[K] }));

  async function add(values: StreamValues): Promise<string | null> {
    const saved = await saveStream(null, values);
    if (!saved.ok) return saved.sentence;
    rememberWritten(saved.value);
    return null;
  }

  async function save(values: StreamValues): Promise<string | null> {
    if (!editing) return null;
    const saved = await saveStream(editing.id, values);
    if (!saved.ok) return saved.sentence;
    rememberWritten(saved.value);
    setEditing(null);
    return null;
  }

  async function remove(stream: StreamDto) {
    setDeleting(null);
    try {
      await adminApi.deleteStream(stream.id);
      forgetDeleted(stream.id);
      showSuccess(`Deleted "${stream.name}"`);
    } catch (error) {
      showFailure('Failed to delete stream', error);
    }
  }

  const filtered = filters.search.trim() !== '' || filters.category !== '' || filters.grade !== '' || filters.status !== 'all';
  return (
    <>
      <AnalyticsPanel />
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
            <input type="search" value={filters.search} onChange={update('search')} placeholder="Name, location, category or address" />
          </label>
          <label className="field">
            Category
            <select value={filters.category} onChange={update('category')}>
              <Options values={[['', 'All categories'], ...CATEGORIES]} />
            </select>
          </label>
          <label className="field">
            Quality
            <select value={filters.grade} onChange={update('grade')}>
              <Options values={[['', 'All qualities'], ...GRADE_LABELS]} />
            </select>
          </label>
          <label className="field">
            Status
            <select value={filters.status} onChange={update('status')}>
              <Options values={[['all', 'All'], ['active', 'Active'], ['inactive', 'Inactive']]} />
            </select>
          </label>
          <label className="field">
            Sort
            <select value={filters.sort} onChange={update('sort')}>
              <Options values={SORT_LABELS} />
            </select>
          </label>
        </div>
        <Counts counts={counts.value} />
        <DataView
          value={pages.rows}
          error={pages.error && `Failed to fetch streams: ${pages.error}`}
          loading="Loading streams…"
          empty={filtered ? 'No streams match these filters.' : 'No streams found. Add your first stream above.'}
        >
          {(rows) => (
            <Table columns={COLUMNS}>
              <StreamRows streams={rows} actions={{ onEdit: setEditing, onDelete: setDeleting, onHistory: setHistory }} />
            </Table>
          )}
        </DataView>
        {pages.hasMore && pages.rows && <ShowMore onMore={pages.showMore} loading={pages.loadingMore} left={counts.value ? counts.value.found - pages.rows.length : null} />}
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
