/**
 * What each wall and kiosk was told to show, from which instant (issue 41): screen-states.ts
 * tells this feed whenever it hands a screen a state — at its registration, and with every push
 * that changes what it shows, at the push's flip instant — and whoever listens keeps it (proof of
 * play keeps each screen's history and counts only what was assigned). Only screens with a
 * device id are told about (a public viewer has none); a push that leaves a screen's streams as
 * they were (a renamed scene, a takeover's line) tells nothing.
 */
import { MAX_SCENE_STREAMS } from '../../shared/constants.ts';
import type { ResolvedScene } from '../scenes/scene-directory.ts';
import type { Target } from './screen-rooms.ts';
import type { RouteFacts } from './screen-router.ts';

/** What the feed reads and keeps on a screen's socket data (screen-states.ts `ScreenSocket`). */
export interface ToldScreen {
  facts: Pick<RouteFacts, 'kind' | 'device'>;
  /** The streams it was last told (a push that keeps them tells nothing). */
  told?: string;
}

/** One screen told to show `streams` (ids by position: `streams[position - 1]`) from `at` (server time, ms). */
export interface ToldAssignment {
  kind: 'wall' | 'kiosk';
  device: string;
  /** A kiosk's position; null for a wall. */
  position: number | null;
  at: number;
  sceneId: number | null;
  streams: (number | null)[];
}

export type AssignmentListener = (told: ToldAssignment) => void;

export interface AssignmentFeed {
  /** Hears every assignment this node makes from now on (must not throw, must not wait). */
  listen(listener: AssignmentListener): void;
  /** A screen here (its socket's data) was handed what `target` resolves to, to show from `at`. */
  told(screen: ToldScreen | undefined, target: Target, resolved: ResolvedScene | null, at: number): void;
}

/** What a screen following `target` shows of `resolved`, by position (a kiosk: its own position only). */
export function streamsShown(target: Target, resolved: ResolvedScene | null): (number | null)[] {
  const streams: (number | null)[] = new Array<number | null>(MAX_SCENE_STREAMS).fill(null);
  for (const s of resolved?.streams ?? []) {
    if (target.kind === 'kiosk' && s.position !== target.position) continue;
    if (s.position >= 1 && s.position <= MAX_SCENE_STREAMS) streams[s.position - 1] = s.id;
  }
  return streams;
}

export function createAssignmentFeed(): AssignmentFeed {
  const listeners: AssignmentListener[] = [];
  /** The last resolution read: a push tells every screen of a room the same, worked out once. */
  let last: { resolved: ResolvedScene | null; position: number | null; streams: (number | null)[]; key: string } | undefined;
  return {
    listen: (listener) => void listeners.push(listener),
    told(data, target, resolved, at) {
      if (!data?.facts.device || listeners.length === 0) return;
      const position = target.kind === 'kiosk' ? target.position : null;
      if (!last || last.resolved !== resolved || last.position !== position) {
        const shown = streamsShown(target, resolved);
        last = { resolved, position, streams: shown, key: shown.join(',') };
      }
      const { streams, key } = last;
      if (data.told === key) return;
      data.told = key;
      const told: ToldAssignment = {
        kind: data.facts.kind,
        device: data.facts.device,
        position,
        at,
        sceneId: resolved?.scene.id ?? null,
        streams,
      };
      for (const listener of listeners) listener(told);
    },
  };
}
