/** Automatic quality analysis (spec §7 "Quality and discovery"). */
import { z } from 'zod';
import type { QueueLane } from '../quality/queue.ts';
import { Id, IsoDate, PathId, queryInt } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { RecentEvaluationDto } from './evaluation.ts';

export const QualityQuery = z.object({
  action: z.enum(['analyze', 'analyze-all'], { error: 'Unknown action; use ?action=analyze or ?action=analyze-all' }),
});

/** analyze: {streamId, force?, wait?}; analyze-all: nothing. */
/** Said in the document and by the refusal. */
export const STREAM_ID_RULE = 'Required with ?action=analyze';

export const AnalyzeRequest = z.object({
  streamId: Id.optional().describe(`The stream to analyse: ${STREAM_ID_RULE}`),
  /** Analyse again even when a fresh analysis exists. */
  force: z.boolean().default(false),
  /** Answer when the analysis is done (otherwise it is queued). */
  wait: z.boolean().default(false),
});
export type AnalyzeRequest = z.output<typeof AnalyzeRequest>;

export const AnalysesQuery = z.object({
  streamId: PathId,
  limit: queryInt(1, 100).withDefault(20),
});

export const QualityAnalysisDto = z.strictObject({
  id: z.number().int(),
  stream_id: z.number().int(),
  created_at: IsoDate,
  score: z.number().nullable().describe('0–100; null: no score (see `error`)'),
  confidence: z.number().nullable().describe('0–1'),
  method: z.string().nullable(),
  faults: z.array(z.string()),
  notes: z.array(z.string()).describe('What the analysis says that is not a fault: `night`, `still or frozen — can\'t tell`, a looped recording marked fine'),
  metrics: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  trigger: z.string().describe('What asked for it (manual, all, schedule, screens, recheck, discovery, ranking)'),
  activity: z.number().nullable().describe('Local motion above the picture\'s noise (grey levels); null: not measured'),
});
export type QualityAnalysisDto = z.output<typeof QualityAnalysisDto>;

/** One hour of a stream's local day, from its last 30 days of analyses. */
export const HourProfileDto = z.strictObject({
  hour: z.number().int().describe('0–23, in the camera\'s local time (its time zone, or its longitude\'s)'),
  analyses: z.number().int(),
  live_share: z.number().nullable().describe('Share of its analyses at that hour that found a live picture (0–1); null: none yet'),
  dark_share: z.number().nullable().describe('Share that found it dark: night at the camera, or black'),
  activity: z.number().nullable().describe('Median activity at that hour (grey levels); null: never measured'),
});
export type HourProfileDto = z.output<typeof HourProfileDto>;

export const QualityRunDto = z.strictObject({
  id: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  started_by: z.string(),
  started_at: IsoDate,
  finished_at: IsoDate.nullable(),
});
export type QualityRunDto = z.output<typeof QualityRunDto>;

export const AnalyzeDto = z.strictObject({
  queued: z.boolean().describe('Queued for the worker (false: answered with an analysis)'),
  analysis: QualityAnalysisDto.nullable(),
});
export type AnalyzeDto = z.output<typeof AnalyzeDto>;

export const AnalyzeAllDto = z.strictObject({
  run: QualityRunDto,
});
export type AnalyzeAllDto = z.output<typeof AnalyzeAllDto>;

export const LatestRunDto = z.strictObject({
  run: QualityRunDto.nullable(),
});
export type LatestRunDto = z.output<typeof LatestRunDto>;

export interface QualityProgressDto {
  version: number;
  run: QualityRunDto | null;
  stream_id: number | null;
  stream_name: string | null;
  status: 'queued' | 'analyzing' | 'done' | 'failed';
  analysis: QualityAnalysisDto | null;
}

/** The analysis queue as the Streams tab shows it (GET /api/quality/queue, and pushed as `quality:queue`). */
export const QualityQueueDto = z.strictObject({
  version: z.number().int(),
  waiting: z
    .strictObject({ manual: z.number().int(), screens: z.number().int(), 'on-screen': z.number().int(), ranking: z.number().int(), new: z.number().int(), sweep: z.number().int() } satisfies Record<QueueLane, z.ZodNumber>)
    .describe('Analyses waiting, by lane (highest priority first)'),
  running: z.number().int(),
  per_minute: z.number().int().describe('Analyses finished in the last minute, cluster-wide'),
});
export type QualityQueueDto = z.output<typeof QualityQueueDto>;

export const RecentEvaluationsQuery = z.object({
  action: z.literal('recent-evaluations', { error: 'Unknown action; use ?action=recent-evaluations' }),
});

export const qualityEndpoints = {
  analyze: endpoint({
    ...ROUTES['quality.analyze'],
    summary: 'Analyse one stream (?action=analyze: queued → 202, or answered with a fresh or `wait`ed analysis) or every active stream (?action=analyze-all)',
    access: 'curator',
    query: QualityQuery,
    body: AnalyzeRequest,
    responses: { 200: z.union([AnalyzeDto, AnalyzeAllDto]), 202: AnalyzeDto },
    statusOf: (answer) => ((answer as Partial<AnalyzeDto>).queued ? 202 : 200),
    errors: [404, 409],
  }),
  recentEvaluations: endpoint({
    ...ROUTES['quality.recentEvaluations'],
    summary: 'The streams rated most recently by human raters (?action=recent-evaluations)',
    access: 'viewer',
    query: RecentEvaluationsQuery,
    responses: { 200: z.array(RecentEvaluationDto) },
  }),
  analyses: endpoint({
    ...ROUTES['quality.analyses'],
    summary: 'A stream\'s analyses, newest first',
    access: 'viewer',
    query: AnalysesQuery,
    responses: { 200: z.array(QualityAnalysisDto) },
    errors: [404],
  }),
  latestRun: endpoint({ ...ROUTES['quality.latestRun'], summary: 'The latest "analyze all" run (null: none yet)', access: 'viewer', responses: { 200: LatestRunDto } }),
  queue: endpoint({ ...ROUTES['quality.queue'], summary: 'What the analysis queue holds, by lane', access: 'viewer', responses: { 200: QualityQueueDto } }),
  daily: endpoint({
    ...ROUTES['quality.daily'],
    summary: 'A stream\'s day by hour: live share, dark share and activity (its last 30 days, local time)',
    access: 'viewer',
    params: z.object({ id: PathId }),
    responses: { 200: z.array(HourProfileDto) },
    errors: [404],
  }),
};
