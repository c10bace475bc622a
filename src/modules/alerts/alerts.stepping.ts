/**
 * Stepping incidents: each check compares the conditions that hold with the incidents under way
 * and moves every one along its life (src/shared/alerts/incidents.ts). One node at a time does
 * it (a transaction-scoped advisory lock), and an incident's row is unique per rule and subject,
 * so a condition fires once however many nodes run. A fired or recovered incident files one
 * message per enabled destination; the caller queues their jobs after commit.
 */
import type { EntityManager, Orm } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { runCommand, type CommandDeps } from '../../domain/command.ts';
import { stepIncident, type AlertKind, type IncidentClock, type IncidentPhase, type IncidentStep } from '../../shared/alerts/incidents.ts';
import { AlertDestination, AlertIncident, AlertRule, type AlertDelivery } from './alerts.entity.ts';
import { gather, type WatchSources } from './alerts.rules.ts';
import { fileDelivery } from './alerts.service.ts';
import type { AlertMessage } from './payloads.ts';

/** Who the activity log names for the watch's and the delivery worker's writes. */
export const SYSTEM_ACTOR = 'system';
/** pg_try_advisory_xact_lock key: one node steps the incidents at a time. */
const ALERTS_LOCK = 7_361_004;

export interface StepperDeps {
  orm: Orm;
  commands: CommandDeps;
  sources: WatchSources;
  /** Hears the rules and enabled destinations each step reads (the database-outage fallback keeps them). */
  remember(rules: AlertRule[], destinations: AlertDestination[]): void;
}

const keyOf = (ruleId: number, subject: string) => `${ruleId}|${subject}`;

/** A live incident's row as the step reads it (alert_incidents; no entity: most do not move). */
interface LiveIncident {
  id: number;
  rule_id: number;
  kind: AlertKind;
  subject: string;
  phase: IncidentPhase;
  started_at: Date | string;
  fired_at: Date | string | null;
  cleared_at: Date | string | null;
  resolved_at: Date | string | null;
}

/** What a step does to one live incident: its rule's step, or closing it (the rule is gone). */
type Move = Exclude<IncidentStep, { kind: 'same' }> | { kind: 'close' };

const timeOf = (value: Date | string | null): number | null => (value === null ? null : new Date(value).getTime());

function clockOfRow(row: LiveIncident): IncidentClock {
  return {
    phase: row.phase,
    startedAt: timeOf(row.started_at)!,
    firedAt: timeOf(row.fired_at),
    clearedAt: timeOf(row.cleared_at),
    resolvedAt: timeOf(row.resolved_at),
  };
}

function clockOf(incident: AlertIncident): IncidentClock {
  return {
    phase: incident.phase,
    startedAt: incident.startedAt.getTime(),
    firedAt: incident.firedAt?.getTime() ?? null,
    clearedAt: incident.clearedAt?.getTime() ?? null,
    resolvedAt: incident.resolvedAt?.getTime() ?? null,
  };
}

function applyClock(incident: AlertIncident, clock: IncidentClock): void {
  incident.phase = clock.phase;
  incident.startedAt = new Date(clock.startedAt);
  incident.firedAt = clock.firedAt === null ? null : new Date(clock.firedAt);
  incident.clearedAt = clock.clearedAt === null ? null : new Date(clock.clearedAt);
  incident.resolvedAt = clock.resolvedAt === null ? null : new Date(clock.resolvedAt);
}

export function messageOf(incident: AlertIncident, event: 'fired' | 'recovered', now: number): AlertMessage {
  return {
    event,
    incident_id: incident.id,
    kind: incident.kind,
    subject: incident.subject,
    title: incident.title,
    detail: incident.detail ?? null,
    started_at: incident.startedAt.toISOString(),
    fired_at: incident.firedAt?.toISOString() ?? null,
    resolved_at: incident.resolvedAt?.toISOString() ?? null,
    at: new Date(now).toISOString(),
  };
}

/**
 * Files messages for every enabled destination into `filed` (the jobs are queued after commit):
 * one per transaction, which reads the destinations once, when its first message is filed.
 */
export function messageFiler(tx: EntityManager, changes: Changes, filed: AlertDelivery[], at: number): (message: AlertMessage) => Promise<void> {
  let destinations: Promise<AlertDestination[]> | undefined;
  return async (message) => {
    destinations ??= tx.find(AlertDestination, { enabled: true }, { orderBy: { id: 'asc' } });
    for (const destination of await destinations) filed.push(fileDelivery(tx, changes, destination, message, at));
  };
}

/** One step of every incident at the sources' now; answers the deliveries it filed, committed and not yet queued. */
export async function stepIncidents(deps: StepperDeps): Promise<AlertDelivery[]> {
  const { orm } = deps;
  const em = orm.em.fork();
  const [rules, destinations] = await Promise.all([em.find(AlertRule, {}), em.find(AlertDestination, { enabled: true })]);
  deps.remember(rules, destinations);
  const enabled = rules.filter((r) => r.enabled);
  const filed: AlertDelivery[] = [];
  await runCommand(orm.em.fork(), deps.commands, SYSTEM_ACTOR, async (tx, changes) => {
    const [lock] = await tx.execute<{ locked: boolean }[]>(`select pg_try_advisory_xact_lock(${ALERTS_LOCK}) as locked`);
    if (!lock?.locked) return; // another node is stepping them right now
    // Looked at by the node that steps them only: the screens' part asks every node for its
    // screens, which every node doing it every few seconds multiplied by the cluster's size.
    const { conditions, unknown } = await gather(em, enabled, deps.sources);
    const at = deps.sources.now();
    const fileMessage = messageFiler(tx, changes, filed, at);
    const byRule = new Map(enabled.map((r) => [r.id, r]));
    const holding = new Map(conditions.map((c) => [keyOf(c.rule.id, c.subject), c]));
    // The live incidents' clocks as plain rows, and entities only for those that move: with a
    // thousand screens offline, managing every incident each step cost the stepping node 100–180 ms
    // of its event loop every few seconds, delaying pushes (bench:cluster, a CPU profile).
    const live = await tx.execute<LiveIncident[]>(
      `select id, rule_id, kind, subject, phase, started_at, fired_at, cleared_at, resolved_at from alert_incidents where phase <> 'resolved'`,
    );
    const moves = new Map<number, Move>();
    for (const row of live) {
      const key = keyOf(row.rule_id, row.subject);
      const condition = holding.get(key);
      holding.delete(key);
      if (row.kind === 'database_unavailable') continue; // recorded whole by the node that saw it
      if (unknown.has(row.kind)) continue;
      const rule = byRule.get(row.rule_id);
      // Its rule was turned off or deleted: the incident ends without a message.
      if (!rule) {
        moves.set(row.id, { kind: 'close' });
        continue;
      }
      const step = stepIncident(clockOfRow(row), condition !== undefined, at, { for_seconds: rule.forSeconds, hold_seconds: rule.holdSeconds });
      if (step.kind !== 'same') moves.set(row.id, step);
    }
    const moving = moves.size > 0 ? await tx.find(AlertIncident, { id: { $in: [...moves.keys()] } }) : [];
    for (const incident of moving) {
      const move = moves.get(incident.id)!;
      changes.push({ type: 'incident.changed', incidentId: incident.id, transient: true });
      if (move.kind === 'close') {
        applyClock(incident, { ...clockOf(incident), phase: 'resolved', resolvedAt: at });
        incident.detail = [incident.detail, 'Closed: its rule was turned off.'].filter(Boolean).join(' ');
      } else if (move.kind === 'forget') {
        tx.remove(incident);
      } else {
        applyClock(incident, move.next);
        if (move.send) await fileMessage(messageOf(incident, move.send, at));
      }
    }
    const opened: { incident: AlertIncident; send: 'fired' | 'recovered' | null }[] = [];
    for (const condition of holding.values()) {
      const rule = condition.rule;
      const step = stepIncident(null, true, at, { for_seconds: rule.forSeconds, hold_seconds: rule.holdSeconds }, condition.since);
      if (step.kind !== 'update') continue;
      const incident = tx.create(AlertIncident, {
        ruleId: rule.id,
        kind: rule.kind,
        subject: condition.subject,
        title: condition.title,
        detail: condition.detail,
        phase: step.next.phase,
        startedAt: new Date(step.next.startedAt),
      });
      applyClock(incident, step.next);
      opened.push({ incident, send: step.send });
    }
    // One insert for all of them (their ids go into the messages). A flush each looked at every
    // incident already held, each time: when a roll left 500 walls offline at once, that was most
    // of a node's time for seconds (bench:cluster, a CPU profile).
    if (opened.length > 0) await tx.flush();
    for (const { incident, send } of opened) {
      changes.push({ type: 'incident.changed', incidentId: incident.id, transient: true });
      if (send) await fileMessage(messageOf(incident, send, at));
    }
    await tx.flush();
  });
  return filed;
}
