/**
 * What a tile says about its stream, honestly: `LIVE` only for a stream the server holds live
 * (or has not analysed yet); an offline stream still on a wall (nothing could replace it) says
 * `OFFLINE` and since when; a degraded one says what is wrong (`FROZEN`, `BLACK`…).
 */
import type { HealthState } from './health.ts';
import type { QualityFault } from './score.ts';

export interface OnScreenStatus {
  label: string;
  tone: 'live' | 'offline' | 'degraded';
  /** For an offline stream: when it went offline (ISO), to say "for 2 h". */
  since: string | null;
}

/** The most telling fault first: what a visitor would notice. */
const FAULT_LABELS: readonly [QualityFault, string][] = [
  ['black', 'BLACK'],
  ['frozen', 'FROZEN'],
  ['no-video', 'NO VIDEO'],
  ['not-live', 'NOT LIVE'],
  ['low-fps', 'LOW FPS'],
  ['blurry', 'BLURRY'],
  ['low-bitrate', 'LOW BITRATE'],
  ['slow', 'SLOW'],
];

export function onScreenStatus(stream: { health: HealthState; health_faults?: readonly QualityFault[]; health_since?: string | null }): OnScreenStatus {
  if (stream.health === 'offline') return { label: 'OFFLINE', tone: 'offline', since: stream.health_since ?? null };
  if (stream.health === 'degraded') {
    const found = FAULT_LABELS.find(([fault]) => stream.health_faults?.includes(fault));
    return { label: found?.[1] ?? 'DEGRADED', tone: 'degraded', since: null };
  }
  return { label: 'LIVE', tone: 'live', since: null };
}

/** "for 5 min", "for 2 h", "for 3 days": how long an offline stream has been away. */
export function awayFor(since: string | null, now: number): string | null {
  if (!since) return null;
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `for ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `for ${hours} h`;
  return `for ${Math.floor(hours / 24)} days`;
}
