/**
 * The scene editor (spec §2, §4, §5): name, algorithm, description, prompt, layout (with a
 * preview), active; for manual scenes five slots filled by drag-and-drop (@dnd-kit: pointer and
 * keyboard) or Add, emptied with X, reordered by dragging; a collapsible Available Streams list
 * with search (the server's one search rule, over active streams, a page at a time) and the N/5
 * counter. Used by the Scenes tab and the Live Wall's admin panel.
 */
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useDraggable,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, rectSortingStrategy, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useDeferredValue, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { SceneDto, StreamDto } from '../../../../src/shared/api/index.ts';
import { LAYOUT_TYPES, MAX_SCENE_STREAMS, SELECTION_ALGORITHM_HINTS, type LayoutType, type SelectionAlgorithm } from '../../../../src/shared/constants.ts';
import { CloseIcon, PlusIcon } from '../../../components/icons.tsx';
import { sceneRef } from '../../../lib/api.ts';
import { StreamStill } from '../../../components/Thumbnail.tsx';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { DataView, ShowMore } from '../../../components/DataView.tsx';
import { numberOf } from '../../../lib/count.ts';
import { addToSlots, filledCount, moveSlot, placedIds, placeInSlot, removeFromSlots, slotsOf, type Slots } from './slots.ts';
import { poolAnalyticsAtom, useStreamsById } from '../streams/streams.live.ts';
import { useAtomValue } from 'jotai';
import { store } from '../../../lib/store.ts';
import { countOf } from '../../../lib/count.ts';
import { useStreamPages } from '../streams/useStreamPages.ts';
import { useMay } from '../access.ts';
import './scenes.css';

export interface SceneDraft {
  name: string;
  selection_algorithm: SelectionAlgorithm;
  description: string;
  prompt: string;
  layout_type: LayoutType;
  active: boolean;
  stream_ids: Slots;
}

export function draftOf(scene: SceneDto | null): SceneDraft {
  return {
    name: scene?.name ?? '',
    selection_algorithm: scene?.selection_algorithm ?? 'manual',
    description: scene?.description ?? '',
    prompt: scene?.prompt ?? '',
    layout_type: scene?.layout_type ?? 'grid',
    active: scene?.active ?? true,
    stream_ids: slotsOf(scene),
  };
}

const ALGORITHMS: [SelectionAlgorithm, string][] = [
  ['manual', 'Manual (the slots below)'],
  ['ranked', 'Ranked (best quality first)'],
  ['recent', 'Recent (newest streams)'],
  ['daylight', 'Follows the sun (where it is day now)'],
];

export function LayoutPreview({ layout }: { layout: LayoutType }) {
  return (
    <span className={`layout-preview layout-preview--${layout}`} aria-hidden="true">
      {Array.from({ length: 5 }, (_, i) => (
        <span key={i} />
      ))}
    </span>
  );
}

/** More than this many draggable streams at once is a list nobody reads: search narrows it, or Show more. */
const AVAILABLE_PAGE = 60;

const slotId = (index: number) => `slot-${index}`;

/** What a screen reader hears while dragging: stream names and slot numbers, not ids. */
function announcements(byId: ReadonlyMap<number, Pick<StreamDto, 'name'> | null>) {
  const describe = (id: string | number) => {
    const text = String(id);
    if (text.startsWith('slot-')) return `slot ${Number(text.slice(5)) + 1}`;
    return byId.get(Number(text.replace('stream-', '')))?.name ?? text;
  };
  return {
    onDragStart: ({ active }: { active: { id: string | number } }) => `Picked up ${describe(active.id)}.`,
    onDragOver: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? `${describe(active.id)} is over ${describe(over.id)}.` : `${describe(active.id)} is no longer over a slot.`,
    onDragEnd: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      over ? `${describe(active.id)} was dropped on ${describe(over.id)}.` : `${describe(active.id)} was dropped.`,
    onDragCancel: ({ active }: { active: { id: string | number } }) => `Moving ${describe(active.id)} was cancelled.`,
  };
}
const streamDragId = (id: number) => `stream-${id}`;

function Slot(props: { index: number; stream: StreamDto | null; streamId: number | null; onRemove: () => void }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isOver, isDragging } = useSortable({
    id: slotId(props.index),
    disabled: props.streamId === null,
  });
  // The draggable handle and the remove button are siblings: no control nested in another.
  return (
    <li
      ref={setNodeRef}
      className={`slot${props.streamId !== null ? ' slot--filled' : ''}${isOver ? ' slot--over' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
      data-slot={props.index + 1}
    >
      <div ref={setActivatorNodeRef} className="slot__handle" {...attributes} {...listeners} aria-roledescription="slot">
        <span className="slot__number">Slot {props.index + 1}</span>
        {props.stream ? (
          <>
            <StreamStill stream={props.stream} />
            <span className="slot__name">{props.stream.name}</span>
          </>
        ) : props.streamId !== null ? (
          <span className="scene-card__meta">Stream #{props.streamId} (inactive or removed)</span>
        ) : (
          <span className="scene-card__meta">Empty: drop a stream here</span>
        )}
      </div>
      {props.streamId !== null && (
        <button type="button" className="icon-button slot__remove" aria-label={`Remove ${props.stream?.name ?? `stream #${props.streamId}`} from slot ${props.index + 1}`} onClick={props.onRemove}>
          <CloseIcon />
        </button>
      )}
    </li>
  );
}

function AvailableItem({ stream, canAdd, onAdd }: { stream: StreamDto; canAdd: boolean; onAdd: () => void }) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: streamDragId(stream.id) });
  return (
    <li className="available__item" data-stream-name={stream.name} style={{ transform: CSS.Translate.toString(transform), opacity: isDragging ? 0.6 : 1 }}>
      <div ref={setNodeRef} className="available__handle" {...attributes} {...listeners} aria-roledescription="draggable stream">
        <StreamStill stream={stream} />
        <span className="available__name">
          {stream.name}
          <small>
            {stream.category}
            {stream.location_name ? ` · ${stream.location_name}` : ''}
          </small>
        </span>
      </div>
      <button type="button" className="button button--ghost button--small" disabled={!canAdd} onClick={onAdd} aria-label={`Add ${stream.name}`}>
        <PlusIcon width={16} height={16} /> Add
      </button>
    </li>
  );
}

export function SceneEditor(props: {
  scene: SceneDto | null;
  /** Answers an error sentence for the red box, or null when saved. */
  onSave: (draft: SceneDraft) => Promise<string | null>;
  onCancel: () => void;
  /** The Live Wall panel: manual only, saving needs at least one stream (spec §2). */
  compact?: boolean;
}) {
  const [draft, setDraft] = useState(() => draftOf(props.scene));
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [showAvailable, setShowAvailable] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const may = useMay();
  const placed = placedIds(draft.stream_ids);
  const byId = useStreamsById(placed);
  // Typing stays responsive with thousands of streams: the server is asked once the search settles.
  const q = deferredSearch.trim();
  const pages = useStreamPages({ active: 'true', sort: 'name', limit: AVAILABLE_PAGE, ...(q ? { q } : {}) });
  const available = useMemo(() => (pages.rows ?? []).filter((s) => !placed.includes(s.id)), [pages.rows, placed.join(',')]);
  const availableCount = pages.total === null ? `${numberOf(available.length)}${pages.hasMore ? '+' : ''}` : numberOf(Math.max(0, pages.total - placed.filter((id) => byId.get(id)?.active).length));
  const filled = filledCount(draft.stream_ids);
  const manual = draft.selection_algorithm === 'manual';
  const unplaced = useAtomValue(poolAnalyticsAtom, { store })?.active_without_location ?? 0;
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const setSlots = (slots: Slots) => setDraft((d) => ({ ...d, stream_ids: slots }));
  const nameMissing = draft.name.trim() === '';
  const needsStream = props.compact === true && filled === 0;

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over) return;
    const to = Number(String(over.id).replace('slot-', ''));
    if (!String(over.id).startsWith('slot-')) return;
    const activeId = String(active.id);
    if (activeId.startsWith('slot-')) setSlots(moveSlot(draft.stream_ids, Number(activeId.replace('slot-', '')), to));
    else if (activeId.startsWith('stream-')) setSlots(placeInSlot(draft.stream_ids, Number(activeId.replace('stream-', '')), to));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (nameMissing) return setError('Scene name is required');
    setBusy(true);
    setError(null);
    const failure = await props.onSave({ ...draft, name: draft.name.trim() });
    setBusy(false);
    if (failure) setError(failure);
  }

  const field = <K extends keyof SceneDraft>(key: K) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: event.target.value }));

  return (
    <form className="form-grid" onSubmit={submit} noValidate aria-label={props.scene ? `Edit scene ${props.scene.name}` : 'New scene'}>
      <label className="field" htmlFor="scene-name">
        Name
        <input id="scene-name" value={draft.name} onChange={field('name')} required maxLength={120} aria-invalid={nameMissing} />
      </label>
      {!props.compact && (
        <label className="field" htmlFor="scene-algorithm">
          Selection algorithm
          <select id="scene-algorithm" value={draft.selection_algorithm} onChange={field('selection_algorithm')}>
            {ALGORITHMS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field span-all" htmlFor="scene-description">
        Description
        <input id="scene-description" value={draft.description} onChange={field('description')} maxLength={2000} />
      </label>
      {!props.compact && (
        <label className="field span-all" htmlFor="scene-prompt">
          Prompt
          <textarea id="scene-prompt" value={draft.prompt} onChange={field('prompt')} maxLength={2000} placeholder="What this scene is about (optional)" />
        </label>
      )}
      <label className="field" htmlFor="scene-layout">
        Layout
        <span className="toolbar">
          <select id="scene-layout" className="control" value={draft.layout_type} onChange={field('layout_type')}>
            {LAYOUT_TYPES.map((layout) => (
              <option key={layout} value={layout}>
                {layout[0]!.toUpperCase() + layout.slice(1)}
              </option>
            ))}
          </select>
          <LayoutPreview layout={draft.layout_type} />
        </span>
      </label>
      <label className="field field--check" htmlFor="scene-active">
        <input id="scene-active" type="checkbox" checked={draft.active} onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))} />
        Active
      </label>
      {props.scene && (
        <p className="span-all">
          <Link to={`/scenes/${encodeURIComponent(sceneRef(props.scene))}`} target="_blank">
            View Scene
          </Link>
        </p>
      )}

      {manual ? (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements: announcements(new Map([...available.map((st) => [st.id, st] as const), ...byId])) }}>
          <fieldset className="span-all panel">
            <legend className="panel__header">
              <h3>
                Slots <span className="scene-card__meta">({filled}/{MAX_SCENE_STREAMS})</span>
              </h3>
            </legend>
            <p className="panel__hint">Drag streams into the slots, or use Add. Drag a slot (or press Space on it, then the arrow keys) to reorder.</p>
            <SortableContext items={draft.stream_ids.map((_, i) => slotId(i))} strategy={rectSortingStrategy}>
              <ol className="slots" aria-label="Scene slots">
                {draft.stream_ids.map((id, i) => (
                  <Slot key={slotId(i)} index={i} streamId={id} stream={id === null ? null : byId.get(id) ?? null} onRemove={() => setSlots(removeFromSlots(draft.stream_ids, i))} />
                ))}
              </ol>
            </SortableContext>
            <div className="panel__header">
              <button type="button" className="button button--ghost button--small" aria-expanded={showAvailable} onClick={() => setShowAvailable((v) => !v)}>
                {showAvailable ? 'Hide' : 'Show'} Available Streams ({availableCount})
              </button>
              <span className="scene-card__meta">
                {filled}/{MAX_SCENE_STREAMS} slots filled
              </span>
            </div>
            {showAvailable && (
              <>
                <label className="field">
                  Search available streams
                  <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name, location or category" />
                </label>
                <DataView value={pages.rows && available} error={pages.error} empty={q ? 'No active stream matches this search.' : 'No streams to add.'}>
                  {(streams) => (
                    <ul className="available" aria-label="Available streams">
                      {streams.map((stream) => (
                        <AvailableItem key={stream.id} stream={stream} canAdd={filled < MAX_SCENE_STREAMS} onAdd={() => setSlots(addToSlots(draft.stream_ids, stream.id))} />
                      ))}
                    </ul>
                  )}
                </DataView>
                {pages.hasMore && <ShowMore onMore={pages.showMore} loading={pages.loadingMore} small />}
              </>
            )}
          </fieldset>
        </DndContext>
      ) : (
        <p className="panel__hint span-all">
          {draft.selection_algorithm === 'ranked'
            ? 'Shows the active streams with the best quality score, best first.'
            : draft.selection_algorithm === 'daylight'
              ? `${SELECTION_ALGORITHM_HINTS.daylight}${unplaced ? ` ${countOf(unplaced, ['active stream has', 'active streams have'])} no coordinates.` : ''}`
              : 'Shows the newest active streams.'}
        </p>
      )}

      <ErrorBox error={error} wide />
      <div className="modal__footer span-all">
        <button type="button" className="button button--ghost" onClick={props.onCancel}>
          {props.compact ? 'Cancel editing' : 'Cancel'}
        </button>
        <button type="submit" className="button" disabled={busy || nameMissing || needsStream} {...may.button(props.scene ? 'scene.update' : 'scene.create')}>
          {busy ? 'Saving...' : props.scene ? 'Update scene' : 'Create scene'}
        </button>
      </div>
    </form>
  );
}

/** The API body for a draft: slots only for manual scenes. */
export function sceneInput(draft: SceneDraft) {
  return {
    name: draft.name,
    selection_algorithm: draft.selection_algorithm,
    description: draft.description,
    prompt: draft.prompt,
    layout_type: draft.layout_type,
    active: draft.active,
    ...(draft.selection_algorithm === 'manual' ? { stream_ids: draft.stream_ids } : {}),
  };
}
