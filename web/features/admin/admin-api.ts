/**
 * The admin console's calls, each one an endpoint of the contract called by name (web/lib/api.ts):
 * the path, the input and the answer's type come from the declaration the server mounts. The
 * session cookie travels with every same-origin fetch.
 */
import type { z } from 'zod';
import type { AnalyzeAllDto, AnalyzeDto, LeaderboardEntryDto, RunAllDto, RunOneDto, StreamDto, SubmissionFilter } from '../../../src/shared/api/index.ts';
import type { ActivityKind } from '../../../src/shared/api/activity.ts';
import type { ScreenCommandName } from '../../../src/shared/api/screens.ts';
import type { Endpoints } from '../../../src/shared/api/endpoints.ts';
import { call, narrow as as } from '../../lib/api.ts';
import type { Role } from '../../../src/shared/roles.ts';

type BodyOf<E extends { body: z.ZodType }> = z.input<E['body']>;

/** The fields of the stream form as the API takes them. */
export type StreamInput = BodyOf<Endpoints['stream.create']>;
export type StreamChanges = BodyOf<Endpoints['stream.update']>;

export const adminApi = {
  me: () => call('auth.me'),
  logout: () => call('auth.logout'),

  streams: () => as<StreamDto[]>(call('stream.list')),
  createStream: (input: StreamInput) => call('stream.create', { body: input }),
  updateStream: (input: StreamChanges) => call('stream.update', { body: input }),
  deleteStream: (id: number) => call('stream.remove', { body: { id } }),

  scenes: () => call('scene.list'),
  createScene: (input: BodyOf<Endpoints['scene.create']>) => call('scene.create', { body: input }),
  updateScene: (input: BodyOf<Endpoints['scene.update']>) => call('scene.update', { body: input }),
  deleteScene: (id: number) => call('scene.remove', { body: { id } }),
  defaultScene: () => call('defaultScene.get'),
  setDefaultScene: (sceneId: number) => call('defaultScene.set', { body: { scene_id: sceneId } }),

  screens: () => call('screen.list', { query: { include_offline: 'true' } }),
  plays: (query: z.input<Endpoints['plays.totals']['query']>) => call('plays.totals', { query }),
  backups: () => call('backup.list'),
  backUpNow: () => call('backup.create'),
  screenUptime: (id: string) => call('screen.uptime', { params: { id } }),
  streamUptime: (id: number) => call('stream.uptime', { params: { id } }),

  programme: () => call('programme.read'),
  createGroup: (input: BodyOf<Endpoints['programme.createGroup']>) => call('programme.createGroup', { body: input }),
  updateGroup: (input: BodyOf<Endpoints['programme.updateGroup']>) => call('programme.updateGroup', { body: input }),
  deleteGroup: (id: number) => call('programme.deleteGroup', { body: { id } }),
  placeScreen: (input: BodyOf<Endpoints['programme.assign']>) => call('programme.assign', { body: input }),
  createSchedule: (input: BodyOf<Endpoints['programme.createSchedule']>) => call('programme.createSchedule', { body: input }),
  updateSchedule: (input: BodyOf<Endpoints['programme.updateSchedule']>) => call('programme.updateSchedule', { body: input }),
  deleteSchedule: (id: number) => call('programme.deleteSchedule', { body: { id } }),
  startTakeover: (input: BodyOf<Endpoints['programme.startTakeover']>) => call('programme.startTakeover', { body: input }),
  releaseTakeover: () => call('programme.releaseTakeover'),
  pairings: () => call('screen.pairings'),
  enrolled: () => call('screen.enrolled'),
  approveScreen: (input: BodyOf<Endpoints['screen.approve']>) => call('screen.approve', { body: input }),
  updateEnrolled: (input: BodyOf<Endpoints['screen.updateEnrolled']>) => call('screen.updateEnrolled', { body: input }),
  revokeScreen: (id: number) => call('screen.revoke', { body: { id } }),
  commandScreens: (command: ScreenCommandName, id?: string) => call('screen.command', { body: { command, ...(id ? { id } : {}) } }),

  submissions: (query: { status: 'pending' | 'approved' | 'rejected'; cursor?: number | null } & SubmissionFilter) =>
    call('submission.list', { query: { ...query, limit: 50, cursor: query.cursor ?? undefined } }),
  pendingCount: () => call('submission.count'),
  approveSubmission: (input: BodyOf<Endpoints['submission.approve']>) => call('submission.approve', { body: input }),
  rejectSubmission: (id: number, note: string) => call('submission.reject', { body: { id, note } }),
  rejectMatching: (filter: SubmissionFilter, note: string) => call('submission.rejectMatching', { body: { filter, note } }),

  team: () => call('team.list'),
  invite: (input: BodyOf<Endpoints['team.invite']>) => call('team.invite', { body: input }),
  updateAccount: (input: BodyOf<Endpoints['team.update']>) => call('team.update', { body: input }),
  issueLink: (id: number) => call('team.issueLink', { body: { id } }),

  activity: (kind?: ActivityKind) => call('activity.list', { query: { ...(kind ? { kind } : {}) } }),

  alerts: () => call('alerts.overview'),
  updateAlertRule: (input: BodyOf<Endpoints['alerts.updateRule']>) => call('alerts.updateRule', { body: input }),
  createGroupAlertRule: (input: BodyOf<Endpoints['alerts.createGroupRule']>) => call('alerts.createGroupRule', { body: input }),
  deleteAlertRule: (id: number) => call('alerts.deleteRule', { body: { id } }),
  createDestination: (input: BodyOf<Endpoints['alerts.createDestination']>) => call('alerts.createDestination', { body: input }),
  updateDestination: (input: BodyOf<Endpoints['alerts.updateDestination']>) => call('alerts.updateDestination', { body: input }),
  deleteDestination: (id: number) => call('alerts.deleteDestination', { body: { id } }),
  testDestination: (id: number) => call('alerts.testDestination', { body: { id } }),

  tokens: () => call('auth.tokens'),
  createToken: (name: string, role: Role) => call('auth.createToken', { body: { name, role } }),
  revokeToken: (id: number) => call('auth.revokeToken', { body: { id } }),

  discoverySources: () => call('discovery.sources'),
  discoveryJobs: () => call('discovery.jobs', { query: { limit: 10 } }),
  discoveryStats: () => call('discovery.stats'),
  createSource: (input: BodyOf<Endpoints['discovery.createSource']>) => call('discovery.createSource', { body: input }),
  updateSource: (id: number, input: BodyOf<Endpoints['discovery.updateSource']>) => call('discovery.updateSource', { params: { id }, body: input }),
  deleteSource: (id: number) => call('discovery.deleteSource', { params: { id } }),
  runSource: (sourceId: number) => as<RunOneDto>(call('discovery.run', { query: { action: 'run' }, body: { sourceId, options: {} } })),
  runAllSources: () => as<RunAllDto>(call('discovery.run', { query: { action: 'run' }, body: { runAll: true } })),

  analyzeStream: (streamId: number) => as<AnalyzeDto>(call('quality.analyze', { query: { action: 'analyze' }, body: { streamId, force: true } })),
  analyzeAll: () => as<AnalyzeAllDto>(call('quality.analyze', { query: { action: 'analyze-all' }, body: {} })),
  analyses: (streamId: number) => call('quality.analyses', { query: { streamId, limit: 50 } }),
  latestQualityRun: () => call('quality.latestRun'),
  qualityQueue: () => call('quality.queue'),

  recentEvaluations: () => call('quality.recentEvaluations', { query: { action: 'recent-evaluations' } }),
  leaderboard: () => as<LeaderboardEntryDto[]>(call('evaluation.read', { query: { action: 'leaderboard' } })),
  raters: () => call('evaluation.raters'),
  waitingItems: () => call('evaluation.waiting'),

  testDatabase: () => call('system.database'),
  initialize: () => call('system.initialize'),
};
