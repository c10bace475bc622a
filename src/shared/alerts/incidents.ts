/**
 * When an alert fires and when it recovers: the life of one incident, as a plain function of
 * what it was, whether its condition holds now, and the rule's two periods.
 *
 * - A condition must hold for `for_seconds` (the grace period) before anyone is told: a blip
 *   shorter than that is forgotten without a message.
 * - Once told, the incident stays open until the condition has been clear for `hold_seconds`:
 *   a condition that comes back within that hold (a flapping screen) keeps the same incident
 *   open instead of firing again. One "fired" and one "recovered" message per incident.
 */

export const ALERT_KINDS = ['screen_offline', 'stream_unhealthy', 'discovery_failed', 'analysis_failures', 'database_unavailable', 'login_failures', 'backup_stale'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Where an incident is in its life (a forgotten blip has no row at all). */
export type IncidentPhase = 'pending' | 'open' | 'clearing' | 'resolved';

export interface IncidentClock {
  phase: IncidentPhase;
  /** When the condition was first seen (epoch ms). */
  startedAt: number;
  /** When the message went out (null while pending). */
  firedAt: number | null;
  /** When the condition last cleared while open (null unless clearing). */
  clearedAt: number | null;
  resolvedAt: number | null;
}

export interface RulePeriods {
  for_seconds: number;
  hold_seconds: number;
}

export type IncidentStep =
  /** Nothing to write. */
  | { kind: 'same' }
  /** A blip that never fired: forget it. */
  | { kind: 'forget' }
  | { kind: 'update'; next: IncidentClock; send: 'fired' | 'recovered' | null };

/**
 * The next state of an incident (null: none yet) given whether its condition holds at `now`;
 * `since` is when a new condition began, when known (a screen's last sighting), else now.
 */
export function stepIncident(current: IncidentClock | null, active: boolean, now: number, rule: RulePeriods, since = now): IncidentStep {
  const graceMs = rule.for_seconds * 1000;
  const holdMs = rule.hold_seconds * 1000;
  if (!current || current.phase === 'resolved') {
    if (!active) return { kind: 'same' };
    const started: IncidentClock = { phase: 'pending', startedAt: Math.min(since, now), firedAt: null, clearedAt: null, resolvedAt: null };
    return graceMs <= 0 || now - started.startedAt >= graceMs ? { kind: 'update', next: { ...started, phase: 'open', firedAt: now }, send: 'fired' } : { kind: 'update', next: started, send: null };
  }
  switch (current.phase) {
    case 'pending':
      if (!active) return { kind: 'forget' };
      if (now - current.startedAt >= graceMs) return { kind: 'update', next: { ...current, phase: 'open', firedAt: now }, send: 'fired' };
      return { kind: 'same' };
    case 'open':
      if (active) return { kind: 'same' };
      if (holdMs <= 0) return { kind: 'update', next: { ...current, phase: 'resolved', clearedAt: now, resolvedAt: now }, send: 'recovered' };
      return { kind: 'update', next: { ...current, phase: 'clearing', clearedAt: now }, send: null };
    case 'clearing':
      // Back within the hold: the same incident, still open, no second message.
      if (active) return { kind: 'update', next: { ...current, phase: 'open', clearedAt: null }, send: null };
      if (now - (current.clearedAt ?? now) >= holdMs) return { kind: 'update', next: { ...current, phase: 'resolved', resolvedAt: now }, send: 'recovered' };
      return { kind: 'same' };
  }
}

/** Whether an incident is shown as open (told, not yet recovered). */
export function isOpen(phase: IncidentPhase): boolean {
  return phase === 'open' || phase === 'clearing';
}

/** The analysis failure rate over a window, or null when too few analyses ran to say. */
export function failureRate(failed: number, total: number, minimum = 5): number | null {
  return total < minimum || total === 0 ? null : failed / total;
}
