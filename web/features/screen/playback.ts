/**
 * How this screen's players are doing, per stream: every Player writes its state here, and the
 * screen connection reports the summary to the hub (presence for admins). Several players may
 * show one stream (a tile and its fullscreen view): the best state of them is reported.
 */
import { atom } from 'jotai';
import type { HealthReport, PlaybackState } from '../../../src/shared/events.ts';
import { MAX_SCENE_STREAMS } from '../../../src/shared/constants.ts';

interface PlayerEntry {
  streamId: number;
  state: PlaybackState;
}

const RANK: Record<PlaybackState, number> = { playing: 3, loading: 2, stalled: 1, error: 0 };

const playersAtom = atom<ReadonlyMap<string, PlayerEntry>>(new Map());

/** One player's state (keyed by a per-player id). */
export const setPlaybackAtom = atom(null, (get, set, update: { playerId: string; streamId: number; state: PlaybackState }) => {
  const current = get(playersAtom).get(update.playerId);
  if (current && current.state === update.state && current.streamId === update.streamId) return;
  const next = new Map(get(playersAtom));
  next.set(update.playerId, { streamId: update.streamId, state: update.state });
  set(playersAtom, next);
});

/** A player went away. */
export const dropPlaybackAtom = atom(null, (get, set, playerId: string) => {
  if (!get(playersAtom).has(playerId)) return;
  const next = new Map(get(playersAtom));
  next.delete(playerId);
  set(playersAtom, next);
});

/** The summary the hub gets: one entry per stream, best state first wins, ordered by id. */
export function summarizePlayback(players: Iterable<PlayerEntry>): HealthReport {
  const best = new Map<number, PlaybackState>();
  for (const { streamId, state } of players) {
    const seen = best.get(streamId);
    if (seen === undefined || RANK[state] > RANK[seen]) best.set(streamId, state);
  }
  const streams = [...best.entries()]
    .sort(([a], [b]) => a - b)
    .slice(0, MAX_SCENE_STREAMS * 2)
    .map(([stream_id, state]) => ({ stream_id, state }));
  return { streams };
}

export const healthReportAtom = atom((get) => summarizePlayback(get(playersAtom).values()));

