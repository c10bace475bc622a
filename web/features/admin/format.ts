/** Dates and times as the console shows them: short, local, and "x ago" for recent ones. */
import { DROPPED_FRAMES_WARN, droppedShare, FLIP_LATE_MS, type DroppedFramesReport } from '../../../src/shared/api/screens.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** `seconds`: to the second, where two times a few seconds apart must read differently. */
export function formatDateTime(iso: string, seconds = false): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : (seconds ? dateTimeSeconds : dateTime).format(date);
}

export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatDateTime(iso);
}

/**
 * A screen's last flip as its row says it: how long its frame took to render, and how late it
 * was shown; `late` when later than FLIP_LATE_MS (the row marks it).
 */
export function flipText(flip: { render_ms: number; late_ms: number | null }): { text: string; late: boolean } {
  const late = flip.late_ms !== null && flip.late_ms > FLIP_LATE_MS;
  const when = flip.late_ms === null ? '' : Math.abs(flip.late_ms) <= FLIP_LATE_MS ? ' · shown on time' : flip.late_ms > 0 ? ` · shown ${flip.late_ms} ms late` : ` · shown ${-flip.late_ms} ms early`;
  return { text: `Last flip rendered in ${flip.render_ms} ms${when}`, late };
}

/** A share as people read it: 0.4 %, 3 %, 12 %. */
const percent = (share: number) => `${share < 0.1 ? (share * 100).toFixed(1).replace(/\.0$/, '') : Math.round(share * 100)} %`;

/**
 * What a screen's video players dropped, as its row says it: the share of their frames over the
 * last report's window; `struggling` past DROPPED_FRAMES_WARN (its machine does not keep up with
 * its tiles: the row marks it). Per stream, the share of each that dropped any.
 */
export function droppedFramesText(report: DroppedFramesReport): { text: string; struggling: boolean; byStream: Map<number, string> } {
  const share = droppedShare(report);
  const seconds = Math.round(report.window_ms / 1000);
  const byStream = new Map(report.streams.filter((s) => s.dropped > 0).map((s) => [s.stream_id, `${percent(s.dropped / s.frames)} of frames dropped`]));
  return { text: `Video ${share === 0 ? 'dropped no frames' : `dropped ${percent(share)} of frames`} in the last ${seconds} s`, struggling: share > DROPPED_FRAMES_WARN, byStream };
}

/**
 * A screen's clock as its row says it: how far the screen's own clock is from the server's (it
 * flips on the server's, so this is for the technician who wonders why its page shows another
 * time), and how closely it flips in step — the bound of its estimate.
 */
export function clockText(clock: { offset_ms: number; error_ms: number }): string {
  const off = Math.abs(clock.offset_ms);
  const amount = off >= 1000 ? `${(off / 1000).toFixed(1)} s` : `${Math.round(off)} ms`;
  // offset = server − screen: a positive offset is a screen behind the server.
  const own = off < 5 ? 'Own clock right' : `Own clock ${amount} ${clock.offset_ms > 0 ? 'behind' : 'ahead'}`;
  const bound = clock.error_ms < 10 ? clock.error_ms.toFixed(1) : String(Math.round(clock.error_ms));
  return `${own} · in step to ±${bound} ms`;
}

/** Seconds on screen as people read them: 3 h 05 min, 12 min 40 s, 38 s. */
export function durationText(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** A size in the unit a person reads. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
