/**
 * The Live Wall's admin panel (the gear on /app, spec §2): a modal with Streams and Scenes
 * tabs — the stream pool (the server's pages, by name) with Active / Inactive badges and its
 * form, and the scenes with the compact scene editor (manual, active streams only, layout
 * stored, saving needs a stream).
 * Loaded only when an administrator opens it: a wall never downloads it otherwise.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Toaster } from 'sonner';
import type { SceneDto, StreamDto } from '../../../src/shared/api/index.ts';
import { DataView, ShowMore } from '../../components/DataView.tsx';
import { Modal } from '../../components/Modal.tsx';
import { countOf } from '../../lib/count.ts';
import { adminApi } from './admin-api.ts';
import { loadMe, useMay } from './access.ts';
import { useLiveFetch } from './live/live.ts';
import { saveScene, saveStream } from './saving.ts';
import { placedIds } from './scenes/slots.ts';
import { refreshStreamPages, rememberWritten } from './streams/streams.live.ts';
import { useStreamPages } from './streams/useStreamPages.ts';
import { SceneEditor, sceneInput, type SceneDraft } from './scenes/SceneEditor.tsx';
import { EMPTY_STREAM, StreamForm, valuesOf, type StreamValues } from './streams/StreamForm.tsx';
import './admin.css';

type Tab = 'streams' | 'scenes';

export default function LiveWallPanel({ onClose }: { onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('scenes');
  const streams = useStreamPages({ sort: 'name', limit: 50 });
  const [saves, setSaves] = useState(0);
  const scenes = useLiveFetch(adminApi.scenes, 'scenes', saves, 'Failed to fetch scenes');
  const [editingStream, setEditingStream] = useState<StreamDto | 'new' | null>(null);
  const [editingScene, setEditingScene] = useState<SceneDto | 'new' | null>(null);
  const may = useMay();
  // The wall runs no console live slices: ask who we are here, so a role's limits show.
  useEffect(() => void loadMe(), []);

  async function submitStream(values: StreamValues): Promise<string | null> {
    const saved = await saveStream(editingStream !== 'new' && editingStream ? editingStream.id : null, values);
    if (!saved.ok) return saved.sentence;
    rememberWritten(saved.value);
    if (editingStream === 'new') refreshStreamPages();
    setEditingStream(null);
    return null;
  }

  async function submitScene(draft: SceneDraft): Promise<string | null> {
    // Spec §5: max_streams is the number of selected streams, or 5 when none.
    const picked = draft.stream_ids.filter((id) => id !== null).length;
    const input = { ...sceneInput({ ...draft, selection_algorithm: 'manual' }), max_streams: picked || 5 };
    const saved = await saveScene(editingScene !== 'new' && editingScene ? editingScene.id : null, input);
    if (!saved.ok) return saved.sentence;
    setEditingScene(null);
    setSaves((n) => n + 1);
    return null;
  }

  return (
    <Modal title="Admin panel" onClose={onClose} wide>
      <div className="admin__tabs" role="tablist" aria-label="Admin panel sections">
        {(['streams', 'scenes'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className="admin__tab" aria-current={tab === t ? 'page' : undefined} onClick={() => setTab(t)}>
            {t === 'streams' ? 'Streams' : 'Scenes'}
          </button>
        ))}
      </div>
      {tab === 'streams' ? (
        editingStream ? (
          <StreamForm
            initial={editingStream === 'new' ? EMPTY_STREAM : valuesOf(editingStream)}
            submitLabel={editingStream === 'new' ? 'Add Stream' : 'Save changes'}
            busyLabel="Saving..."
            onSubmit={submitStream}
            onCancel={() => setEditingStream(null)}
            idPrefix="panel-stream"
            {...(editingStream === 'new' ? {} : { editingId: editingStream.id })}
          />
        ) : (
          <div className="panel">
            <div className="panel__header">
              <h3>Streams</h3>
              <button type="button" className="button button--small" onClick={() => setEditingStream('new')} {...may.button('stream.create')}>
                Add Stream
              </button>
            </div>
            <DataView value={streams.rows} error={streams.error} empty="No streams yet.">
              {(rows) => (
            <ul className="available" aria-label="Streams">
              {rows.map((s) => (
                <li key={s.id} className="available__item">
                  <span className="available__name">
                    {s.name}
                    <small>{s.category}</small>
                  </span>
                  <span className={`badge ${s.active ? 'badge--quality' : 'badge--inactive'}`}>{s.active ? 'Active' : 'Inactive'}</span>
                  <button type="button" className="button button--ghost button--small" onClick={() => setEditingStream(s)} aria-label={`Edit ${s.name}`} {...may.button('stream.update')}>
                    Edit
                  </button>
                </li>
              ))}
            </ul>
              )}
            </DataView>
            {streams.hasMore && <ShowMore onMore={streams.showMore} loading={streams.loadingMore} small />}
          </div>
        )
      ) : editingScene ? (
        <SceneEditor scene={editingScene === 'new' ? null : editingScene} onSave={submitScene} onCancel={() => setEditingScene(null)} compact />
      ) : (
        <div className="panel">
          <div className="panel__header">
            <h3>Scenes</h3>
            <button type="button" className="button button--small" onClick={() => setEditingScene('new')} {...may.button('scene.create')}>
              New scene
            </button>
          </div>
          <DataView value={scenes.value} error={scenes.error} empty="No scenes yet.">
            {(list) => (
          <ul className="available" aria-label="Scenes">
            {list.map((scene) => (
              <li key={scene.id} className="available__item">
                <span className="available__name">
                  {scene.name}
                  <small>
                    {scene.selection_algorithm} · {scene.layout_type} · {countOf(placedIds(scene.stream_ids).length, ['stream', 'streams'])}
                  </small>
                </span>
                <span className={`badge ${scene.active ? 'badge--quality' : 'badge--inactive'}`}>{scene.active ? 'Active' : 'Inactive'}</span>
                <button type="button" className="button button--ghost button--small" onClick={() => setEditingScene(scene)} aria-label={`Edit ${scene.name}`} {...may.button('scene.update')}>
                  Edit
                </button>
              </li>
            ))}
          </ul>
            )}
          </DataView>
        </div>
      )}
      <div className="modal__footer">
        <Link className="button button--ghost button--small" to="/debug">
          Stream debug view
        </Link>
        <Link className="button button--ghost button--small" to="/admin">
          Open admin dashboard
        </Link>
      </div>
      <Toaster theme="dark" position="bottom-right" richColors closeButton />
    </Modal>
  );
}
