/**
 * Alerts: rules an admin tunes, destinations messages go to (webhooks, Slack, Discord), the
 * incidents the rules opened and every delivery with the receiver's answer.
 */
import { z } from 'zod';
import { ALERT_KINDS } from '../alerts/incidents.ts';
import { documentedAs, HTTP_URL_PATTERN, Id, IdBody, IsoDate, line, name, SuccessDto } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export { ALERT_KINDS, type AlertKind } from '../alerts/incidents.ts';

export const DESTINATION_KINDS = ['webhook', 'slack', 'discord'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** What each rule watches, in an operator's words (the console and the messages say it). */
export const ALERT_KIND_TEXT: Record<(typeof ALERT_KINDS)[number], { title: string; threshold: string | null }> = {
  screen_offline: { title: 'A screen is offline', threshold: null },
  stream_unhealthy: { title: 'A stream on a wall is offline or degraded and nothing replaced it', threshold: null },
  discovery_failed: { title: 'A discovery run failed', threshold: null },
  analysis_failures: { title: 'Quality analyses fail too often (share of the last hour)', threshold: '%' },
  database_unavailable: { title: 'The database is unavailable on a node', threshold: null },
  login_failures: { title: 'Sign-ins to an account fail from many addresses (it is slowed for browsers it does not know)', threshold: null },
  backup_stale: { title: 'The newest good backup is older than two backup periods (BACKUP_CRON)', threshold: null },
};

/** Said in the document and by the refusal. */
export const THRESHOLD_RULE = 'only the analysis-failure rule has a threshold';

const Seconds = (max: number) => z.number({ error: 'Expected a number of seconds' }).min(0, 'Must not be negative').max(max, `Must be at most ${max} seconds`);

export const AlertRuleDto = z.strictObject({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  enabled: z.boolean(),
  group_id: z.number().int().nullable().describe('Screen-offline rules only: the screen group it is for (null: every screen without a rule of its own group)'),
  for_seconds: z.number().describe('How long the condition must hold before the alert fires (shorter incidents never fire)'),
  hold_seconds: z.number().describe('How long the condition must stay clear before the incident recovers (a flap within it keeps the incident open)'),
  threshold: z.number().nullable().describe('Analysis failures only: the share of failed analyses in the last hour, in percent'),
});
export type AlertRuleDto = z.output<typeof AlertRuleDto>;

export const AlertRuleUpdate = z.object({
  id: Id,
  enabled: z.boolean().optional(),
  for_seconds: Seconds(7 * 86_400).optional(),
  hold_seconds: Seconds(86_400).optional(),
  threshold: z
    .number({ error: 'Expected a percentage' })
    .min(1, 'Must be at least 1 %')
    .max(100, 'Must be at most 100 %')
    .optional()
    .describe(`The share of failed analyses that fires the rule, in percent: ${THRESHOLD_RULE}`),
});
export type AlertRuleUpdate = z.output<typeof AlertRuleUpdate>;

/** A screen-offline rule of its own for one screen group. */
export const GroupRuleInput = z.object({
  group_id: Id,
  for_seconds: Seconds(7 * 86_400).default(300),
  hold_seconds: Seconds(86_400).default(60),
});
export type GroupRuleInput = z.output<typeof GroupRuleInput>;

export const DestinationDto = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(DESTINATION_KINDS),
  url: z.string(),
  enabled: z.boolean(),
  signed: z.boolean().describe('Webhooks: bodies are signed with HMAC-SHA256 (X-NatureWall-Signature)'),
  created_at: IsoDate,
});
export type DestinationDto = z.output<typeof DestinationDto>;

/** A new destination; a webhook's signing secret is made by the server and shown once. */
export const DestinationInput = z.object({
  name: name({ max: 80, min: 1, required: 'Name is required' }),
  kind: z.enum(DESTINATION_KINDS, { error: `Kind must be one of ${DESTINATION_KINDS.join(', ')}` }),
  url: documentedAs(line({ max: 2000, min: 1, required: 'Expected an http(s) URL' }).pipe(z.url({ protocol: /^https?$/, error: 'Expected an http(s) URL' })), {
    type: 'string',
    minLength: 1,
    maxLength: 2000,
    pattern: HTTP_URL_PATTERN,
    description: 'Where messages are sent: an http(s) address (also accepted: an IP address as host)',
  }),
});
export type DestinationInput = z.output<typeof DestinationInput>;

export const DestinationUpdate = z.object({ id: Id, name: name({ max: 80, min: 1, required: 'Name is required' }).optional(), enabled: z.boolean().optional() });
export type DestinationUpdate = z.output<typeof DestinationUpdate>;

export const CreatedDestinationDto = DestinationDto.extend({
  secret: z.string().nullable().describe('Webhooks: the HMAC-SHA256 signing secret, shown only now'),
});
export type CreatedDestinationDto = z.output<typeof CreatedDestinationDto>;

export const INCIDENT_STATES = ['pending', 'open', 'clearing', 'resolved'] as const;

export const IncidentDto = z.strictObject({
  id: z.number().int(),
  rule_id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  subject: z.string().describe('What it is about: screen:<key>, stream:<id>, source:<id>, analysis, database:<node>'),
  title: z.string(),
  detail: z.string().nullable(),
  state: z.enum(INCIDENT_STATES),
  started_at: IsoDate,
  fired_at: IsoDate.nullable(),
  cleared_at: IsoDate.nullable(),
  resolved_at: IsoDate.nullable(),
});
export type IncidentDto = z.output<typeof IncidentDto>;

export const DELIVERY_STATES = ['pending', 'sent', 'failed'] as const;

export const DeliveryDto = z.strictObject({
  id: z.number().int(),
  incident_id: z.number().int().nullable(),
  destination_id: z.number().int().nullable(),
  destination_name: z.string(),
  event: z.enum(['fired', 'recovered', 'test']),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  status_code: z.number().int().nullable().describe("The receiver's last HTTP status"),
  answer: z.string().nullable().describe("The receiver's last answer or the reason it could not be reached"),
  created_at: IsoDate,
  finished_at: IsoDate.nullable(),
});
export type DeliveryDto = z.output<typeof DeliveryDto>;

export const AlertsOverviewDto = z.strictObject({
  rules: z.array(AlertRuleDto),
  destinations: z.array(DestinationDto),
  open: z.array(IncidentDto).describe('Incidents told and not yet recovered, and those still in their grace period'),
  recent: z.array(IncidentDto).describe('The 30 most recently resolved incidents'),
  deliveries: z.array(DeliveryDto).describe('The 50 newest deliveries'),
});
export type AlertsOverviewDto = z.output<typeof AlertsOverviewDto>;

export const alertEndpoints = {
  overview: endpoint({ ...ROUTES['alerts.overview'], summary: 'Rules, destinations, open and recent incidents, recent deliveries', access: 'viewer', responses: { 200: AlertsOverviewDto } }),
  updateRule: endpoint({ ...ROUTES['alerts.updateRule'], summary: "Turn a rule on or off, or change its periods or threshold", access: 'operator', body: AlertRuleUpdate, responses: { 200: AlertRuleDto }, errors: [404] }),
  createGroupRule: endpoint({ ...ROUTES['alerts.createGroupRule'], summary: 'A screen-offline rule of its own for one screen group', access: 'operator', body: GroupRuleInput, responses: { 201: AlertRuleDto }, errors: [404, 409] }),
  deleteRule: endpoint({ ...ROUTES['alerts.deleteRule'], summary: "Delete a group's own screen-offline rule", access: 'operator', body: IdBody, responses: { 200: SuccessDto }, errors: [404, 409] }),
  createDestination: endpoint({ ...ROUTES['alerts.createDestination'], summary: 'Add a webhook, Slack or Discord destination', access: 'admin', body: DestinationInput, responses: { 201: CreatedDestinationDto }, errors: [422] }),
  updateDestination: endpoint({ ...ROUTES['alerts.updateDestination'], summary: 'Rename, pause or resume a destination', access: 'admin', body: DestinationUpdate, responses: { 200: DestinationDto }, errors: [404] }),
  deleteDestination: endpoint({ ...ROUTES['alerts.deleteDestination'], summary: 'Delete a destination (its delivery log stays)', access: 'admin', body: IdBody, responses: { 200: SuccessDto }, errors: [404] }),
  testDestination: endpoint({ ...ROUTES['alerts.testDestination'], summary: 'Send a test message to a destination (queued; its answer shows in the log)', access: 'admin', body: IdBody, responses: { 202: DeliveryDto }, errors: [404] }),
};
