/**
 * The team (admins only): every account with its role, status and last sign-in; invite a person
 * by a one-time link (24 h) where they choose their own password; change a role; disable or
 * enable (sessions end at once); issue a new link for a lost password. Refetched whenever the
 * activity journal moves (every account change is journaled), so two admins see each other.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import type { AccountDto, IssuedLinkDto } from '../../../../src/shared/api/index.ts';
import { ROLE_INFO, ROLES, type Role } from '../../../../src/shared/roles.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { DataView, Table } from '../../../components/DataView.tsx';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { store } from '../../../lib/store.ts';
import { useMay } from '../access.ts';
import { activityVersionAtom } from '../activity/activity.live.ts';
import { adminApi } from '../admin-api.ts';
import { reasonOf, serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { RoleBadge, RoleSelect } from '../Roles.tsx';
import { ShownOnce } from '../ShownOnce.tsx';
import { formatDateTime } from '../format.ts';
import './team.css';

/** The address a person opens: the secret rides in the fragment, which no server or proxy logs. */
export const linkAddress = (link: IssuedLinkDto) => `${window.location.origin}/welcome#${link.token}`;

const STATUS_TEXT: Record<AccountDto['status'], string> = { active: 'Active', invited: 'Invited', disabled: 'Disabled' };

function IssuedLink({ who, link, onDone }: { who: string; link: IssuedLinkDto; onDone: () => void }) {
  const what = link.purpose === 'invite' ? `Send ${who} this invitation` : `Send ${who} this link to choose a new password`;
  return (
    <ShownOnce
      className="team-link"
      title={`${what} — it works once, until ${formatDateTime(link.expires_at)}.`}
      value={linkAddress(link)}
      label={`One-time link for ${who}`}
      onDone={onDone}
    />
  );
}

export default function TeamTab() {
  const { me } = useMay();
  const activityVersion = useAtomValue(activityVersionAtom, { store });
  const [accounts, setAccounts] = useState<AccountDto[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<{ who: string; link: IssuedLinkDto } | null>(null);
  const [disabling, setDisabling] = useState<AccountDto | null>(null);

  const reload = () =>
    adminApi.team().then(
      (list) => {
        setAccounts(list);
        setLoadError(null);
      },
      (failure: unknown) => {
        setLoadError(reasonOf(failure));
        showFailure('Failed to load the team', failure);
      },
    );
  useEffect(() => void reload(), [activityVersion]);

  async function invite(event: FormEvent) {
    event.preventDefault();
    try {
      const { account, link } = await adminApi.invite({ username, role });
      setIssued({ who: account.username, link });
      setUsername('');
      setError(null);
      void reload();
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to invite'));
      showFailure('Failed to invite', failure);
    }
  }

  async function update(account: AccountDto, change: { role?: Role; disabled?: boolean }, done: string) {
    try {
      await adminApi.updateAccount({ id: account.id, ...change });
      showSuccess(done);
      void reload();
    } catch (failure) {
      showFailure(`Could not change ${account.username}`, failure);
      void reload(); // the select shows the role the server kept
    }
  }

  async function newLink(account: AccountDto) {
    try {
      setIssued({ who: account.username, link: await adminApi.issueLink(account.id) });
      void reload();
    } catch (failure) {
      showFailure(`Could not issue a link for ${account.username}`, failure);
    }
  }

  return (
    <section className="panel" aria-labelledby="team-title">
      <div className="panel__header">
        <h2 id="team-title">Team</h2>
        <p className="panel__hint">Who runs the walls, and what each role may do.</p>
      </div>
      <ul className="team-roles" aria-label="Roles">
        {ROLES.map((r) => (
          <li key={r}>
            <RoleBadge role={r} /> {ROLE_INFO[r].does}
          </li>
        ))}
      </ul>
      <form className="toolbar" onSubmit={invite} aria-label="Invite a person">
        <label className="field toolbar__search">
          Username
          <input value={username} onChange={(e) => setUsername(e.target.value)} maxLength={64} placeholder="jo.keeper" autoComplete="off" />
        </label>
        <label className="field">
          Role
          <RoleSelect value={role} onChange={setRole} />
        </label>
        <button type="submit" className="button" disabled={username.trim() === ''}>
          Invite
        </button>
      </form>
      <ErrorBox error={error} />
      {issued && <IssuedLink who={issued.who} link={issued.link} onDone={() => setIssued(null)} />}
      <DataView value={accounts} error={loadError} empty="No accounts yet.">
        {(list) => (
          <Table columns={['Account', 'Role', 'Status', 'Last sign-in', 'Actions']} label="Accounts">
            <tbody>
              {list.map((account) => {
                const self = account.username === me?.username;
                return (
                  <tr key={account.id} data-account={account.username}>
                    <td>
                      <strong>{account.username}</strong>
                      {self && <span className="team-you"> (you)</span>}
                      {account.invited_by && <div className="team-sub">Invited by {account.invited_by}</div>}
                    </td>
                    <td>
                      <RoleSelect
                        aria-label={`Role of ${account.username}`}
                        value={account.role}
                        disabled={account.status === 'disabled'}
                        onChange={(next) => void update(account, { role: next }, `${account.username} is now ${ROLE_INFO[next].label.toLowerCase()}`)}
                      />
                    </td>
                    <td>
                      <span className={`badge team-status team-status--${account.status}`}>{STATUS_TEXT[account.status]}</span>
                      {account.pending_link && (
                        <div className="team-sub">
                          {account.pending_link.purpose === 'invite' ? 'Invitation' : 'Reset link'} open until {formatDateTime(account.pending_link.expires_at)}
                        </div>
                      )}
                    </td>
                    <td>{account.last_login_at ? formatDateTime(account.last_login_at) : 'Never'}</td>
                    <td>
                      <div className="team-actions">
                        {account.status === 'disabled' ? (
                          <button type="button" className="button button--ghost button--small" onClick={() => void update(account, { disabled: false }, `${account.username} can sign in again`)}>
                            Enable
                          </button>
                        ) : (
                          <>
                            <button type="button" className="button button--ghost button--small" onClick={() => void newLink(account)}>
                              {account.status === 'invited' ? 'New invitation link' : 'Reset password'}
                            </button>
                            <button
                              type="button"
                              className="button button--ghost button--small"
                              disabled={self}
                              title={self ? 'You cannot disable your own account' : undefined}
                              onClick={() => setDisabling(account)}
                            >
                              Disable
                            </button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </DataView>
      {disabling && (
        <ConfirmDialog
          title="Disable account"
          message={`Disable ${disabling.username}? Their sessions end at once and they cannot sign in until an admin enables the account again.`}
          confirm="Disable"
          danger
          onConfirm={() => {
            const account = disabling;
            setDisabling(null);
            void update(account, { disabled: true }, `${account.username} is disabled`);
          }}
          onCancel={() => setDisabling(null)}
        />
      )}
    </section>
  );
}
