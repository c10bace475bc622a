/**
 * What an alert says and how each destination wants it: a generic JSON body signed with
 * HMAC-SHA256 for webhooks, Slack's and Discord's incoming-webhook shapes for those. Plain
 * functions: the delivery worker sends what these return.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AlertKind } from '../../shared/alerts/incidents.ts';
import type { DestinationKind } from '../../shared/api/alerts.ts';
import { formatDuration } from '../../shared/alerts/duration.ts';

export { formatDuration } from '../../shared/alerts/duration.ts';

export interface AlertMessage {
  event: 'fired' | 'recovered' | 'test';
  incident_id: number | null;
  kind: AlertKind | null;
  subject: string | null;
  title: string;
  detail: string | null;
  started_at: string | null;
  fired_at: string | null;
  resolved_at: string | null;
  /** When the message was made (ISO). */
  at: string;
}

export const SIGNATURE_HEADER = 'x-naturewall-signature';
export const TIMESTAMP_HEADER = 'x-naturewall-timestamp';

/** `sha256=<hex>` of HMAC-SHA256(secret, "<timestamp>.<body>"): the timestamp is signed too, so a captured body cannot be replayed later as new. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver runs to check a delivery (docs/operations.md shows it; tests use it). */
export function verifySignature(secret: string, timestamp: string, body: string, header: string): boolean {
  const expected = Buffer.from(signature(secret, Number(timestamp), body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function headline(message: AlertMessage): string {
  if (message.event === 'test') return 'Test message from Nature Wall: this destination works.';
  return message.event === 'fired' ? `ALERT: ${message.title}` : `RECOVERED: ${message.title}`;
}

function lines(message: AlertMessage): string[] {
  const out: string[] = [];
  if (message.detail) out.push(message.detail);
  if (message.event === 'recovered' && message.started_at && message.resolved_at) {
    out.push(`Lasted ${formatDuration(Date.parse(message.resolved_at) - Date.parse(message.started_at))} (since ${message.started_at}).`);
  } else if (message.started_at && message.event === 'fired') {
    out.push(`Since ${message.started_at}.`);
  }
  return out;
}

/** The body for a destination of this kind. */
export function bodyFor(kind: DestinationKind, message: AlertMessage): string {
  const text = [headline(message), ...lines(message)].join('\n');
  switch (kind) {
    case 'webhook':
      return JSON.stringify({ type: `alert.${message.event}`, text, alert: message });
    case 'slack':
      return JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: [`*${headline(message)}*`, ...lines(message)].join('\n') } }] });
    case 'discord':
      return JSON.stringify({
        username: 'Nature Wall',
        content: headline(message),
        embeds: [{ title: message.title, description: lines(message).join('\n') || undefined, color: message.event === 'fired' ? 0xd64545 : 0x2f9e6e, timestamp: message.at }],
        allowed_mentions: { parse: [] },
      });
  }
}

/** The request headers of one attempt (webhooks carry the signature when the destination has a secret). */
export function headersFor(kind: DestinationKind, secret: string | null, body: string, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (kind === 'webhook' && secret) {
    const timestamp = Math.floor(now / 1000);
    headers[TIMESTAMP_HEADER] = String(timestamp);
    headers[SIGNATURE_HEADER] = signature(secret, timestamp, body);
  }
  return headers;
}
