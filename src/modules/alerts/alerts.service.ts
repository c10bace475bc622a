/** Admins' commands on alerts: tune rules, add group rules, manage destinations, send a test. */
import { randomBytes, randomUUID } from 'node:crypto';
import { THRESHOLD_RULE } from '../../shared/api/alerts.ts';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SafeFetcher } from '../../http/safe-fetch.ts';
import { ALERT_KIND_TEXT, type AlertRuleUpdate, type DestinationInput, type DestinationUpdate, type GroupRuleInput } from '../../shared/api/alerts.ts';
import { groupNames } from '../programme/programme.service.ts';
import { AlertDelivery, AlertDestination, AlertRule } from './alerts.entity.ts';
import type { AlertMessage } from './payloads.ts';

/** A rule's name in the activity log: what it watches, and its group when it has one. */
async function ruleName(tx: EntityManager, rule: AlertRule): Promise<string> {
  const title = ALERT_KIND_TEXT[rule.kind].title;
  if (rule.groupId === null || rule.groupId === undefined) return title;
  const group = (await groupNames(tx, [rule.groupId])).get(rule.groupId);
  return `${title} (${group ?? `group ${rule.groupId}`})`;
}

export async function updateRule(tx: EntityManager, changes: Changes, input: AlertRuleUpdate): Promise<AlertRule> {
  const rule = await tx.findOne(AlertRule, { id: input.id });
  if (!rule) throw new DomainError('not-found', `Alert rule ${input.id} not found`);
  if (input.threshold !== undefined && rule.kind !== 'analysis_failures') throw new DomainError('invalid', `threshold: ${THRESHOLD_RULE}`);
  if (input.enabled !== undefined) rule.enabled = input.enabled;
  if (input.for_seconds !== undefined) rule.forSeconds = input.for_seconds;
  if (input.hold_seconds !== undefined) rule.holdSeconds = input.hold_seconds;
  if (input.threshold !== undefined) rule.threshold = input.threshold;
  await tx.flush();
  changes.push({ type: 'alert-rule.updated', ruleId: rule.id, name: await ruleName(tx, rule) });
  return rule;
}

export async function createGroupRule(tx: EntityManager, changes: Changes, input: GroupRuleInput): Promise<AlertRule> {
  const group = (await groupNames(tx, [input.group_id])).get(input.group_id);
  if (group === undefined) throw new DomainError('not-found', `Screen group ${input.group_id} not found`);
  const existing = await tx.findOne(AlertRule, { kind: 'screen_offline', groupId: input.group_id });
  if (existing) throw new DomainError('conflict', `The group "${group}" already has its own screen-offline rule`);
  const rule = tx.create(AlertRule, { kind: 'screen_offline', groupId: input.group_id, forSeconds: input.for_seconds, holdSeconds: input.hold_seconds, threshold: null, enabled: true });
  await tx.flush();
  changes.push({ type: 'alert-rule.created', ruleId: rule.id, name: await ruleName(tx, rule) });
  return rule;
}

export async function deleteRule(tx: EntityManager, changes: Changes, id: number): Promise<void> {
  const rule = await tx.findOne(AlertRule, { id });
  if (!rule) throw new DomainError('not-found', `Alert rule ${id} not found`);
  if (rule.groupId === null || rule.groupId === undefined) throw new DomainError('conflict', 'A building-wide rule cannot be deleted: turn it off instead');
  const name = await ruleName(tx, rule);
  tx.remove(rule);
  await tx.flush();
  changes.push({ type: 'alert-rule.deleted', ruleId: id, name });
}

export async function createDestination(tx: EntityManager, changes: Changes, input: DestinationInput, fetcher: SafeFetcher): Promise<AlertDestination> {
  // The safe fetcher's rules, at once: a private or local address is refused here, and a name
  // that resolves to one is refused again when a message is sent.
  if (!fetcher.allows(input.url)) throw new DomainError('unprocessable', 'url: alerts are sent only to public http(s) addresses (not private, local or this server)');
  const destination = tx.create(AlertDestination, {
    name: input.name,
    kind: input.kind,
    url: input.url,
    secret: input.kind === 'webhook' ? randomBytes(32).toString('base64url') : null,
    enabled: true,
  });
  await tx.flush();
  changes.push({ type: 'alert-destination.created', destinationId: destination.id, name: destination.name });
  return destination;
}

export async function updateDestination(tx: EntityManager, changes: Changes, input: DestinationUpdate): Promise<AlertDestination> {
  const destination = await tx.findOne(AlertDestination, { id: input.id });
  if (!destination) throw new DomainError('not-found', `Destination ${input.id} not found`);
  if (input.name !== undefined) destination.name = input.name;
  if (input.enabled !== undefined) destination.enabled = input.enabled;
  await tx.flush();
  changes.push({ type: 'alert-destination.updated', destinationId: destination.id, name: destination.name });
  return destination;
}

export async function deleteDestination(tx: EntityManager, changes: Changes, id: number): Promise<void> {
  const destination = await tx.findOne(AlertDestination, { id });
  if (!destination) throw new DomainError('not-found', `Destination ${id} not found`);
  tx.remove(destination);
  await tx.flush();
  changes.push({ type: 'alert-destination.deleted', destinationId: id, name: destination.name });
}

/**
 * Files one delivery of `message` to `destination` at `at` (the watch's clock: the stranded-job
 * sweep compares it with that clock); the caller queues its job after commit.
 */
export function fileDelivery(tx: EntityManager, changes: Changes, destination: AlertDestination, message: AlertMessage, at: number): AlertDelivery {
  const delivery = tx.create(AlertDelivery, {
    incidentId: message.incident_id,
    destinationId: destination.id,
    destinationName: destination.name,
    event: message.event,
    state: 'pending',
    attempts: 0,
    message,
    jobId: randomUUID(),
    createdAt: new Date(at),
  });
  changes.push({ type: 'delivery.changed', deliveryId: 0, transient: true });
  return delivery;
}

export async function fileTestDelivery(tx: EntityManager, changes: Changes, id: number, at: number): Promise<AlertDelivery> {
  const destination = await tx.findOne(AlertDestination, { id });
  if (!destination) throw new DomainError('not-found', `Destination ${id} not found`);
  const message: AlertMessage = { event: 'test', incident_id: null, kind: null, subject: null, title: 'Test message', detail: `Sent from the Alerts tab to "${destination.name}".`, started_at: null, fired_at: null, resolved_at: null, at: new Date(at).toISOString() };
  const delivery = fileDelivery(tx, changes, destination, message, at);
  await tx.flush();
  return delivery;
}
