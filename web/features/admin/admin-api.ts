/**
 * The admin console's calls, each one an endpoint of the contract (src/shared/api/*.ts): the
 * path, the input and the answer's type come from the declaration the server mounts. The
 * session cookie travels with every same-origin fetch.
 */
import type { z } from 'zod';
import {
  activityEndpoints,
  authEndpoints,
  defaultSceneEndpoints,
  discoveryEndpoints,
  evaluationEndpoints,
  qualityEndpoints,
  sceneEndpoints,
  screenEndpoints,
  streamEndpoints,
  submissionEndpoints,
  systemEndpoints,
  type AnalyzeAllDto,
  type AnalyzeDto,
  type LeaderboardEntryDto,
  type RunAllDto,
  type RunOneDto,
  type StreamDto,
  type SubmissionFilter,
} from '../../../src/shared/api/index.ts';
import type { ActivityKind } from '../../../src/shared/api/activity.ts';
import type { ScreenCommandName } from '../../../src/shared/api/screens.ts';
import { call, narrow as as } from '../../lib/api.ts';

type BodyOf<E extends { body: z.ZodType }> = z.input<E['body']>;



/** The fields of the stream form as the API takes them. */
export type StreamInput = BodyOf<typeof streamEndpoints.create>;
export type StreamChanges = BodyOf<typeof streamEndpoints.update>;

export const adminApi = {
  me: () => call(authEndpoints.me),
  logout: () => call(authEndpoints.logout),

  streams: () => as<StreamDto[]>(call(streamEndpoints.list)),
  createStream: (input: StreamInput) => call(streamEndpoints.create, { body: input }),
  updateStream: (input: StreamChanges) => call(streamEndpoints.update, { body: input }),
  deleteStream: (id: number) => call(streamEndpoints.remove, { body: { id } }),

  scenes: () => call(sceneEndpoints.list),
  createScene: (input: BodyOf<typeof sceneEndpoints.create>) => call(sceneEndpoints.create, { body: input }),
  updateScene: (input: BodyOf<typeof sceneEndpoints.update>) => call(sceneEndpoints.update, { body: input }),
  deleteScene: (id: number) => call(sceneEndpoints.remove, { body: { id } }),
  defaultScene: () => call(defaultSceneEndpoints.get),
  setDefaultScene: (sceneId: number) => call(defaultSceneEndpoints.set, { body: { scene_id: sceneId } }),

  screens: () => call(screenEndpoints.list, { query: { include_offline: 'true' } }),
  commandScreens: (command: ScreenCommandName, id?: string) => call(screenEndpoints.command, { body: { command, ...(id ? { id } : {}) } }),

  submissions: (query: { status: 'pending' | 'approved' | 'rejected'; cursor?: number | null } & SubmissionFilter) =>
    call(submissionEndpoints.list, { query: { ...query, limit: 50, cursor: query.cursor ?? undefined } }),
  pendingCount: () => call(submissionEndpoints.count),
  approveSubmission: (input: BodyOf<typeof submissionEndpoints.approve>) => call(submissionEndpoints.approve, { body: input }),
  rejectSubmission: (id: number, note: string) => call(submissionEndpoints.reject, { body: { id, note } }),
  rejectMatching: (filter: SubmissionFilter, note: string) => call(submissionEndpoints.rejectMatching, { body: { filter, note } }),

  activity: (kind?: ActivityKind) => call(activityEndpoints.list, { query: { ...(kind ? { kind } : {}) } }),

  tokens: () => call(authEndpoints.tokens),
  createToken: (name: string) => call(authEndpoints.createToken, { body: { name } }),
  revokeToken: (id: number) => call(authEndpoints.revokeToken, { body: { id } }),

  discoverySources: () => call(discoveryEndpoints.sources),
  discoveryJobs: () => call(discoveryEndpoints.jobs, { query: { limit: 10 } }),
  discoveryStats: () => call(discoveryEndpoints.stats),
  createSource: (input: BodyOf<typeof discoveryEndpoints.createSource>) => call(discoveryEndpoints.createSource, { body: input }),
  updateSource: (id: number, input: BodyOf<typeof discoveryEndpoints.updateSource>) => call(discoveryEndpoints.updateSource, { params: { id }, body: input }),
  deleteSource: (id: number) => call(discoveryEndpoints.deleteSource, { params: { id } }),
  runSource: (sourceId: number) => as<RunOneDto>(call(discoveryEndpoints.run, { query: { action: 'run' }, body: { sourceId, options: {} } })),
  runAllSources: () => as<RunAllDto>(call(discoveryEndpoints.run, { query: { action: 'run' }, body: { runAll: true } })),

  analyzeStream: (streamId: number) => as<AnalyzeDto>(call(qualityEndpoints.analyze, { query: { action: 'analyze' }, body: { streamId, force: true } })),
  analyzeAll: () => as<AnalyzeAllDto>(call(qualityEndpoints.analyze, { query: { action: 'analyze-all' }, body: {} })),
  analyses: (streamId: number) => call(qualityEndpoints.analyses, { query: { streamId, limit: 50 } }),
  latestQualityRun: () => call(qualityEndpoints.latestRun),
  qualityQueue: () => call(qualityEndpoints.queue),

  recentEvaluations: () => call(qualityEndpoints.recentEvaluations, { query: { action: 'recent-evaluations' } }),
  leaderboard: () => as<LeaderboardEntryDto[]>(call(evaluationEndpoints.read, { query: { action: 'leaderboard' } })),
  raters: () => call(evaluationEndpoints.raters),

  testDatabase: () => call(systemEndpoints.database),
  initialize: () => call(systemEndpoints.initialize),
};
