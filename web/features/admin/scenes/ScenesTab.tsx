/**
 * The Scenes tab: the default-scene selector (it switches every wall and kiosk at once, so it
 * says how many screens follow it and asks first), the scene cards, and the scene editor.
 */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { SceneDto, StreamDto } from '../../../../src/shared/api/index.ts';
import { EditIcon, PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { ConfirmDialog, Modal } from '../../../components/Modal.tsx';
import { sceneRef } from '../../../lib/api.ts';
import { store } from '../../../lib/store.ts';
import { DataView } from '../../../components/DataView.tsx';
import { countOf, formFor } from '../../../lib/count.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import { saveScene } from '../saving.ts';
import { formatDateTime } from '../format.ts';
import { itemsOf, valueOf } from '../live/live.ts';
import { followingDefault } from '../presence/presence.live.ts';
import { useStreamsById } from '../streams/streams.live.ts';
import { StreamStill } from '../../../components/Thumbnail.tsx';
import { LayoutPreview, SceneEditor, sceneInput, type SceneDraft } from './SceneEditor.tsx';
import { defaultSceneAtom, loadDefaultScene, loadScenes, rememberScene, scenesAtom, sceneStreamsAtom } from './scenes.live.ts';
import { placedIds, slotsOf } from './slots.ts';
import './scenes.css';

/** A scene card shows up to this many of its streams. */
const PREVIEWED = 4;

const ALGORITHM_NAMES = { manual: 'Manual', ranked: 'Ranked', recent: 'Recent', daylight: 'Follows the sun' } as const;

function DefaultSceneSelector({ scenes }: { scenes: readonly SceneDto[] }) {
  const following = useAtomValue(followingDefault, { store });
  const info = valueOf(useAtomValue(defaultSceneAtom, { store }));
  const defaultId = info?.scene_id ?? null;
  const [asking, setAsking] = useState<SceneDto | null>(null);
  const may = useMay();
  const active = scenes.filter((s) => s.active);

  async function switchTo(scene: SceneDto) {
    setAsking(null);
    try {
      await adminApi.setDefaultScene(scene.id);
      void loadDefaultScene();
      showSuccess(`Every wall following the default now shows "${scene.name}"`);
    } catch (error) {
      showFailure('Failed to change the default scene', error);
    }
  }

  return (
    <section className="panel" aria-labelledby="default-scene-title">
      <div className="panel__header">
        <h2 id="default-scene-title">Default scene</h2>
        <p className="panel__hint">
          <strong>{following}</strong> connected {formFor(following, ['screen follows', 'screens follow'])} the default scene.
        </p>
      </div>
      <div className="default-selector">
        <label className="field">
          Walls and kiosks show
          <select
            {...may.button('defaultScene.set')}
            value={defaultId ?? ''}
            onChange={(e) => {
              const scene = active.find((s) => s.id === Number(e.target.value));
              if (scene && scene.id !== defaultId) setAsking(scene);
            }}
          >
            {defaultId === null && <option value="">No default scene</option>}
            {active.map((scene) => (
              <option key={scene.id} value={scene.id}>
                {scene.name}
              </option>
            ))}
          </select>
        </label>
        {info?.updated_by && (
          <p className="scene-card__meta">
            Last changed by <strong>{info.updated_by}</strong>
            {info.updated_at ? ` on ${formatDateTime(info.updated_at)}` : ''}
          </p>
        )}
      </div>
      {asking && (
        <ConfirmDialog
          title="Switch every wall?"
          message={
            <>
              Make <strong>{asking.name}</strong> the default scene? {countOf(following, ['connected screen', 'connected screens'])} following the default will
              switch at once.
            </>
          }
          confirm="Switch all screens"
          onConfirm={() => void switchTo(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
    </section>
  );
}

/**
 * What a scene card shows: an active scene's streams as walls get them now; an inactive manual
 * scene's slots (it shows nothing, but the operator recognises it).
 */
function ScenePreview({ scene }: { scene: SceneDto }) {
  const shown = useAtomValue(sceneStreamsAtom, { store }).get(scene.id)?.value;
  const slots = scene.active || scene.selection_algorithm !== 'manual' ? [] : placedIds(slotsOf(scene)).slice(0, PREVIEWED);
  const slotStreams = useStreamsById(slots);
  const streams: readonly Pick<StreamDto, 'id' | 'name' | 'still_url'>[] = scene.active ? (shown ?? []).slice(0, PREVIEWED) : slots.flatMap((id) => slotStreams.get(id) ?? []);
  return (
    <div className="scene-card__thumbs" aria-hidden="true">
      {streams.map((s) => (
        <StreamStill key={s.id} stream={s} />
      ))}
    </div>
  );
}

/** Why a ranked scene shows what it shows: each tile's camera, since when, and the ranking's words. */
function RankedPicks({ scene }: { scene: SceneDto }) {
  if (scene.selection_algorithm !== 'ranked' || scene.picks.length === 0) return null;
  return (
    <ol className="scene-card__picks" aria-label={`Why ${scene.name} shows these cameras`}>
      {scene.picks.map((pick) => (
        <li key={pick.position}>
          <span className="scene-card__pick-tile">{pick.position}</span> {pick.reason} <span className="scene-card__meta">since {formatDateTime(pick.since)}</span>
        </li>
      ))}
    </ol>
  );
}

export default function ScenesTab() {
  const list = useAtomValue(scenesAtom, { store });
  const scenes = itemsOf(list);
  const defaultId = valueOf(useAtomValue(defaultSceneAtom, { store }))?.scene_id ?? null;
  const [editing, setEditing] = useState<SceneDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SceneDto | null>(null);
  const may = useMay();

  async function save(draft: SceneDraft): Promise<string | null> {
    const saved = await saveScene(editing !== 'new' && editing ? editing.id : null, sceneInput(draft));
    if (!saved.ok) return saved.sentence;
    rememberScene(saved.value);
    setEditing(null);
    return null;
  }

  async function remove(scene: SceneDto) {
    setDeleting(null);
    try {
      await adminApi.deleteScene(scene.id);
      void loadScenes(); // deactivated, not gone: the row comes back inactive
      showSuccess(`Deleted "${scene.name}"`);
    } catch (error) {
      showFailure('Failed to delete scene', error);
    }
  }

  return (
    <>
      <DefaultSceneSelector scenes={scenes} />
      <section className="panel" aria-labelledby="scenes-title">
        <div className="panel__header">
          <h2 id="scenes-title">Scenes</h2>
          <button type="button" className="button button--small" onClick={() => setEditing('new')} {...may.button('scene.create')}>
            <PlusIcon width={18} height={18} /> Add Scene
          </button>
        </div>
        <DataView
          value={list.status === 'loading' || list.status === 'error' ? null : scenes}
          error={list.error && `Failed to fetch scenes: ${list.error}`}
          loading="Loading scenes…"
          empty="No scenes yet. Add one to build what walls show."
        >
          {(scenes) => (
          <ul className="scene-grid" aria-label="Scenes">
            {[...scenes].sort((a, b) => Number(b.id === defaultId) - Number(a.id === defaultId) || Number(b.active) - Number(a.active)).map((scene) => {
              const isDefault = scene.id === defaultId;
              return (
                <li key={scene.id} className={`scene-card${isDefault ? ' scene-card--default' : ''}`} data-scene-id={scene.id}>
                  <ScenePreview scene={scene} />
                  <div className="scene-card__title">
                    <h3>{scene.name}</h3>
                    {isDefault && <span className="badge badge--default">Default</span>}
                    <span className={`badge ${scene.active ? 'badge--quality' : 'badge--inactive'}`}>{scene.active ? 'Active' : 'Inactive'}</span>
                  </div>
                  {scene.description && <p className="scene-card__meta">{scene.description}</p>}
                  <p className="scene-card__meta">
                    {ALGORITHM_NAMES[scene.selection_algorithm]} · up to {scene.max_streams} streams · <LayoutPreview layout={scene.layout_type} /> {scene.layout_type}
                  </p>
                  {scene.prompt && <p className="scene-card__meta">Prompt: {scene.prompt}</p>}
                  <RankedPicks scene={scene} />
                  <div className="scene-card__actions">
                    <Link className="button button--ghost button--small" to={`/scenes/${encodeURIComponent(sceneRef(scene))}`} target="_blank">
                      View
                    </Link>
                    <button type="button" className="button button--ghost button--small" onClick={() => setEditing(scene)} aria-label={`Edit ${scene.name}`} {...may.button('scene.update')}>
                      <EditIcon width={16} height={16} /> Edit
                    </button>
                    <span title={isDefault ? 'The default scene cannot be deleted. Choose another default scene first.' : undefined}>
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        disabled={isDefault || !scene.active}
                        onClick={() => setDeleting(scene)}
                        aria-label={`Delete ${scene.name}`}
                        aria-describedby={isDefault ? `default-reason-${scene.id}` : undefined}
                        {...may.button('scene.remove')}
                      >
                        <TrashIcon width={16} height={16} /> Delete
                      </button>
                      {isDefault && (
                        <span id={`default-reason-${scene.id}`} className="visually-hidden">
                          The default scene cannot be deleted. Choose another default scene first.
                        </span>
                      )}
                    </span>
                  </div>
                </li>
              );
            })}
          </ul>
          )}
        </DataView>
      </section>
      {editing && (
        <Modal title={editing === 'new' ? 'New Scene' : `Edit Scene: ${editing.name}`} onClose={() => setEditing(null)} wide>
          <SceneEditor scene={editing === 'new' ? null : editing} onSave={save} onCancel={() => setEditing(null)} />
        </Modal>
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete scene"
          message={`Delete "${deleting.name}"? Walls following it will show that it is gone.`}
          confirm="Delete"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
