/**
 * Uptime as a strip of thin bars, one per hour, oldest on the left: green for an hour fully up,
 * amber (shorter, by its share) for an hour partly up, red for an hour down, grey and low where
 * nothing is known yet. One image for assistive technology, named by the window's share; each
 * bar's tooltip gives its hour and share.
 */
import type { UptimeWindowDto } from '../../../../src/shared/api/index.ts';
import { formatShare, HOUR_MS } from '../../../../src/shared/uptime.ts';
import './uptime.css';

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayTime = new Intl.DateTimeFormat('en-GB', { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export type UptimeTone = 'up' | 'partial' | 'down' | 'unknown';

export function toneOf(share: number | null): UptimeTone {
  if (share === null) return 'unknown';
  if (share >= 1) return 'up';
  return share <= 0 ? 'down' : 'partial';
}

/** "Online 97.3 % of the last 24 hours". */
export function uptimeLabel(state: string, share: number | null, period: string): string {
  return share === null ? `${state}: nothing known yet for ${period}` : `${state} ${formatShare(share)} of ${period}`;
}

export function UptimeBars({ window, state, period, size = 'compact' }: {
  window: UptimeWindowDto;
  /** What "up" is called: Online (a screen), Live (a stream). */
  state: string;
  /** "the last 24 hours". */
  period: string;
  /** compact: a row's strip; wide: the width of its container. */
  size?: 'compact' | 'wide';
}) {
  const from = Date.parse(window.from);
  // Over more than a day, an hour needs its day too.
  const format = window.hours.length > 24 ? dayTime : time;
  return (
    <span className={`uptime-bars uptime-bars--${size}`} role="img" aria-label={uptimeLabel(state, window.share, period)}>
      {window.hours.map((share, i) => {
        const start = new Date(from + i * HOUR_MS);
        const end = new Date(from + (i + 1) * HOUR_MS);
        const tone = toneOf(share);
        return (
          <span
            key={i}
            className={`uptime-bar uptime-bar--${tone}`}
            style={tone === 'partial' ? { height: `${Math.round(35 + 65 * share!)}%` } : undefined}
            title={`${format.format(start)}–${time.format(end)}: ${share === null ? 'no data' : `${state.toLowerCase()} ${formatShare(share)}`}`}
          />
        );
      })}
    </span>
  );
}
