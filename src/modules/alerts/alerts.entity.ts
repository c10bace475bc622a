/**
 * Alerts' rows: the rules (one per kind, plus screen-offline rules of their own for screen
 * groups), where messages go, the incidents the rules opened and each delivery of a message
 * with the receiver's answer. Incidents and deliveries are written only by this module's
 * evaluator and delivery worker; rules and destinations by admins' commands.
 */
import { defineEntity, p } from '@mikro-orm/core';
import type { AlertKind, IncidentPhase } from '../../shared/alerts/incidents.ts';
import type { DestinationKind } from '../../shared/api/alerts.ts';
import type { AlertMessage } from './payloads.ts';

export const AlertRuleSchema = defineEntity({
  name: 'AlertRule',
  tableName: 'alert_rules',
  properties: {
    id: p.integer().primary(),
    kind: p.text().$type<AlertKind>(),
    enabled: p.boolean().default(true),
    /** Screen-offline rules of a group (FK screen_groups, cascade); null: the building-wide rule. */
    groupId: p.integer().nullable(),
    forSeconds: p.double().runtimeType('number').$type<number>(),
    holdSeconds: p.double().runtimeType('number').$type<number>(),
    threshold: p.double().runtimeType('number').$type<number>().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export class AlertRule extends AlertRuleSchema.class {}
AlertRuleSchema.setClass(AlertRule);

export const AlertDestinationSchema = defineEntity({
  name: 'AlertDestination',
  tableName: 'alert_destinations',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    kind: p.text().$type<DestinationKind>(),
    url: p.text(),
    /** Webhooks: the HMAC-SHA256 key of X-NatureWall-Signature. */
    secret: p.text().nullable(),
    enabled: p.boolean().default(true),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
  },
});
export class AlertDestination extends AlertDestinationSchema.class {}
AlertDestinationSchema.setClass(AlertDestination);

export const AlertIncidentSchema = defineEntity({
  name: 'AlertIncident',
  tableName: 'alert_incidents',
  properties: {
    id: p.integer().primary(),
    /** FK alert_rules (cascade). */
    ruleId: p.integer(),
    kind: p.text().$type<AlertKind>(),
    subject: p.text(),
    title: p.text(),
    detail: p.text().nullable(),
    phase: p.text().$type<IncidentPhase>(),
    startedAt: p.datetime(),
    firedAt: p.datetime().nullable(),
    clearedAt: p.datetime().nullable(),
    resolvedAt: p.datetime().nullable(),
  },
});
export class AlertIncident extends AlertIncidentSchema.class {}
AlertIncidentSchema.setClass(AlertIncident);

export const AlertDeliverySchema = defineEntity({
  name: 'AlertDelivery',
  tableName: 'alert_deliveries',
  properties: {
    id: p.integer().primary(),
    /** FK alert_incidents (set null); null for a test message. */
    incidentId: p.integer().nullable(),
    /** FK alert_destinations (set null): the log outlives a deleted destination. */
    destinationId: p.integer().nullable(),
    destinationName: p.text(),
    event: p.text().$type<'fired' | 'recovered' | 'test'>(),
    state: p.text().$type<'pending' | 'sent' | 'failed'>().default('pending'),
    attempts: p.integer().default(0),
    statusCode: p.integer().nullable(),
    answer: p.text().nullable(),
    /** What is sent, fixed when the delivery is made: every retry sends the same message. */
    message: p.json<AlertMessage>(),
    /** The queue job carrying it (its id is chosen here, so queuing it twice queues it once). */
    jobId: p.uuid(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
  },
});
export class AlertDelivery extends AlertDeliverySchema.class {}
AlertDeliverySchema.setClass(AlertDelivery);
