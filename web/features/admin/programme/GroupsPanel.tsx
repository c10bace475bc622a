/**
 * Screen groups: create, rename, give each its own scene (or none), delete; each says how a
 * screen joins it at install time (`?group=<slug>` in its address) and how many screens it has.
 */
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import type { SceneDto, ScreenGroupDto } from '../../../../src/shared/api/index.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { countOf } from '../../../lib/count.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { programmeAtom } from './programme.live.ts';
import { SceneSelect } from './SceneSelect.tsx';

/** `approval`: screens are approved (SCREEN_APPROVAL): a screen's group is chosen then, never by its address. */
export function GroupsPanel({ scenes, approval }: { scenes: readonly SceneDto[]; approval: boolean }) {
  const groups = useAtomValue(programmeAtom, { store })?.value?.groups ?? [];
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ScreenGroupDto | null>(null);
  const may = useMay();

  async function create(event: FormEvent) {
    event.preventDefault();
    try {
      const group = await adminApi.createGroup({ name });
      showSuccess(`Created the group "${group.name}"`);
      setName('');
      setError(null);
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to create the group'));
      showFailure('Failed to create the group', failure);
    }
  }

  async function setScene(group: ScreenGroupDto, sceneId: number | null) {
    try {
      await adminApi.updateGroup({ id: group.id, scene_id: sceneId });
      showSuccess(sceneId ? `${group.name} shows ${scenes.find((s) => s.id === sceneId)?.name ?? 'its scene'} now` : `${group.name} follows the building's rules now`);
    } catch (failure) {
      showFailure(`Failed to change the scene of ${group.name}`, failure);
    }
  }

  async function remove(group: ScreenGroupDto) {
    setDeleting(null);
    try {
      await adminApi.deleteGroup(group.id);
      showSuccess(`Deleted the group "${group.name}"`);
    } catch (failure) {
      showFailure(`Failed to delete ${group.name}`, failure);
    }
  }

  return (
    <section className="panel" aria-labelledby="groups-title">
      <div className="panel__header">
        <h3 id="groups-title">Screen groups</h3>
        <p className="panel__hint">
          {approval ? 'A screen joins a group when you approve it, or when you choose its group in the lists above.' : <>A screen joins a group when it opens with <code>?group=&lt;slug&gt;</code>, or when you choose its group below.</>}
        </p>
      </div>
      <form className="toolbar" onSubmit={create}>
        <label className="field toolbar__search">
          New group
          <input className="control" value={name} onChange={(e) => setName(e.target.value)} maxLength={60} placeholder="Lobby" />
        </label>
        <button type="submit" className="button" disabled={name.trim() === ''} {...may.button('programme.createGroup')}>
          Create group
        </button>
      </form>
      <ErrorBox error={error} />
      {groups.length === 0 ? (
        <p className="panel__hint">No groups yet: every screen follows the building's rules.</p>
      ) : (
        <ul className="group-list" aria-label="Screen groups">
          {groups.map((group) => (
            <li key={group.id} className="group-row" data-group={group.slug}>
              <div>
                <strong>{group.name}</strong>
                <div className="panel__hint">
                  <code>?group={group.slug}</code> · {countOf(group.devices.length, ['screen', 'screens'])}
                </div>
              </div>
              <SceneSelect scenes={scenes} value={group.scene_id} onChange={(id) => void setScene(group, id)} label={`Scene of ${group.name}`} none="No scene of its own" {...may.button('programme.updateGroup')} />
              <button type="button" className="button button--ghost button--small" onClick={() => setDeleting(group)} aria-label={`Delete ${group.name}`} {...may.button('programme.deleteGroup')}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete "${deleting.name}"?`}
          message={`Its ${countOf(deleting.devices.length, ['screen', 'screens'])} will follow the building's rules.`}
          confirm="Delete group"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
