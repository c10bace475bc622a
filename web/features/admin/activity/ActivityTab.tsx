/** The Activity tab: the last 50 admin writes (who, what, when), filtered by kind, live. */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { ACTIVITY_KINDS, type ActivityKind } from '../../../../src/shared/api/index.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { DataView, Table } from '../../../components/DataView.tsx';
import { formatDateTime } from '../format.ts';
import { useLiveFetch } from '../live/live.ts';
import { activityVersionAtom } from './activity.live.ts';

const ACTIONS: Record<string, string> = {
  created: 'created',
  updated: 'edited',
  deleted: 'deleted',
  changed: 'switched to',
  revoked: 'revoked',
  approved: 'approved',
  rejected: 'rejected',
  started: 'started',
  finished: 'finished',
  invited: 'invited',
  'role-changed': 'role changed for',
  disabled: 'disabled',
  enabled: 'enabled',
  'link-issued': 'one-time link issued for',
  joined: 'joined:',
  'password-reset': 'password reset by',
};

export default function ActivityTab() {
  const version = useAtomValue(activityVersionAtom, { store });
  const [kind, setKind] = useState<ActivityKind | ''>('');
  const { value: entries, error } = useLiveFetch(() => adminApi.activity(kind || undefined), kind, version, 'Failed to load the activity');

  return (
    <section className="panel" aria-labelledby="activity-title">
      <div className="panel__header">
        <h2 id="activity-title">Activity</h2>
        <label className="field">
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as ActivityKind | '')}>
            <option value="">Everything</option>
            {ACTIVITY_KINDS.map((k) => (
              <option key={k} value={k}>
                {k.replace('-', ' ')}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataView value={entries} error={error} empty="Nothing has been changed yet.">
        {(entries) => (
          <Table columns={['When', 'Who', 'What']}>
            <tbody>
              {entries.map((entry) => {
                const verb = entry.action.slice(entry.action.lastIndexOf('.') + 1);
                return (
                  <tr key={entry.id}>
                    <td>{formatDateTime(entry.created_at)}</td>
                    <td>{entry.actor}</td>
                    <td>
                      {entry.kind.replace('-', ' ')} {ACTIONS[verb] ?? verb}
                      {entry.subject_name ? ` "${entry.subject_name}"` : ''}
                      {entry.subject_id !== null ? <span className="scene-card__meta"> #{entry.subject_id}</span> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </DataView>
    </section>
  );
}
