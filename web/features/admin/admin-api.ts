/** The admin console's REST calls (the session cookie travels with every same-origin fetch). */
import type {
  ActivityDto,
  ApiTokenDto,
  CreatedApiTokenDto,
  DatabaseTestDto,
  DefaultSceneDto,
  DiscoveryJobDto,
  DiscoverySourceDto,
  DiscoveryStatDto,
  AnalyzeAllDto,
  LeaderboardEntryDto,
  RaterReliabilityDto,
  RecentEvaluationDto,
  AnalyzeDto,
  QualityAnalysisDto,
  QualityQueueDto,
  QualityRunDto,
  RejectMatchingDto,
  RunAllDto,
  RunOneDto,
  InitializeDto,
  MeDto,
  SceneCreate,
  SceneDto,
  SceneUpdate,
  StreamDto,
  SubmissionDto,
  SubmissionPageDto,
  SuccessDto,
} from '../../../src/shared/api/index.ts';
import type { ScreenPresence } from '../../../src/shared/events.ts';
import type { ScreenCommandName } from '../../../src/shared/api/screens.ts';
import { requestJson } from '../../lib/api.ts';

const send = <T>(method: string, path: string, body?: unknown) =>
  requestJson<T>(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** The fields of the stream form as the API takes them (strings for coordinates are fine). */
export type StreamInput = Record<string, unknown>;

export const adminApi = {
  me: () => requestJson<MeDto>('/auth/me'),
  logout: () => send<SuccessDto>('POST', '/auth/logout'),

  streams: () => requestJson<StreamDto[]>('/streams'),
  createStream: (input: StreamInput) => send<StreamDto>('POST', '/streams', input),
  updateStream: (input: StreamInput & { id: number }) => send<{ success: true; stream: StreamDto }>('PUT', '/streams', input),
  deleteStream: (id: number) => send<SuccessDto>('DELETE', '/streams', { id }),

  scenes: () => requestJson<SceneDto[]>('/scenes'),
  createScene: (input: Partial<SceneCreate> & { name: string }) => send<SceneDto>('POST', '/scenes', input),
  updateScene: (input: SceneUpdate) => send<{ success: true; scene: SceneDto }>('PUT', '/scenes', input),
  deleteScene: (id: number) => send<SuccessDto>('DELETE', '/scenes', { id }),
  defaultScene: () => requestJson<DefaultSceneDto>('/config/default-scene'),
  setDefaultScene: (sceneId: number) => send<DefaultSceneDto>('PUT', '/config/default-scene', { scene_id: sceneId }),

  screens: () => requestJson<ScreenPresence[]>('/screens?include_offline=true'),
  commandScreens: (command: ScreenCommandName, id?: string) => send<SuccessDto>('POST', '/screens/command', { command, ...(id ? { id } : {}) }),

  submissions: (query: { status: 'pending' | 'approved' | 'rejected'; q?: string; submitted_by?: string; cursor?: number | null }) => {
    const params = new URLSearchParams({ status: query.status, limit: '50' });
    if (query.q) params.set('q', query.q);
    if (query.submitted_by) params.set('submitted_by', query.submitted_by);
    if (query.cursor) params.set('cursor', String(query.cursor));
    return requestJson<SubmissionPageDto>(`/submissions?${params}`);
  },
  rejectMatching: (filter: { q?: string; submitted_by?: string }, note: string) => send<RejectMatchingDto>('POST', '/submissions/reject-matching', { filter, note }),
  pendingCount: () => requestJson<{ pending: number }>('/submissions/count'),
  approveSubmission: (input: StreamInput & { id: number }) => send<SubmissionDto>('POST', '/submissions/approve', input),
  rejectSubmission: (id: number, note: string) => send<SubmissionDto>('POST', '/submissions/reject', { id, note }),

  activity: (kind?: string) => requestJson<ActivityDto[]>(`/activity${kind ? `?kind=${encodeURIComponent(kind)}` : ''}`),

  tokens: () => requestJson<ApiTokenDto[]>('/auth/tokens'),
  createToken: (name: string) => send<CreatedApiTokenDto>('POST', '/auth/tokens', { name }),
  revokeToken: (id: number) => send<SuccessDto>('DELETE', '/auth/tokens', { id }),

  discoverySources: () => requestJson<DiscoverySourceDto[]>('/discovery/sources'),
  discoveryJobs: () => requestJson<DiscoveryJobDto[]>('/discovery/jobs?limit=10'),
  discoveryStats: () => requestJson<DiscoveryStatDto[]>('/discovery/stats'),
  createSource: (input: Record<string, unknown>) => send<DiscoverySourceDto>('POST', '/discovery/sources', input),
  updateSource: (id: number, input: Record<string, unknown>) => send<DiscoverySourceDto>('PUT', `/discovery/sources/${id}`, input),
  deleteSource: (id: number) => send<SuccessDto>('DELETE', `/discovery/sources/${id}`),
  runSource: (sourceId: number) => send<RunOneDto>('POST', '/discovery?action=run', { sourceId, options: {} }),
  runAllSources: () => send<RunAllDto>('POST', '/discovery?action=run', { runAll: true }),

  analyzeStream: (streamId: number) => send<AnalyzeDto>('POST', '/quality?action=analyze', { streamId, force: true }),
  analyzeAll: () => send<AnalyzeAllDto>('POST', '/quality?action=analyze-all', {}),
  analyses: (streamId: number) => requestJson<QualityAnalysisDto[]>(`/quality/analyses?streamId=${streamId}&limit=50`),
  latestQualityRun: () => requestJson<{ run: QualityRunDto | null }>('/quality/runs/latest'),
  qualityQueue: () => requestJson<QualityQueueDto>('/quality/queue'),

  recentEvaluations: () => requestJson<RecentEvaluationDto[]>('/quality?action=recent-evaluations'),
  leaderboard: () => requestJson<LeaderboardEntryDto[]>('/human-evaluation?action=leaderboard'),
  raters: () => requestJson<RaterReliabilityDto[]>('/evaluation/raters'),

  testDatabase: () => requestJson<DatabaseTestDto>('/system/database'),
  initialize: () => send<InitializeDto>('POST', '/system/initialize'),
};
