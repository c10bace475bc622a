/**
 * Enrolment in the Screens tab (issue 41): the browsers waiting for approval (their code, where
 * they asked from, their browser, since when), the approval form — code (filled in when the
 * console was opened from a screen's QR code), name, kind, position and group: the admin's
 * decision, never the screen's address — and the approved screens, to rename, move or revoke.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { EnrolledDto, PairingDto, ScreenGroupDto } from '../../../../src/shared/api/index.ts';
import { MAX_SCENE_STREAMS } from '../../../../src/shared/constants.ts';
import { displayPairingCode, normalizePairingCode, PAIRING_CODE_LENGTH } from '../../../../src/shared/pairing.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { store } from '../../../lib/store.ts';
import { useMay } from '../access.ts';
import { adminApi } from '../admin-api.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { timeAgo } from '../format.ts';
import { enrolmentAtom } from './enrolment.live.ts';
import { GroupSelect } from './GroupSelect.tsx';

type Kind = 'wall' | 'kiosk';
const POSITIONS = Array.from({ length: MAX_SCENE_STREAMS }, (_, i) => i + 1);

function ApproveForm({ waiting, groups, code, setCode }: { waiting: readonly PairingDto[]; groups: readonly ScreenGroupDto[]; code: string; setCode: (code: string) => void }) {
  const [params, setParams] = useSearchParams();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('wall');
  const [position, setPosition] = useState(1);
  const [group, setGroup] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const may = useMay();
  const normalized = normalizePairingCode(code);
  const match = normalized ? waiting.find((w) => w.code === normalized) : undefined;

  // What the screen's address asked for fills the form (the admin still decides).
  useEffect(() => {
    if (!match) return;
    setKind(match.kind);
    if (match.position) setPosition(match.position);
    setName((current) => current || match.name || (match.kind === 'kiosk' ? `Kiosk ${match.position ?? 1}` : ''));
  }, [match]);

  async function approve(event: FormEvent) {
    event.preventDefault();
    try {
      const screen = await adminApi.approveScreen({ code, name, kind, group_id: group, ...(kind === 'kiosk' ? { position } : {}) });
      showSuccess(`Approved "${screen.name}": it shows its programme now`);
      setCode('');
      setName('');
      setError(null);
      if (params.has('code')) setParams((p) => (p.delete('code'), p), { replace: true });
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to approve the screen'));
      showFailure('Failed to approve the screen', failure);
    }
  }

  return (
    <form className="enrol-form" onSubmit={approve} aria-label="Approve a screen">
      <label className="field">
        Code on the screen
        <input
          className="control enrol-form__code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          maxLength={PAIRING_CODE_LENGTH + 4}
          placeholder="ABC 234"
          autoComplete="off"
          spellCheck={false}
          aria-describedby="enrol-code-hint"
        />
        <span id="enrol-code-hint" className="panel__hint">
          {normalized === null ? (code ? `${PAIRING_CODE_LENGTH} letters and digits, as the screen shows them` : ' ') : match ? `Waiting since ${timeAgo(match.first_seen)} from ${match.address}` : 'No screen waits with this code'}
        </span>
      </label>
      <label className="field">
        Name
        <input className="control" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="Lobby wall, left" />
      </label>
      <label className="field">
        Kind
        <select className="control" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
          <option value="wall">Wall (the whole scene)</option>
          <option value="kiosk">Kiosk (one position)</option>
        </select>
      </label>
      {kind === 'kiosk' && (
        <label className="field">
          Position
          <select className="control" value={position} onChange={(e) => setPosition(Number(e.target.value))}>
            {POSITIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        Group
        <GroupSelect groups={groups} value={group} onChange={setGroup} label="Group of the new screen" />
      </label>
      <button type="submit" className="button" disabled={normalized === null || name.trim() === ''} {...may.button('screen.approve')}>
        Approve
      </button>
      <ErrorBox error={error} />
    </form>
  );
}

function EnrolledRow({ screen, groups, onRevoke }: { screen: EnrolledDto; groups: readonly ScreenGroupDto[]; onRevoke: (s: EnrolledDto) => void }) {
  const [name, setName] = useState(screen.name);
  const may = useMay();
  const revoked = screen.revoked_at !== null;

  async function update(change: { name?: string; group_id?: number | null; position?: number }, done: string) {
    try {
      await adminApi.updateEnrolled({ id: screen.id, ...change });
      showSuccess(done);
    } catch (failure) {
      showFailure(`Failed to change ${screen.name}`, failure);
    }
  }

  return (
    <li className={`enrolled-row${revoked ? ' enrolled-row--revoked' : ''}`} data-enrolled={screen.name}>
      <div>
        <strong>{screen.name}</strong>
        <div className="panel__hint">
          {screen.kind === 'kiosk' ? `Kiosk · position ${screen.position}` : 'Wall'} ·{' '}
          {revoked ? `revoked ${timeAgo(screen.revoked_at!)} by ${screen.revoked_by}` : screen.source === 'migrated' ? `known before approval${screen.has_credential ? '' : ' · not connected since'}` : `approved ${timeAgo(screen.approved_at)} by ${screen.approved_by}`}
        </div>
      </div>
      {!revoked && (
        <>
          <form
            className="enrolled-row__rename"
            onSubmit={(e) => {
              e.preventDefault();
              void update({ name }, `Renamed to "${name}"`);
            }}
          >
            <input className="control" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} aria-label={`Name of ${screen.name}`} />
            <button type="submit" className="button button--ghost button--small" disabled={name.trim() === '' || name === screen.name} {...may.button('screen.updateEnrolled')}>
              Rename
            </button>
          </form>
          <GroupSelect groups={groups} value={screen.group_id} onChange={(id) => void update({ group_id: id }, `${screen.name} moves now`)} label={`Group of ${screen.name}`} disabled={!may.can('screen.updateEnrolled')} />
          <button type="button" className="button button--ghost button--small button--danger" onClick={() => onRevoke(screen)} aria-label={`Revoke ${screen.name}`} {...may.button('screen.revoke')}>
            Revoke
          </button>
        </>
      )}
    </li>
  );
}

export function EnrolmentPanel({ groups }: { groups: readonly ScreenGroupDto[] }) {
  const enrolment = useAtomValue(enrolmentAtom, { store })?.value ?? null;
  const [params] = useSearchParams();
  // The code the form holds: from the QR code's address, typed, or a waiting row's "Use code".
  const [code, setCode] = useState(params.get('code') ?? '');
  const may = useMay();
  const [revoking, setRevoking] = useState<EnrolledDto | null>(null);
  const [showRevoked, setShowRevoked] = useState(false);
  if (!enrolment) return null;
  const active = enrolment.screens.filter((s) => s.revoked_at === null);
  const revoked = enrolment.screens.filter((s) => s.revoked_at !== null);

  async function revoke(screen: EnrolledDto) {
    setRevoking(null);
    try {
      await adminApi.revokeScreen(screen.id);
      showSuccess(`Revoked "${screen.name}": it shows a pairing code now`);
    } catch (failure) {
      showFailure(`Failed to revoke ${screen.name}`, failure);
    }
  }

  if (!enrolment.approval) {
    return (
      <section className="panel" aria-labelledby="enrol-title">
        <div className="panel__header">
          <h3 id="enrol-title">Screen approval is off</h3>
          <p className="panel__hint">
            <code>SCREEN_APPROVAL=off</code>: every wall and kiosk address is a screen, as on a closed LAN. Turn it on to approve each screen by its pairing code.
          </p>
        </div>
      </section>
    );
  }

  return (
    <section className="panel" aria-labelledby="enrol-title">
      <div className="panel__header">
        <h3 id="enrol-title">Approve screens</h3>
        <p className="panel__hint">A browser opened with a screen address (<code>?name=</code>, <code>?group=</code> or <code>/pair</code>) shows a code. Enter it here, or scan its QR code.</p>
      </div>
      <ApproveForm waiting={enrolment.waiting} groups={groups} code={code} setCode={setCode} />
      <h4 className="enrol-subtitle">Waiting for approval</h4>
      {enrolment.waiting.length === 0 ? (
        <p className="panel__hint">No screen is waiting.</p>
      ) : (
        <ul className="waiting-list" aria-label="Screens waiting for approval">
          {enrolment.waiting.map((w) => (
            <li key={w.code} className="waiting-row" data-code={w.code}>
              <span className="waiting-row__code">{displayPairingCode(w.code)}</span>
              <span>
                {w.kind === 'kiosk' ? `Kiosk${w.position ? ` ${w.position}` : ''}` : 'Wall'}
                {w.name ? ` · “${w.name}”` : ''}
                {w.group ? ` · asks for group ${w.group}` : ''}
              </span>
              <span className="panel__hint">
                {w.address} · {w.user_agent ?? 'unknown browser'} · since {timeAgo(w.first_seen)}
              </span>
              <button type="button" className="button button--ghost button--small" onClick={() => setCode(w.code)} aria-label={`Use code ${displayPairingCode(w.code)}`} {...may.button('screen.approve')}>
                Use code
              </button>
            </li>
          ))}
        </ul>
      )}
      <h4 className="enrol-subtitle">Approved screens</h4>
      {active.length === 0 ? (
        <p className="panel__hint">No screen is approved yet.</p>
      ) : (
        <ul className="enrolled-list" aria-label="Approved screens">
          {active.map((s) => (
            <EnrolledRow key={s.id} screen={s} groups={groups} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      {revoked.length > 0 && (
        <button type="button" className="button button--ghost button--small" onClick={() => setShowRevoked((v) => !v)} aria-expanded={showRevoked}>
          {showRevoked ? 'Hide' : 'Show'} {revoked.length} revoked
        </button>
      )}
      {showRevoked && (
        <ul className="enrolled-list" aria-label="Revoked screens">
          {revoked.map((s) => (
            <EnrolledRow key={s.id} screen={s} groups={groups} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke "${revoking.name}"?`}
          message="Its credential stops working at once: the screen shows a pairing code and must be approved again."
          confirm="Revoke"
          danger
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
