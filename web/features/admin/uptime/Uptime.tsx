/** Uptime where the console shows it: a screen row's last 24 hours, a stream history's day and week. */
import { formatShare } from '../../../../src/shared/uptime.ts';
import { UptimeBars } from './UptimeBars.tsx';
import { useUptime } from './useUptime.ts';

/** A wall's or kiosk's last 24 hours, fetched again when it goes on- or offline. */
export function ScreenUptime({ id, online }: { id: string; online: boolean }) {
  const { uptime, error } = useUptime({ kind: 'screen', id }, online);
  if (!uptime) return error ? <span className="uptime">Uptime unavailable</span> : null;
  return (
    <span className="uptime" data-testid="screen-uptime">
      <UptimeBars window={uptime.day} state="Online" period="the last 24 hours" />
      <span>{formatShare(uptime.day.share)} · 24 h</span>
    </span>
  );
}

/** A stream's last 24 hours and 7 days live, fetched again with its history (`version`). */
export function StreamUptime({ id, version }: { id: number; version: number }) {
  const { uptime, error } = useUptime({ kind: 'stream', id }, version);
  if (!uptime) return error ? <p className="empty">Uptime unavailable: {error}</p> : null;
  return (
    <section className="uptime-panel" aria-label="Uptime">
      {(
        [
          ['24 hours', uptime.day],
          ['7 days', uptime.week],
        ] as const
      ).map(([name, window]) => (
        <div key={name} className="uptime-panel__row">
          <span>Live, last {name}</span>
          <UptimeBars window={window} state="Live" period={`the last ${name}`} size="wide" />
          <strong>{formatShare(window.share)}</strong>
        </div>
      ))}
    </section>
  );
}
