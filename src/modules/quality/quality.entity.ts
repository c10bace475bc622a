import { defineEntity, p } from '@mikro-orm/core';
import { Stream } from '../streams/stream.entity.ts';

export const ANALYSIS_TRIGGERS = ['manual', 'all', 'schedule', 'screens', 'recheck', 'discovery', 'ranking'] as const;
export type AnalysisTrigger = (typeof ANALYSIS_TRIGGERS)[number];

/** One analysis of one stream: what was measured, the score it earned, the faults found, or why it failed. */
export const QualityAnalysisSchema = defineEntity({
  name: 'QualityAnalysis',
  tableName: 'quality_analyses',
  properties: {
    id: p.integer().primary(),
    stream: () => p.manyToOne(Stream).deleteRule('cascade'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    score: p.double().runtimeType('number').$type<number>().nullable(),
    confidence: p.double().runtimeType('number').$type<number>().nullable(),
    method: p.text().nullable(),
    faults: p.json<string[]>().defaultRaw(`'[]'::jsonb`).onCreate(() => []),
    metrics: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`).onCreate(() => ({})),
    error: p.text().nullable(),
    durationMs: p.integer().nullable(),
    trigger: p.enum(ANALYSIS_TRIGGERS).default('manual'),
    /** Local motion above the sample's noise (grey levels); null: not measured. */
    activity: p.float().$type<number>().nullable(),
    /** The camera's local hour when it was taken, and whether the picture was dark (the daily profile). */
    localHour: p.smallint().nullable(),
    dark: p.boolean().nullable(),
    /** What it saw, compact (analyzer/replay.ts): frames, their rate, the segment each came from. */
    fingerprint: p.blob().nullable().lazy(),
    fingerprintFps: p.float().$type<number>().nullable(),
    fingerprintSegments: p.json<(number | null)[]>().nullable(),
    /** The live edge's EXT-X-PROGRAM-DATE-TIME (a recording's does not advance with the clock). */
    edgeProgramTime: p.datetime().nullable(),
  },
  indexes: [{ name: 'quality_analyses_stream_created_idx', expression: 'create index "quality_analyses_stream_created_idx" on "quality_analyses" ("stream_id", "created_at" desc)' }],
});

export class QualityAnalysis extends QualityAnalysisSchema.class {}
QualityAnalysisSchema.setClass(QualityAnalysis);

/** An "analyze all": how many streams it queued, how many are done and how many failed. */
export const QualityRunSchema = defineEntity({
  name: 'QualityRun',
  tableName: 'quality_runs',
  properties: {
    id: p.integer().primary(),
    total: p.integer(),
    done: p.integer().default(0),
    failed: p.integer().default(0),
    startedBy: p.text(),
    startedAt: p.datetime().defaultRaw('now()').onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
  },
});

export class QualityRun extends QualityRunSchema.class {}
QualityRunSchema.setClass(QualityRun);
