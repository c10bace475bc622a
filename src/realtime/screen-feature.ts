/**
 * What walls and kiosks show is a feature's business, not the hub's: the hub hands a
 * `ScreenFeature` (the programme module's) every wall and kiosk registration and every change
 * notice, and carries what it answers. The feature decides what each screen follows, joins its
 * socket to the rooms of it, and pushes state to those rooms; the hub knows none of that.
 */
import type { DomainChange } from '../domain/changes.ts';
import type { Registration, ScreenState } from '../shared/events.ts';
import type { HubServer, HubSocket } from './io-server.ts';
import type { ChangeNotice, Shows } from './notice.ts';

export type { ChangeNotice, Shows } from './notice.ts';

/** A wall's or kiosk's registration (consoles and raters follow nothing). */
export type ScreenRegistration = Extract<Registration, { kind: 'wall' | 'kiosk' }>;

/** What the hub lends the screen feature: its server (rooms, emits) and presence. */
export interface HubLink {
  io: HubServer;
  /** The highest version this node has applied: states are labelled with it. */
  appliedVersion(): number;
  /**
   * Said right before the feature pushes a notice's states (in the same tick): from then on a
   * registration here is labelled with that version. Said later, a screen that joins its room
   * just after the push was emitted would be answered the new state under the old version — a
   * change it would seem to have missed.
   */
  pushing(version: number): void;
  /** Tells presence what a screen shows now; `announce: false` keeps it for the next presence push. */
  shown(socket: HubSocket, shows: Partial<Shows>, announce?: boolean): void;
}

export interface ScreenFeature {
  /** Joins `socket` to the rooms of what it shows and answers its state (presence is told what it shows). */
  register(socket: HubSocket, registration: ScreenRegistration): Promise<ScreenState>;
  /** The state a screen registering this way would be answered, without a socket (a screen page's HTML). */
  stateFor(registration: ScreenRegistration): Promise<ScreenState>;
  /** On the node that committed, once: what every node needs for the screens (JSON, sent with the notice). */
  origin(changes: readonly DomainChange[]): Promise<unknown>;
  /** On every node, before the other features: pushes the walls and kiosks here what the changes mean for them. */
  apply(notice: ChangeNotice): Promise<void>;
  /** Pushes every wall and kiosk here its current state, under `version` (after an outage). */
  resync(version: number): Promise<void>;
}

/** Made when the hub attaches, with what the hub lends it. */
export type ScreenFeatureFactory = (link: HubLink) => ScreenFeature;
