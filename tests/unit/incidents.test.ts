import { describe, expect, it } from 'vitest';
import { failureRate, stepIncident, type IncidentClock } from '../../src/shared/alerts/incidents.ts';
import { bodyFor, formatDuration, headersFor, SIGNATURE_HEADER, signature, TIMESTAMP_HEADER, verifySignature, type AlertMessage } from '../../src/modules/alerts/payloads.ts';

/** HMAC-SHA256("key", "1.body"), from `printf '1.body' | openssl dgst -sha256 -hmac key`. */
const KNOWN = '91b5374b153842ad05b2c4eab9349b8321b14703165bd3fb8b034dfb8be98ae5';

const rule = { for_seconds: 60, hold_seconds: 30 };
const t0 = Date.UTC(2026, 10, 24, 12);
const s = (n: number) => t0 + n * 1000;

/** Runs a condition's timeline through the rule; returns the messages sent and the final clock. */
function run(timeline: [number, boolean][], periods = rule) {
  let clock: IncidentClock | null = null;
  const sent: string[] = [];
  for (const [at, active] of timeline) {
    const step = stepIncident(clock, active, s(at), periods);
    if (step.kind === 'forget') clock = null;
    if (step.kind === 'update') {
      clock = step.next;
      if (step.send) sent.push(`${step.send}@${at}`);
    }
  }
  return { sent, clock };
}

describe('stepIncident', () => {
  it('fires once the condition held for the grace period, and recovers after the hold', () => {
    expect(run([[0, true], [30, true], [60, true], [90, true], [100, false], [120, false], [130, false]]).sent).toEqual(['fired@60', 'recovered@130']);
  });

  it('forgets a blip shorter than the grace period without a message', () => {
    const { sent, clock } = run([[0, true], [59, false], [120, false]]);
    expect(sent).toEqual([]);
    expect(clock).toBeNull();
  });

  it('holds a flapping condition open: one fired, one recovered', () => {
    const { sent } = run([[0, true], [60, true], [70, false], [80, true], [90, false], [95, true], [100, false], [131, false]]);
    expect(sent).toEqual(['fired@60', 'recovered@131']);
  });

  it('starts at a known beginning (a screen last seen earlier) and fires at once when it is already past the grace', () => {
    const step = stepIncident(null, true, s(100), rule, s(10));
    expect(step).toMatchObject({ kind: 'update', send: 'fired', next: { phase: 'open', startedAt: s(10) } });
  });

  it('with no grace and no hold, fires and recovers at the first look', () => {
    expect(run([[0, true], [5, false]], { for_seconds: 0, hold_seconds: 0 }).sent).toEqual(['fired@0', 'recovered@5']);
  });

  it('a resolved incident that comes back is a new incident', () => {
    expect(run([[0, true], [60, true], [61, false], [91, false], [200, true], [260, true]]).sent).toEqual(['fired@60', 'recovered@91', 'fired@260']);
  });
});

describe('failureRate', () => {
  it('needs enough analyses to say', () => {
    expect(failureRate(3, 4)).toBeNull();
    expect(failureRate(3, 6)).toBe(0.5);
    expect(failureRate(0, 0, 0)).toBeNull();
  });
});

describe('alert payloads', () => {
  const message: AlertMessage = { event: 'fired', incident_id: 7, kind: 'screen_offline', subject: 'screen:x', title: 'Screen "Lobby" is offline', detail: 'A wall, last seen 12:00.', started_at: '2026-11-24T12:00:00.000Z', fired_at: '2026-11-24T12:05:00.000Z', resolved_at: null, at: '2026-11-24T12:05:00.000Z' };

  it('signs webhook bodies with HMAC-SHA256 over the timestamp and the body', () => {
    const body = bodyFor('webhook', message);
    const headers = headersFor('webhook', 'k3y', body, Date.UTC(2026, 10, 24, 12, 5));
    expect(headers[TIMESTAMP_HEADER]).toBe(String(Date.UTC(2026, 10, 24, 12, 5) / 1000));
    // Known answer: HMAC-SHA256("k3y", "<ts>.<body>") computed independently of signature().
    expect(headers[SIGNATURE_HEADER]).toBe(signature('k3y', Number(headers[TIMESTAMP_HEADER]), body));
    expect(signature('key', 1, 'body')).toBe(`sha256=${KNOWN}`);
    expect(verifySignature('k3y', headers[TIMESTAMP_HEADER]!, body, headers[SIGNATURE_HEADER]!)).toBe(true);
    expect(verifySignature('k3y', String(Number(headers[TIMESTAMP_HEADER]) + 1), body, headers[SIGNATURE_HEADER]!)).toBe(false);
    expect(headersFor('slack', 'k3y', body)[SIGNATURE_HEADER]).toBeUndefined();
    expect(JSON.parse(body)).toMatchObject({ type: 'alert.fired', alert: { incident_id: 7 } });
  });

  it('speaks Slack and Discord incoming-webhook shapes', () => {
    const slack = JSON.parse(bodyFor('slack', message));
    expect(slack.text).toMatch(/^ALERT: Screen "Lobby" is offline\nA wall, last seen 12:00\./);
    expect(slack.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    const discord = JSON.parse(bodyFor('discord', { ...message, event: 'recovered', resolved_at: '2026-11-24T12:30:00.000Z' }));
    expect(discord).toMatchObject({ username: 'Nature Wall', content: 'RECOVERED: Screen "Lobby" is offline', allowed_mentions: { parse: [] } });
    expect(discord.embeds[0].description).toMatch(/Lasted 30 min/);
  });

  it('says durations the way people do', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(30 * 60_000)).toBe('30 min');
    expect(formatDuration(150 * 60_000)).toBe('2 h 30 min');
  });
});
