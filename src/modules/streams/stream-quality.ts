/**
 * The quality fields of a stream, written only here: an automatic check (its score, its
 * faults, the health they lead to with hysteresis) and the raters' score, each fused with the
 * other half into `quality_score` by the one fusion rule (src/shared/evaluation/fusion.ts).
 * Every change is a `stream.updated`, so scenes showing the stream (or choosing among the pool)
 * re-resolve and admins see it.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../../db.ts';
import type { Changes } from '../../domain/changes.ts';
import { fuseScores } from '../../shared/evaluation/fusion.ts';
import { nextHealth } from '../../shared/quality/health.ts';
import { ACTIVITY_HISTORY, type ActivityBasis, type LoopEvidence } from '../../shared/quality/activity.ts';
import type { QualityFault } from '../../shared/quality/score.ts';
import type { PlaybackHints } from '../../shared/streams/playback.ts';
import { Stream } from './stream.entity.ts';
import { recordHealthChange } from './stream-uptime.ts';

/** The stream's `quality_score` from its two halves: the one place they are fused. */
function refreshFusedScore(stream: Stream): void {
  const fused = fuseScores(
    { score: stream.autoScore ?? null, confidence: stream.autoConfidence ?? null },
    { score: stream.humanScore ?? null, confidence: stream.humanConfidence ?? null },
  );
  stream.qualityScore = fused.score;
  stream.qualityConfidence = fused.confidence;
}

export interface AutomaticCheck {
  score: number;
  confidence: number;
  faults: readonly QualityFault[];
  /** Screens have reported the stream failing for SCREEN_ERROR_SECONDS or more. */
  screensFailing: boolean;
  /** How screens start and sync it, as this check read it; undefined: not read this time (kept). */
  playback?: PlaybackHints | null;
  /** What is happening now, against the camera's normal; undefined: not measured this time (kept). */
  activity?: { value: number | null; ratio: number | null; basis: ActivityBasis | null; at: Date } | undefined;
  /** A looped recording's evidence, or null when this check showed it is none; undefined: this check could not tell (kept). */
  looped?: LoopEvidence | null | undefined;
}

/**
 * Records one automatic check on the stream, locked, so two verdicts (a screen-triggered check
 * and a sweep) apply one after the other. Null when the stream is gone.
 */
export async function recordCheck(tx: EntityManager, changes: Changes, streamId: number, check: AutomaticCheck): Promise<{ stream: Stream; healthChanged: boolean } | null> {
  const stream = await tx.findOne(Stream, { id: streamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!stream) return null;
  const health = nextHealth({ current: stream.health, failedChecks: stream.failedChecks, faults: check.faults, screensFailing: check.screensFailing });
  const healthChanged = health.health !== stream.health;
  stream.autoScore = check.score;
  stream.autoConfidence = check.confidence;
  refreshFusedScore(stream);
  stream.qualityAssessedAt = new Date();
  if (check.playback !== undefined) stream.playback = check.playback;
  stream.failedChecks = health.failedChecks;
  if (healthChanged) {
    stream.health = health.health;
    stream.healthChangedAt = new Date();
    await recordHealthChange(tx, stream, health.health, stream.healthChangedAt);
  }
  stream.healthFaults = [...check.faults];
  if (check.activity) {
    stream.activity = check.activity.value;
    stream.activityRatio = check.activity.ratio;
    stream.activityBasis = check.activity.basis;
    if (check.activity.value !== null) stream.activityRecent = [...(stream.activityRecent ?? []), { at: check.activity.at.toISOString(), activity: check.activity.value }].slice(-ACTIVITY_HISTORY);
  }
  if (check.looped !== undefined) stream.looped = check.looped;
  await tx.flush();
  changes.push({ type: 'stream.updated', streamId, name: stream.name });
  return { stream, healthChanged };
}

/**
 * An admin marked a looped stream's recording fine (or took the mark back): its `looped` fault
 * counts (or stops counting) for its health at once, not at its next analysis.
 */
export async function settleLoopedHealth(tx: EntityManager, stream: Stream): Promise<void> {
  if (!stream.looped) return;
  const others = (stream.healthFaults ?? []).filter((f) => f !== 'looped') as QualityFault[];
  const faults: QualityFault[] = stream.recordingOk ? others : [...others, 'looped'];
  stream.healthFaults = faults;
  if (stream.health === 'offline' || stream.health === 'unknown') return;
  const next = nextHealth({ current: stream.health, failedChecks: stream.failedChecks, faults });
  if (next.health === stream.health) return;
  stream.health = next.health;
  stream.healthChangedAt = new Date();
  await recordHealthChange(tx, stream, next.health, stream.healthChangedAt);
}

export interface HumanScore {
  /** 0–5, reliability-weighted. */
  score: number;
  confidence: number;
  count: number;
}

/** Records the raters' scores of these streams; only those that moved change. Returns how many did. */
export async function recordHumanScores(tx: EntityManager, changes: Changes, scores: ReadonlyMap<number, HumanScore>): Promise<number> {
  if (scores.size === 0) return 0;
  const streams = await tx.find(Stream, { id: { $in: [...scores.keys()] } });
  let moved = 0;
  for (const stream of streams) {
    const it = scores.get(stream.id)!;
    if (stream.humanScore === it.score && stream.humanConfidence === it.confidence && stream.humanCount === it.count) continue;
    stream.humanScore = it.score;
    stream.humanConfidence = it.confidence;
    stream.humanCount = it.count;
    refreshFusedScore(stream);
    changes.push({ type: 'stream.updated', streamId: stream.id, name: stream.name });
    moved++;
  }
  await tx.flush();
  return moved;
}
