/**
 * How a screen folds what the hub sends into what it shows. Pure, so the browser store and the
 * tests use the same rule: a message is applied only when its version is higher than the
 * version on screen — a late or repeated push never rolls a screen back.
 */
import type { KioskState, Registration, SceneStatePayload, ScreenState, WallState } from './events.ts';

export type ScreenMessage =
  | { type: 'state'; state: ScreenState }
  | { type: 'scene'; payload: SceneStatePayload }
  | { type: 'scene-deleted'; payload: { version: number; at?: number; scene_id: number } }
  | { type: 'kiosk'; state: KioskState };

/** What the screen registered as: the frame every message is read in. */
export interface ScreenTarget {
  kind: ScreenState['kind'];
  follows: string | null;
  position?: number;
}

/** The frame a registration sets: what kind of screen, following what, at which position. */
export function screenTargetOf(registration: Registration): ScreenTarget {
  return {
    kind: registration.kind,
    follows: 'sceneSlug' in registration ? (registration.sceneSlug ?? null) : null,
    ...(registration.kind === 'kiosk' ? { position: registration.position } : {}),
  };
}

export function versionOf(message: ScreenMessage): number {
  return message.type === 'state' || message.type === 'kiosk' ? message.state.version : message.payload.version;
}

/** The new screen state, or `current` itself when the message is stale or not for this screen. */
export function applyScreenMessage(current: ScreenState | null, message: ScreenMessage, target: ScreenTarget): ScreenState | null {
  if (current && versionOf(message) <= current.version) return current;
  switch (message.type) {
    case 'state':
      return message.state.kind === target.kind ? message.state : current;
    case 'kiosk':
      return target.kind === 'kiosk' && message.state.position === target.position ? message.state : current;
    case 'scene': {
      if (target.kind !== 'wall') return current;
      const next: WallState = {
        kind: 'wall',
        version: message.payload.version,
        follows: target.follows,
        scene: message.payload.scene,
        streams: message.payload.streams,
        problem: null,
        // A scene edit during a takeover keeps the takeover's line (the takeover's end brings a state without it).
        ...(current?.kind === 'wall' && current.banner ? { banner: current.banner } : {}),
      };
      return next;
    }
    case 'scene-deleted': {
      if (target.kind !== 'wall') return current;
      if (current?.kind === 'wall' && current.scene && current.scene.id !== message.payload.scene_id) return current;
      return { kind: 'wall', version: message.payload.version, follows: target.follows, scene: null, streams: [], problem: 'scene-not-found' };
    }
  }
}
