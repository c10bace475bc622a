/** A stream's health (unknown, live, degraded, offline), as the self-healing walls see it. */
import type { HealthState } from '../../../../src/shared/quality/health.ts';

const LABELS: Record<HealthState, string> = { unknown: 'Unchecked', live: 'Healthy', degraded: 'Degraded', offline: 'Offline' };
const HINTS: Record<HealthState, string> = {
  unknown: 'Not checked yet',
  live: 'Answering, with a good picture',
  degraded: 'Answering, but black, frozen or not live',
  offline: 'Not answering: walls show another camera (or its fallback address) until it is back',
};

/** The console's existing status-dot colours: green, amber, red, grey. */
const DOTS: Record<HealthState, string> = { unknown: '', live: ' status-dot--live', degraded: ' status-dot--stalled', offline: ' status-dot--offline' };

export function HealthBadge({ health }: { health: HealthState }) {
  return (
    <span className={`status-dot${DOTS[health]}`} title={HINTS[health]}>
      {LABELS[health]}
    </span>
  );
}
