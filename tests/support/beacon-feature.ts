/**
 * A feature that exists only in the tests, to prove the hub takes new pushes without being
 * edited: a module of its own (one declaration) with its own change type, event and pushes.
 * Nothing under src/realtime/ knows it.
 */
import { changesOf } from '../../src/domain/changes.ts';
import { MODULES } from '../../src/modules/index.ts';
import { defineModule } from '../../src/modules/module.ts';
import { push, type FeaturePushes } from '../../src/realtime/pushes.ts';
import { KIND_ROOMS } from '../../src/realtime/rooms.ts';

declare module '../../src/domain/changes.ts' {
  interface ChangeTypes {
    'beacon.lit': { type: 'beacon.lit'; label: string };
  }
}

declare module '../../src/shared/events.ts' {
  interface ServerToClientEvents {
    'beacon:lit': (payload: { version: number; label: string }) => void;
  }
}

export const beaconPushes: FeaturePushes = {
  name: 'beacon',
  rooms: [KIND_ROOMS.admin],
  async pushes(changes, { version }) {
    return changesOf(changes, 'beacon.lit').map((c) => push([KIND_ROOMS.admin], 'beacon:lit', { version, label: c.label }));
  },
};

/** The app's modules and the beacon: one line added to the list. */
export const withBeacon = [...MODULES, defineModule({ name: 'beacon', pushes: () => beaconPushes })];
