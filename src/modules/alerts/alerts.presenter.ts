/** Alerts' rows as the contract's DTOs, and the overview the console shows (and is pushed). */
import type { EntityManager } from '../../db.ts';
import type { AlertRuleDto, AlertsOverviewDto, DeliveryDto, DestinationDto, IncidentDto } from '../../shared/api/alerts.ts';
import { AlertDelivery, AlertDestination, AlertIncident, AlertRule } from './alerts.entity.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function presentRule(rule: AlertRule): AlertRuleDto {
  return {
    id: rule.id,
    kind: rule.kind,
    enabled: rule.enabled,
    group_id: rule.groupId ?? null,
    for_seconds: rule.forSeconds,
    hold_seconds: rule.holdSeconds,
    threshold: rule.threshold ?? null,
  };
}

export function presentDestination(destination: AlertDestination): DestinationDto {
  return {
    id: destination.id,
    name: destination.name,
    kind: destination.kind,
    url: destination.url,
    enabled: destination.enabled,
    signed: destination.kind === 'webhook' && Boolean(destination.secret),
    created_at: destination.createdAt.toISOString(),
  };
}

export function presentIncident(incident: AlertIncident): IncidentDto {
  return {
    id: incident.id,
    rule_id: incident.ruleId,
    kind: incident.kind,
    subject: incident.subject,
    title: incident.title,
    detail: incident.detail ?? null,
    state: incident.phase,
    started_at: incident.startedAt.toISOString(),
    fired_at: iso(incident.firedAt),
    cleared_at: iso(incident.clearedAt),
    resolved_at: iso(incident.resolvedAt),
  };
}

export function presentDelivery(delivery: AlertDelivery): DeliveryDto {
  return {
    id: delivery.id,
    incident_id: delivery.incidentId ?? null,
    destination_id: delivery.destinationId ?? null,
    destination_name: delivery.destinationName,
    event: delivery.event,
    state: delivery.state,
    attempts: delivery.attempts,
    status_code: delivery.statusCode ?? null,
    answer: delivery.answer ?? null,
    created_at: delivery.createdAt.toISOString(),
    finished_at: iso(delivery.finishedAt),
  };
}

export async function alertsOverview(em: EntityManager): Promise<AlertsOverviewDto> {
  const [rules, destinations, open, recent, deliveries] = await Promise.all([
    em.find(AlertRule, {}, { orderBy: { id: 'asc' } }),
    em.find(AlertDestination, {}, { orderBy: { id: 'asc' } }),
    em.find(AlertIncident, { phase: { $ne: 'resolved' } }, { orderBy: { startedAt: 'desc' }, limit: 200 }),
    em.find(AlertIncident, { phase: 'resolved' }, { orderBy: { resolvedAt: 'desc' }, limit: 30 }),
    em.find(AlertDelivery, {}, { orderBy: { id: 'desc' }, limit: 50 }),
  ]);
  return {
    rules: rules.map(presentRule),
    destinations: destinations.map(presentDestination),
    open: open.map(presentIncident),
    recent: recent.map(presentIncident),
    deliveries: deliveries.map(presentDelivery),
  };
}

/** Open incidents by kind (the metrics' gauge). */
export async function openIncidents(em: EntityManager): Promise<{ labels: { kind: string }; value: number }[]> {
  const rows = await em.execute<{ kind: string; n: number }[]>(`select kind, count(*)::int as n from alert_incidents where phase in ('open', 'clearing') group by kind`);
  return rows.map((r) => ({ labels: { kind: r.kind }, value: r.n }));
}
