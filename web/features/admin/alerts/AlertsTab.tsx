/**
 * The Alerts tab: incidents open now, the rules and their periods, where messages go (webhooks
 * signed with HMAC-SHA256, Slack, Discord; a test message per destination), every delivery
 * with the receiver's answer, and the incidents that recovered — all live.
 */
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { ALERT_KIND_TEXT, DESTINATION_KINDS, type AlertRuleDto, type CreatedDestinationDto, type DeliveryDto, type DestinationDto, type IncidentDto } from '../../../../src/shared/api/index.ts';
import { formatDuration } from '../../../../src/shared/alerts/duration.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { DataView, Table } from '../../../components/DataView.tsx';
import { ErrorBox, Options } from '../../../components/FormParts.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { ShownOnce } from '../ShownOnce.tsx';
import { useMay } from '../access.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime, timeAgo } from '../format.ts';
import { programmeAtom } from '../programme/programme.live.ts';
import { alertsAtom } from './alerts.live.ts';
import './alerts.css';

const STATE_TEXT: Record<IncidentDto['state'], string> = { pending: 'Within grace', open: 'Firing', clearing: 'Recovering', resolved: 'Recovered' };
const KIND_LABEL: Record<DestinationDto['kind'], string> = { webhook: 'Webhook (signed JSON)', slack: 'Slack', discord: 'Discord' };

function IncidentCard({ incident }: { incident: IncidentDto }) {
  return (
    <li className={`incident incident--${incident.state}`}>
      <div className="incident__head">
        <span className={`incident__state incident__state--${incident.state}`}>{STATE_TEXT[incident.state]}</span>
        <strong className="incident__title">{incident.title}</strong>
      </div>
      {incident.detail && <p className="incident__detail">{incident.detail}</p>}
      <p className="incident__times">
        Since {formatDateTime(incident.started_at)} ({timeAgo(incident.started_at)})
        {incident.fired_at && ` · told ${formatDateTime(incident.fired_at)}`}
        {incident.cleared_at && ` · clear since ${formatDateTime(incident.cleared_at)}`}
      </p>
    </li>
  );
}

function RuleRow({ rule, groupName }: { rule: AlertRuleDto; groupName: string | null }) {
  const [forSeconds, setFor] = useState(String(rule.for_seconds));
  const [holdSeconds, setHold] = useState(String(rule.hold_seconds));
  const [threshold, setThreshold] = useState(rule.threshold === null ? '' : String(rule.threshold));
  const [error, setError] = useState<string | null>(null);
  const may = useMay();
  const changed = forSeconds !== String(rule.for_seconds) || holdSeconds !== String(rule.hold_seconds) || (rule.threshold !== null && threshold !== String(rule.threshold));
  const title = ALERT_KIND_TEXT[rule.kind].title + (groupName ? ` — group "${groupName}"` : '');

  async function save(patch: Parameters<typeof adminApi.updateAlertRule>[0]) {
    try {
      await adminApi.updateAlertRule(patch);
      setError(null);
      showSuccess('Rule saved');
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to save the rule'));
      showFailure('Failed to save the rule', failure);
    }
  }

  return (
    <tr>
      <td>
        <span className="rule__title">{title}</span>
        <ErrorBox error={error} />
      </td>
      <td>
        <label className="field--check">
          <input type="checkbox" checked={rule.enabled} onChange={(e) => void save({ id: rule.id, enabled: e.target.checked })} aria-label={`${title}: on`} {...may.button('alerts.updateRule')} />
          {rule.enabled ? 'On' : 'Off'}
        </label>
      </td>
      <td>
        <input className="control rule__number" type="number" min={0} step="any" value={forSeconds} onChange={(e) => setFor(e.target.value)} aria-label={`${title}: fires after (seconds)`} />
        <span className="rule__unit">s = {formatDuration(Number(forSeconds) * 1000)}</span>
      </td>
      <td>
        <input className="control rule__number" type="number" min={0} step="any" value={holdSeconds} onChange={(e) => setHold(e.target.value)} aria-label={`${title}: recovers after clear for (seconds)`} />
        <span className="rule__unit">s = {formatDuration(Number(holdSeconds) * 1000)}</span>
      </td>
      <td>
        {rule.threshold === null ? (
          <span className="rule__unit">—</span>
        ) : (
          <>
            <input className="control rule__number" type="number" min={1} max={100} value={threshold} onChange={(e) => setThreshold(e.target.value)} aria-label={`${title}: threshold (percent)`} />
            <span className="rule__unit">%</span>
          </>
        )}
      </td>
      <td>
        <div className="row-actions">
        <button
          type="button"
          className="button button--small"
          disabled={!changed}
          {...may.button('alerts.updateRule')}
          onClick={() => void save({ id: rule.id, for_seconds: Number(forSeconds), hold_seconds: Number(holdSeconds), ...(rule.threshold === null ? {} : { threshold: Number(threshold) }) })}
        >
          Save
        </button>
        {rule.group_id !== null && (
          <button
            type="button"
            className="button button--ghost button--small"
            {...may.button('alerts.deleteRule')}
            onClick={() => adminApi.deleteAlertRule(rule.id).then(() => showSuccess('Group rule deleted'), (f: unknown) => showFailure('Failed to delete the rule', f))}
          >
            Delete
          </button>
        )}
        </div>
      </td>
    </tr>
  );
}

function DeliveryRow({ delivery }: { delivery: DeliveryDto }) {
  return (
    <tr>
      <td>{formatDateTime(delivery.created_at)}</td>
      <td>{delivery.destination_name}</td>
      <td>{delivery.event === 'fired' ? 'Alert' : delivery.event === 'recovered' ? 'Recovery' : 'Test'}</td>
      <td>
        <span className={`status-dot status-dot--${delivery.state === 'sent' ? 'live' : delivery.state === 'failed' ? 'error' : 'loading'}`}>
          {delivery.state === 'sent' ? 'Sent' : delivery.state === 'failed' ? 'Failed' : delivery.attempts > 0 ? 'Retrying' : 'Queued'}
        </span>
      </td>
      <td>{delivery.attempts}</td>
      <td className="delivery__answer">
        {delivery.status_code !== null && <code>HTTP {delivery.status_code}</code>} {delivery.answer ?? ''}
      </td>
    </tr>
  );
}

export default function AlertsTab() {
  const live = useAtomValue(alertsAtom, { store });
  const overview = live?.value ?? null;
  const groups = useAtomValue(programmeAtom, { store })?.value?.groups ?? [];
  const [name, setName] = useState('');
  const [kind, setKind] = useState<DestinationDto['kind']>('webhook');
  const [url, setUrl] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedDestinationDto | null>(null);
  const [deleting, setDeleting] = useState<DestinationDto | null>(null);
  const [groupId, setGroupId] = useState('');
  const may = useMay();

  const groupName = (id: number | null) => (id === null ? null : (groups.find((g) => g.id === id)?.name ?? `#${id}`));
  const groupsWithoutRule = groups.filter((g) => !overview?.rules.some((r) => r.group_id === g.id));

  async function addDestination(event: FormEvent) {
    event.preventDefault();
    try {
      const destination = await adminApi.createDestination({ name, kind, url });
      setCreated(destination);
      setName('');
      setUrl('');
      setFormError(null);
      showSuccess(`Added "${destination.name}"`);
    } catch (failure) {
      setFormError(serverSentence(failure, 'Failed to add the destination'));
      showFailure('Failed to add the destination', failure);
    }
  }

  async function addGroupRule() {
    try {
      await adminApi.createGroupAlertRule({ group_id: Number(groupId) });
      setGroupId('');
      showSuccess('Group rule added');
    } catch (failure) {
      showFailure('Failed to add the group rule', failure);
    }
  }

  async function remove(destination: DestinationDto) {
    setDeleting(null);
    try {
      await adminApi.deleteDestination(destination.id);
      showSuccess(`Deleted "${destination.name}"`);
    } catch (failure) {
      showFailure('Failed to delete the destination', failure);
    }
  }

  const open = overview?.open ?? [];
  return (
    <div className="alerts">
      <section className="panel" aria-labelledby="incidents-title">
        <div className="panel__header">
          <h2 id="incidents-title">Open incidents</h2>
          <p className="panel__hint">Told once when an incident outlasts its grace period, and once more when it recovers.</p>
        </div>
        <DataView value={overview ? open : null} error={null} empty="All clear: no incident is open.">
          {(incidents) => (
            <ul className="incidents" aria-label="Open incidents">
              {incidents.map((incident) => (
                <IncidentCard key={incident.id} incident={incident} />
              ))}
            </ul>
          )}
        </DataView>
      </section>

      <section className="panel" aria-labelledby="rules-title">
        <div className="panel__header">
          <h2 id="rules-title">Rules</h2>
          <p className="panel__hint">An incident fires after its condition held this long, and recovers after it stayed clear this long (a flap within it keeps it open).</p>
        </div>
        <DataView value={overview?.rules ?? null} error={null} empty="No rules.">
          {(rules) => (
            <Table columns={['What it watches', 'On', 'Fires after', 'Recovers after', 'Threshold', 'Actions']} label="Alert rules">
              <tbody>
                {rules.map((rule) => (
                  <RuleRow key={`${rule.id}:${rule.for_seconds}:${rule.hold_seconds}:${rule.threshold}`} rule={rule} groupName={groupName(rule.group_id)} />
                ))}
              </tbody>
            </Table>
          )}
        </DataView>
        {groupsWithoutRule.length > 0 && (
          <div className="toolbar">
            <label className="field">
              A screen group's own offline rule
              <select className="control" value={groupId} onChange={(e) => setGroupId(e.target.value)}>
                <option value="">Choose a group…</option>
                {groupsWithoutRule.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="button button--ghost" disabled={groupId === ''} onClick={() => void addGroupRule()} {...may.button('alerts.createGroupRule')}>
              Add group rule
            </button>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="destinations-title">
        <div className="panel__header">
          <h2 id="destinations-title">Destinations</h2>
          <p className="panel__hint">
            Messages go to public addresses only. Webhooks are signed: <code>X-NatureWall-Signature: sha256=HMAC(secret, timestamp + "." + body)</code> with <code>X-NatureWall-Timestamp</code>.
          </p>
        </div>
        <form className="toolbar destination-form" onSubmit={addDestination}>
          <label className="field">
            Name
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="Duty phone" />
          </label>
          <label className="field">
            Kind
            <select value={kind} onChange={(e) => setKind(e.target.value as DestinationDto['kind'])}>
              <Options values={DESTINATION_KINDS.map((k) => [k, KIND_LABEL[k]] as const)} />
            </select>
          </label>
          <label className="field toolbar__search">
            URL
            <input value={url} onChange={(e) => setUrl(e.target.value)} type="url" placeholder="https://hooks.example.org/nature-wall" />
          </label>
          <button type="submit" className="button" disabled={name.trim() === '' || url.trim() === ''} {...may.button('alerts.createDestination')}>
            Add destination
          </button>
        </form>
        <ErrorBox error={formError} />
        {created?.secret && (
          <ShownOnce title={`Copy the signing secret of "${created.name}" now: it is shown only once.`} value={created.secret} label="Signing secret" onDone={() => setCreated(null)} />
        )}
        <DataView value={overview?.destinations ?? null} error={null} empty="No destinations yet: incidents show here only.">
          {(destinations) => (
            <Table columns={['Name', 'Kind', 'URL', 'On', 'Actions']} label="Destinations">
              <tbody>
                {destinations.map((d) => (
                  <tr key={d.id}>
                    <td>{d.name}</td>
                    <td>{KIND_LABEL[d.kind]}</td>
                    <td className="destination__url">{d.url}</td>
                    <td>
                      <label className="field--check">
                        <input
                          type="checkbox"
                          checked={d.enabled}
                          aria-label={`${d.name}: on`}
                          {...may.button('alerts.updateDestination')}
                          onChange={(e) => adminApi.updateDestination({ id: d.id, enabled: e.target.checked }).catch((f: unknown) => showFailure('Failed to change the destination', f))}
                        />
                        {d.enabled ? 'On' : 'Paused'}
                      </label>
                    </td>
                    <td>
                      <div className="row-actions">
                      <button type="button" className="button button--ghost button--small" {...may.button('alerts.testDestination')} onClick={() => adminApi.testDestination(d.id).then(() => showSuccess(`Test message queued for "${d.name}"`), (f: unknown) => showFailure('Failed to send a test', f))}>
                        Send test
                      </button>
                      <button type="button" className="button button--ghost button--small" onClick={() => setDeleting(d)} {...may.button('alerts.deleteDestination')}>
                        Delete
                      </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </DataView>
      </section>

      <section className="panel" aria-labelledby="deliveries-title">
        <div className="panel__header">
          <h2 id="deliveries-title">Deliveries</h2>
          <p className="panel__hint">Each message with the receiver's last answer; failed attempts are retried with growing pauses before a message is given up.</p>
        </div>
        <DataView value={overview?.deliveries ?? null} error={null} empty="Nothing sent yet.">
          {(deliveries) => (
            <Table columns={['When', 'Destination', 'Message', 'State', 'Attempts', 'Answer']} label="Deliveries">
              <tbody>
                {deliveries.map((d) => (
                  <DeliveryRow key={d.id} delivery={d} />
                ))}
              </tbody>
            </Table>
          )}
        </DataView>
      </section>

      <section className="panel" aria-labelledby="recent-title">
        <div className="panel__header">
          <h2 id="recent-title">Recent incidents</h2>
        </div>
        <DataView value={overview?.recent ?? null} error={null} empty="No incident has recovered yet.">
          {(recent) => (
            <Table columns={['Incident', 'Began', 'Recovered', 'Lasted']} label="Recent incidents">
              <tbody>
                {recent.map((i) => (
                  <tr key={i.id}>
                    <td>
                      {i.title}
                      {i.detail && <div className="incident__detail">{i.detail}</div>}
                    </td>
                    <td>{formatDateTime(i.started_at)}</td>
                    <td>{i.resolved_at ? formatDateTime(i.resolved_at) : '—'}</td>
                    <td>{i.resolved_at ? formatDuration(Date.parse(i.resolved_at) - Date.parse(i.started_at)) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </DataView>
      </section>

      {deleting && (
        <ConfirmDialog
          title="Delete destination"
          message={`Delete "${deleting.name}"? Messages stop going there; its delivery log stays.`}
          confirm="Delete"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
