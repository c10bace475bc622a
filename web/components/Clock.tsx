/** The header clock: 24-hour time, large, with the long date under it. */
import './components.css';
import { useAtomValue } from 'jotai';
import { nowAtom } from '../lib/now.ts';
import { store } from '../lib/store.ts';
import { formatClock, formatLocalTime, formatLongDate } from '../lib/time.ts';

export function Clock({ className = '' }: { className?: string }) {
  const now = useAtomValue(nowAtom, { store });
  return (
    <div className={`clock ${className}`}>
      <time className="clock__time" dateTime={now.toISOString()}>
        {formatClock(now)}
      </time>
      <span className="clock__date">{formatLongDate(now)}</span>
    </div>
  );
}

/** "14:05 LOCAL": the time where the camera is; nothing when the stream has no time zone. */
export function LocalTime({ timeZone }: { timeZone: string | null }) {
  const now = useAtomValue(nowAtom, { store });
  const text = formatLocalTime(now, timeZone);
  if (!text) return null;
  return (
    <span className="local-time" title={timeZone ?? undefined}>
      <span className="local-time__value">{text}</span> <span className="local-time__label">LOCAL</span>
    </span>
  );
}
