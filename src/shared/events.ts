/**
 * The Socket.IO contract between the scene controller and every screen, declared once:
 * `new Server<ClientToServerEvents, ServerToClientEvents>` on the server and
 * `io() as Socket<ServerToClientEvents, ClientToServerEvents>` in the browser.
 *
 * Screen state travels with a `version` from one cluster-wide counter: a screen applies a
 * push only when its version is higher than what it shows, so a late or repeated push never
 * rolls it back, and the snapshot sent on every (re)connect goes through the same check.
 */
import { z } from 'zod';
import type { SceneDto, SceneStreamDto, StreamDto } from './api/index.ts';
import type { ScreenCommandName, ScreenPresence } from './api/screens.ts';
import { line, name } from './api/text.ts';
import type { SubmissionDto } from './api/submissions.ts';
import type { DiscoveryProgressDto, DiscoverySourceDto } from './api/discovery.ts';
import type { QualityProgressDto, QualityQueueDto } from './api/quality.ts';
import type { ProgrammeDto } from './api/programme.ts';
import type { AlertsOverviewDto } from './api/alerts.ts';
import { LIMITS, MAX_SCENE_STREAMS } from './constants.ts';
import { CREDENTIAL_PATTERN } from './pairing.ts';
export type { OfflineStart } from './offline.ts';
export type { PlaysAnswer } from './api/plays.ts';
import type { Ack } from './ack.ts';
import type { ReportEvents } from './reports.ts';
export type { Ack } from './ack.ts';

// Who connects, how its players do, and a screen as admins see it belong to the REST contract
// too (GET /api/screens): declared there, once, as zod schemas.
export type { ClockReport, FlipReport, HealthReport, PlaybackState, ScreenCommandName, ScreenKind, ScreenPresence } from './api/screens.ts';

/** A browser's own lasting id (kept in localStorage): a screen stays one screen across reconnects. */
const device = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Expected 8-64 letters, digits, - or _').optional();

const GroupSlug = line({ max: 80, min: 1 });
/** What an approved screen keeps and sends with every registration (src/shared/pairing.ts). */
const Credential = z.string().regex(CREDENTIAL_PATTERN, 'Expected a screen credential (43 letters, digits, - or _)').optional();
/** A screen's own label (`?name=` in its address); blank: none. */
const ScreenName = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), name({ max: 80 }).optional());
/** A scene slug or id to follow. */
const SceneRefText = line({ max: LIMITS.sceneName * 2, min: 1, trim: false });

/** What a screen says about itself when it connects (and again after every reconnect). */
export const Registration = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('wall'),
    device,
    name: ScreenName,
    /** A scene slug or id to follow; absent: what the server's rules decide (src/shared/schedules/precedence.ts). */
    sceneSlug: SceneRefText.optional(),
    /** A screen group's slug to join (`?group=<slug>` in the screen's address, set once at install). */
    group: GroupSlug.optional(),
    credential: Credential,
  }),
  z.object({
    kind: z.literal('kiosk'),
    device,
    name: ScreenName,
    sceneSlug: SceneRefText.optional(),
    group: GroupSlug.optional(),
    credential: Credential,
    position: z.number().int().min(1).max(MAX_SCENE_STREAMS),
  }),
  z.object({ kind: z.literal('admin'), device, name: ScreenName }),
  z.object({ kind: z.literal('rater'), device, name: ScreenName }),
]);
export type Registration = z.infer<typeof Registration>;

/** A clock question carries nothing: the answer is the server's time when it was read. */
export const ClockQuestion = z.strictObject({});

/** Why a screen has nothing to show. */
export type ScreenProblem = 'no-default-scene' | 'scene-not-found' | 'no-stream-at-position';

/** Everything a wall needs to render. */
export interface WallState {
  kind: 'wall';
  version: number;
  /** Pushed changes only: the server time (ms since the epoch) at which every screen shows it. */
  at?: number;
  /** The slug or id it follows, or null when it follows the default scene. */
  follows: string | null;
  scene: SceneDto | null;
  streams: SceneStreamDto[];
  problem: ScreenProblem | null;
  /** A takeover's short line, shown over the scene while the takeover lasts. */
  banner?: string;
}

/** Everything a kiosk tablet needs to render: its one stream. */
export interface KioskState {
  kind: 'kiosk';
  version: number;
  /** Pushed changes only: the server time (ms since the epoch) at which every screen shows it. */
  at?: number;
  follows: string | null;
  position: number;
  scene: SceneDto | null;
  stream: SceneStreamDto | null;
  problem: ScreenProblem | null;
  /** A takeover's short line, shown over the scene while the takeover lasts. */
  banner?: string;
}

/** Admins and raters get no screen state on connect, only the current version. */
export interface ConsoleState {
  kind: 'admin' | 'rater';
  version: number;
}

export type ScreenState = WallState | KioskState | ConsoleState;

/**
 * A browser whose credential waits for approval (src/shared/pairing.ts): it shows its code and
 * nothing else until the `screen:enrolment` push says it was approved.
 */
export interface PairingState {
  kind: 'pairing';
  version: number;
  code: string;
  expires_at: string;
}

/**
 * The answer to `screen:register`: the state, and the id of the web build the server serves
 * (dist/web/build.json; absent when it serves none). A screen whose own page is another build
 * reloads itself at its next flip; an admin console offers to (web/lib/new-version.ts).
 */
export type RegistrationAnswer = (ScreenState | PairingState) & {
  build?: string;
  /** A screen known before approval shipped gets its credential here once: it keeps it and sends it from then on. */
  credential?: string;
  /** Approval is on and this browser holds no credential: a public viewer (an address that asks to be a screen pairs). */
  viewer?: true;
  /** What the screen was approved as, when it registered with a credential: its page follows it. */
  enrolled?: { id: number; name: string; kind: 'wall' | 'kiosk'; position: number | null };
};

export interface SceneStatePayload {
  version: number;
  /**
   * The server time (ms since the epoch) at which every screen shows this: the commit plus the
   * flip lead (SCENE_FLIP_LEAD_MS). A screen that learns of it later shows it at once.
   */
  at?: number;
  scene: SceneDto;
  streams: SceneStreamDto[];
}

export interface ServerToClientEvents {
  /** The full state for this screen's registration (also the answer to screen:register). */
  'screen:state': (state: ScreenState) => void;
  /** The default scene switched: walls following the default show this scene now. */
  'scene:default-changed': (payload: SceneStatePayload) => void;
  /** A scene a wall shows changed (its fields, slots, or the streams it resolves to). */
  'scene:updated': (payload: SceneStatePayload) => void;
  /** A scene a wall shows was deleted (deactivated). */
  'scene:deleted': (payload: { version: number; at?: number; scene_id: number }) => void;
  /** A kiosk's stream at its position changed. */
  'kiosk:stream': (state: KioskState) => void;
  /** For admin consoles: the stream pool changed. */
  'stream:created': (payload: { version: number; stream: StreamDto }) => void;
  'stream:updated': (payload: { version: number; stream: StreamDto }) => void;
  'stream:deleted': (payload: { version: number; stream_id: number }) => void;
  /** For admin consoles: the list of connected screens. */
  'screens:updated': (screens: ScreenPresence[]) => void;
  /** For admin consoles: admin writes were journaled (the activity list refreshes). */
  'activity:recorded': (payload: { version: number; count: number }) => void;
  /** For admin consoles: a visitor submitted a stream / an admin reviewed one; `pending` is the queue's size. */
  'submission:created': (payload: { version: number; submission: SubmissionDto; pending: number }) => void;
  'submission:reviewed': (payload: { version: number; submission: SubmissionDto; pending: number }) => void;
  /** Many submissions were reviewed at once (a filtered rejection); the lists reload. */
  'submissions:bulk-reviewed': (payload: { version: number; count: number; pending: number }) => void;
  /** For admin consoles: this account's role or state changed (ask GET /api/auth/me again). */
  'account:changed': (payload: Record<string, never>) => void;
  /**
   * This browser's enrolment changed: approved (it registers again with the credential it holds),
   * renamed or moved (it registers again), revoked (its credential no longer works).
   */
  'screen:enrolment': (payload: { state: 'approved' | 'changed' | 'revoked' }) => void;
  /** For admin consoles: a browser asked to be a screen, or one was approved, renamed, moved or revoked (the lists reload). */
  'enrolment:updated': (payload: { version: number }) => void;
  /** An admin's command to this screen: reload the page, or show its name for a few seconds. */
  'screen:command': (payload: { command: ScreenCommandName }) => void;
  /**
   * This node is shutting down (a deploy, a restart): move within `reconnectWithinMs`, at a
   * random moment of that window so screens do not all land on one node at once — a screen
   * connects anew (to the node named `to`, when given) before it lets go of this one. The node
   * refuses new connections meanwhile; a load balancer sends the new one to another node.
   */
  'server:draining': (payload: { reconnectWithinMs: number; to?: string }) => void;
  /**
   * This node holds more than its share of the cluster's screens: move within `withinMs`, at a
   * random moment of it, the way a draining node's screens do (to the node named `to`).
   */
  'server:move': (payload: { withinMs: number; to?: string }) => void;
  /** For admin consoles: a discovery job started, found more streams, or ended. */
  'discovery:progress': (payload: DiscoveryProgressDto) => void;
  /** For admin consoles: discovery sources were created, edited or deleted (the whole list, it is short). */
  'discovery:sources': (payload: { version: number; sources: DiscoverySourceDto[] }) => void;
  /** For admin consoles: screen groups, placements, schedules or the takeover changed (the whole programme). */
  'programme:updated': (payload: { version: number } & ProgrammeDto) => void;
  /** For admin consoles: alert rules, destinations, incidents or deliveries changed (the whole overview, it is short). */
  'alerts:updated': (payload: { version: number } & AlertsOverviewDto) => void;
  /** For admin consoles: an analysis started or ended, an "analyze all" moved on (done/total, failures). */
  'quality:progress': (payload: QualityProgressDto) => void;
  /** The analysis queue changed (admins; at most about once a second per node). */
  'quality:queue': (payload: QualityQueueDto) => void;
  /** Reserved for the evaluation feature. */
  'evaluation:queue': (payload: { pending: number; completedToday: number }) => void;
}

/**
 * What a client says: the hub's own two — register, and ask the server's time — and every report
 * the features declare (src/shared/reports.ts: `screen:health`, `screen:plays`, …).
 */
export interface CoreClientEvents {
  'screen:register': (registration: Registration, ack: (result: Ack<RegistrationAnswer>) => void) => void;
  /** One sample of the screen's clock estimate: the server's time (ms since the epoch, fractional) when it answered. */
  'clock:sync': (question: Record<string, never>, ack: (result: Ack<{ now: number }>) => void) => void;
}

export type ClientToServerEvents = CoreClientEvents & ReportEvents;

export { MOVED_QUERY, SOCKET_OPTIONS, TO_NODE_QUERY } from './socket-options.ts';
