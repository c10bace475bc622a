/** Connected screens as admins see them, and what admins can tell them to do. */
import { z } from 'zod';
import { Id, IsoDate, SuccessDto } from './common.ts';
import { MAX_SCENE_STREAMS } from '../constants.ts';
import type { Noted } from '../reports.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { SHOWN_RULES } from '../schedules/rules.ts';
import { UptimeDto, UptimeShare } from './uptime.ts';
import { OFFLINE_START_STATES } from '../offline.ts';
import { ApproveRequest, EnrolledDto, EnrolledUpdate, EnrolmentSettingDto, PairingAnswer, PairingDto, PairingRequest } from './enrolment.ts';

/** Reload: the page loads afresh. Identify: the screen shows its own name in large type for a few seconds. */
const SCREEN_COMMANDS = ['reload', 'identify'] as const;
export type ScreenCommandName = (typeof SCREEN_COMMANDS)[number];

/** Who connects to the hub (src/shared/events.ts re-exports these for the socket contract). */
export const SCREEN_KINDS = ['wall', 'kiosk', 'admin', 'rater'] as const;
export type ScreenKind = (typeof SCREEN_KINDS)[number];

/** How a screen's player is doing, as the screen reports it. */
export const PLAYBACK_STATES = ['loading', 'playing', 'stalled', 'error'] as const;
export type PlaybackState = (typeof PLAYBACK_STATES)[number];

/** A flip presented later than this (one 60 Hz frame) is a late flip: the Screens tab says so. */
export const FLIP_LATE_MS = 17;

/** A screen's last flip as it reports it: its frame's rendering, and how late that was on the server's clock. */
export const FlipReport = z.strictObject({
  render_ms: z.number().min(0).max(600_000).describe('The flip frame, from its begin to the end of its rendering (ms)'),
  late_ms: z.number().min(-600_000).max(600_000).nullable().describe("How late the rendered frame was against the change's instant, on the server's clock (ms; null: no clock estimate yet)"),
});
export type FlipReport = z.output<typeof FlipReport>;

/**
 * How far a screen's own wall clock (`Date`) is from the server's, by its clock estimate
 * (src/shared/clock.ts), and the bound of that estimate: shown to admins, never used by the server.
 */
export const ClockReport = z.strictObject({
  offset_ms: z.number().min(-366 * 86_400_000).max(366 * 86_400_000),
  error_ms: z.number().min(0).max(3_600_000),
});
export type ClockReport = z.output<typeof ClockReport>;

/**
 * How a screen's players are doing, per stream. Not strict: a screen of the build before reports
 * were declared one by one sends its clock, flip and offline start in it too (a rolling upgrade),
 * and those are dropped, not refused.
 */
export const HealthReport = z.object({
  streams: z
    .array(z.object({ stream_id: Id, state: z.enum(PLAYBACK_STATES) }))
    .max(MAX_SCENE_STREAMS * 2),
});
export type HealthReport = z.output<typeof HealthReport>;

/** Whether a screen could start without its server (a service worker controls it; src/shared/offline.ts). */
export const OfflineStartReport = z.strictObject({ state: z.enum(OFFLINE_START_STATES) });
export type OfflineStartReport = z.output<typeof OfflineStartReport>;

/** Frames a screen's video players presented and dropped, per stream, over the window since its last report. */
export const DroppedFramesReport = z.strictObject({
  window_ms: z.number().int().min(0).max(3_600_000).describe('How long the counts cover (ms): since the previous report'),
  streams: z
    .array(
      z
        .strictObject({
          stream_id: Id,
          frames: z.number().int().min(0).max(100_000_000).describe('Frames its players decoded in the window'),
          dropped: z.number().int().min(0).max(100_000_000).describe('Of those, frames dropped instead of shown (the decoder or the page could not keep up)'),
        })
        .refine((s) => s.dropped <= s.frames, 'dropped cannot exceed frames'),
    )
    .max(MAX_SCENE_STREAMS * 2),
})
  // At most a frame a millisecond a stream (four players of one stream at 240 fps): a report that says more counts nothing real.
  .refine((r) => r.streams.every((s) => s.frames <= r.window_ms + 1_000), 'more frames than the window can hold');
export type DroppedFramesReport = z.output<typeof DroppedFramesReport>;

/** A screen whose players dropped more than this share of their frames does not keep up with its tiles: the Screens tab marks it. */
export const DROPPED_FRAMES_WARN = 0.05;

/** The share of the frames a report's players decoded that they dropped (0 when none were decoded). */
export function droppedShare(report: Pick<DroppedFramesReport, 'streams'>): number {
  const frames = report.streams.reduce((sum, s) => sum + s.frames, 0);
  return frames === 0 ? 0 : report.streams.reduce((sum, s) => sum + s.dropped, 0) / frames;
}

/**
 * What walls and kiosks report of themselves, kept by the screens module and shown to admins
 * with each screen (`ScreenPresence` below): how their players do (`health`, also their
 * heartbeat), their clock, their last flip, whether they could start without their server, and
 * the frames their video players dropped.
 */
declare module '../reports.ts' {
  interface ScreenReports {
    health: { report: HealthReport; answer: Noted };
    clock: { report: ClockReport; answer: Noted };
    flip: { report: FlipReport; answer: Noted };
    offline_start: { report: OfflineStartReport; answer: Noted };
    dropped_frames: { report: DroppedFramesReport; answer: Noted };
  }
}

/** POST /api/screens/command: one screen (its connection id) or, without `id`, every wall and kiosk. */
export const ScreenCommandRequest = z.object({
  command: z.enum(SCREEN_COMMANDS),
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Expected a screen\'s connection id').optional(),
});
export type ScreenCommandRequest = z.infer<typeof ScreenCommandRequest>;

export const ScreenListQuery = z.object({
  /** Also list screens seen in the last 24 hours that are offline now. */
  include_offline: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
});

/**
 * One screen, as admins see it: connected now, or (listed on request) seen in the last 24 hours.
 * Also the payload of the `screens:updated` push (src/shared/events.ts).
 */
export const ScreenPresence = z.strictObject({
  id: z.string().describe('The connection id (commands go to it); for an offline screen, its last one'),
  device: z.string().nullable().describe('The browser\'s lasting id, when it sent one'),
  online: z.boolean().describe('False for a screen seen earlier that is not connected now; its last_heartbeat is when it was last seen'),
  kind: z.enum(SCREEN_KINDS),
  name: z.string().nullable(),
  enrolled_id: z.number().int().nullable().describe('The approved screen it is (null: approval is off, or a console)'),
  follows: z.string().nullable().describe('The scene slug or id in its address (/scenes/<slug>); null: it follows its rules'),
  scene_id: z.number().int().nullable().describe('The scene it shows now'),
  group_id: z.number().int().nullable().describe('Its screen group (null: none)'),
  rule: z.enum(SHOWN_RULES).nullable().describe('Which rule decided what it shows (walls and kiosks; null for consoles)'),
  position: z.number().int().nullable(),
  connected_at: IsoDate,
  last_heartbeat: IsoDate,
  health: z.record(z.string(), z.enum(PLAYBACK_STATES)).describe('Playback per stream id as last reported by the screen'),
  clock: ClockReport
    .nullable()
    .describe("How far the screen's own clock is from the server's, and the bound of that estimate (null: not reported, or offline)"),
  flip: FlipReport.nullable().describe('Its last flip, as it reported it (null: none since it connected, or offline)'),
  offline_start: z
    .enum(OFFLINE_START_STATES)
    .nullable()
    .describe("Whether it could start without its server: a service worker controls it (ready), one is installing, or it can have none (unavailable: not a secure origin); null: not reported, or offline"),
  dropped_frames: DroppedFramesReport.nullable().describe("Frames its video players decoded and dropped per stream over its last report's window (null: none reported, or offline; embedded players cannot be measured)"),
  node: z.string(),
});
export type ScreenPresence = z.output<typeof ScreenPresence>;

/** GET /api/screens: each screen with the share of the last 24 hours it was online. */
export const ScreenListItem = ScreenPresence.extend({
  uptime_24h: UptimeShare.describe('The share of the last 24 hours it was online (walls and kiosks; null: not recorded, or a console)'),
});
export type ScreenListItem = z.output<typeof ScreenListItem>;

/** A screen in a path: one of its connection ids (its current one, or for an offline screen its last). */
export const ScreenIdParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Expected a screen's connection id (1-64 letters, digits, - or _)"),
});

export const screenEndpoints = {
  list: endpoint({
    ...ROUTES['screen.list'],
    summary: 'Every connected wall, kiosk, admin and rater on every node (X-Partial-Result: a node did not answer in time)',
    access: 'viewer',
    query: ScreenListQuery,
    responses: { 200: z.array(ScreenListItem) },
  }),
  uptime: endpoint({
    ...ROUTES['screen.uptime'],
    summary: 'The share of the last 24 hours and 7 days a wall or kiosk was online, and per hour',
    access: 'viewer',
    params: ScreenIdParams,
    responses: { 200: UptimeDto },
    errors: [404],
  }),
  pair: endpoint({
    ...ROUTES['screen.pair'],
    summary: 'A browser that asks to be a screen gets a pairing code to show (public; bounded per address and in total, 429 beyond)',
    access: 'public',
    body: PairingRequest,
    responses: { 201: PairingAnswer },
    errors: [409, 429],
  }),
  pairings: endpoint({ ...ROUTES['screen.pairings'], summary: 'Screens waiting for approval', access: 'operator', responses: { 200: z.array(PairingDto) } }),
  approve: endpoint({
    ...ROUTES['screen.approve'],
    summary: 'Approve a waiting screen by its code: its name, kind, group and position are the admin\'s decision',
    access: 'operator',
    body: ApproveRequest,
    responses: { 201: EnrolledDto },
    errors: [404, 409, 422],
  }),
  enrolled: endpoint({ ...ROUTES['screen.enrolled'], summary: 'Approved and revoked screens, and whether approval is on', access: 'viewer', responses: { 200: EnrolmentSettingDto } }),
  updateEnrolled: endpoint({
    ...ROUTES['screen.updateEnrolled'],
    summary: 'Rename an approved screen, or move it to another group or position (it shows the change at once)',
    access: 'operator',
    body: EnrolledUpdate,
    responses: { 200: EnrolledDto },
    errors: [404, 409, 422],
  }),
  revoke: endpoint({
    ...ROUTES['screen.revoke'],
    summary: 'Revoke an approved screen: its credential stops working and it shows the pairing screen again',
    access: 'operator',
    body: z.object({ id: Id }),
    responses: { 200: EnrolledDto },
    errors: [404],
  }),
  command: endpoint({
    ...ROUTES['screen.command'],
    summary: 'Reload or identify one screen, or every wall and kiosk',
    access: 'operator',
    body: ScreenCommandRequest,
    responses: { 200: SuccessDto },
  }),
};
