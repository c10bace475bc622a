/**
 * "Show on every screen now": one scene (with an optional banner) on every screen or on chosen
 * groups, until released or until an end time. One click starts it, one click releases it;
 * while it runs, the bar says what every screen shows and since when.
 */
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import type { SceneDto } from '../../../../src/shared/api/index.ts';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime } from '../format.ts';
import { programmeAtom } from './programme.live.ts';
import { SceneSelect } from './SceneSelect.tsx';

export function TakeoverBar({ scenes }: { scenes: readonly SceneDto[] }) {
  const programme = useAtomValue(programmeAtom, { store })?.value ?? null;
  const takeover = programme?.takeover ?? null;
  const groups = programme?.groups ?? [];
  const [open, setOpen] = useState(false);
  const [sceneId, setSceneId] = useState<number | ''>('');
  const [banner, setBanner] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [until, setUntil] = useState('');
  const [error, setError] = useState<string | null>(null);
  const may = useMay();
  const nameOf = (id: number) => scenes.find((s) => s.id === id)?.name ?? `Scene #${id}`;

  async function start(event: FormEvent) {
    event.preventDefault();
    if (sceneId === '') return;
    try {
      await adminApi.startTakeover({ scene_id: sceneId, banner: banner.trim() || null, group_ids: chosen.length ? chosen : null, ends_at: until ? new Date(until).toISOString() : null });
      showSuccess(`${nameOf(sceneId)} is on ${chosen.length ? 'the chosen groups' : 'every screen'} now`);
      setOpen(false);
      setError(null);
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to start the takeover'));
      showFailure('Failed to start the takeover', failure);
    }
  }

  async function release() {
    try {
      await adminApi.releaseTakeover();
      showSuccess('Takeover released: every screen is back on its own rule');
    } catch (failure) {
      showFailure('Failed to release the takeover', failure);
    }
  }

  if (takeover) {
    const where = takeover.group_ids ? takeover.group_ids.map((id) => groups.find((g) => g.id === id)?.name ?? `Group #${id}`).join(', ') : 'every screen';
    return (
      <div className="takeover takeover--on" role="status" aria-label="Takeover">
        <div>
          <strong>Takeover: {nameOf(takeover.scene_id)}</strong> on {where}
          {takeover.banner ? <> · “{takeover.banner}”</> : null}
          <div className="panel__hint">
            Since {formatDateTime(takeover.started_at)} by {takeover.started_by}
            {takeover.ends_at ? ` · ends ${formatDateTime(takeover.ends_at)}` : ' · until released'}
          </div>
        </div>
        <button type="button" className="button" onClick={() => void release()} {...may.button('programme.releaseTakeover')}>
          Release takeover
        </button>
      </div>
    );
  }

  return (
    <div className="takeover">
      {!open ? (
        <div className="takeover__closed">
          <span className="panel__hint">Every screen follows its own rules.</span>
          <button type="button" className="button button--danger" onClick={() => setOpen(true)} {...may.button('programme.startTakeover')}>
            Show on every screen now…
          </button>
        </div>
      ) : (
        <form className="form-grid" onSubmit={start} aria-label="Start a takeover">
          <label className="field">
            Scene
            <SceneSelect scenes={scenes} value={sceneId === '' ? null : sceneId} onChange={(id) => setSceneId(id ?? '')} none="Choose a scene" required />
          </label>
          <label className="field">
            Banner (optional)
            <input className="control" value={banner} maxLength={140} onChange={(e) => setBanner(e.target.value)} placeholder="The director speaks at 15:00" />
          </label>
          <label className="field">
            Until (optional)
            <input className="control" type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
          </label>
          {groups.length > 0 && (
            <fieldset className="field span-all takeover__groups">
              <legend>Only these groups (none chosen: every screen)</legend>
              {groups.map((g) => (
                <label key={g.id} className="field--check">
                  <input type="checkbox" checked={chosen.includes(g.id)} onChange={(e) => setChosen((c) => (e.target.checked ? [...c, g.id] : c.filter((id) => id !== g.id)))} />
                  {g.name}
                </label>
              ))}
            </fieldset>
          )}
          <ErrorBox error={error} wide />
          <div className="panel__actions span-all">
            <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={sceneId === ''} {...may.button('programme.startTakeover')}>
              Start takeover
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
