/** API tokens for scripts and CI: list, create (the secret is shown once, with Copy), revoke. */
import { useEffect, useState, type FormEvent } from 'react';
import type { ApiTokenDto, CreatedApiTokenDto } from '../../../../src/shared/api/index.ts';
import type { Role } from '../../../../src/shared/roles.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { DataView, Table } from '../../../components/DataView.tsx';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { adminApi } from '../admin-api.ts';
import { RoleBadge, RoleSelect } from '../Roles.tsx';
import { ShownOnce } from '../ShownOnce.tsx';
import { reasonOf, serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime } from '../format.ts';

export default function TokensTab() {
  const [tokens, setTokens] = useState<ApiTokenDto[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('operator');
  const [created, setCreated] = useState<CreatedApiTokenDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenDto | null>(null);

  const reload = () =>
    adminApi.tokens().then(
      (list) => {
        setTokens(list);
        setLoadError(null);
      },
      (failure: unknown) => {
        setLoadError(reasonOf(failure));
        showFailure('Failed to load API tokens', failure);
      },
    );
  useEffect(() => void reload(), []);

  async function create(event: FormEvent) {
    event.preventDefault();
    try {
      const token = await adminApi.createToken(name, role);
      setCreated(token);
      setName('');
      setError(null);
      void reload();
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to create the token'));
      showFailure('Failed to create the token', failure);
    }
  }

  async function revoke(token: ApiTokenDto) {
    setRevoking(null);
    try {
      await adminApi.revokeToken(token.id);
      showSuccess(`Revoked "${token.name}"`);
      void reload();
    } catch (failure) {
      showFailure('Failed to revoke the token', failure);
    }
  }

  return (
    <section className="panel" aria-labelledby="tokens-title">
      <div className="panel__header">
        <h2 id="tokens-title">API tokens</h2>
        <p className="panel__hint">For scripts and CI: send as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
      </div>
      <form className="toolbar" onSubmit={create}>
        <label className="field toolbar__search">
          Token name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="deploy-bot" />
        </label>
        <label className="field">
          Role
          <RoleSelect value={role} onChange={setRole} />
        </label>
        <button type="submit" className="button" disabled={name.trim() === ''}>
          Create token
        </button>
      </form>
      <ErrorBox error={error} />
      {created && (
        <ShownOnce title={`Copy the secret of "${created.name}" now: it is shown only once.`} value={created.token} label="New token secret" onDone={() => setCreated(null)} />
      )}
      <DataView value={tokens} error={loadError} empty="No API tokens yet.">
        {(tokens) => (
          <Table columns={['Name', 'Role', 'Created', 'Last used', 'Actions']}>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td>
                    <RoleBadge role={token.role} />
                  </td>
                  <td>{formatDateTime(token.created_at)}</td>
                  <td>{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</td>
                  <td>
                    <button type="button" className="button button--ghost button--small" onClick={() => setRevoking(token)}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </DataView>
      {revoking && (
        <ConfirmDialog
          title="Revoke token"
          message={`Revoke "${revoking.name}"? Scripts using it stop working at once.`}
          confirm="Revoke"
          danger
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
