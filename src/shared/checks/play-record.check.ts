// Compiled by scripts/compile-checks.ts from the schema PlayRecord (src/shared/api/play-record.ts):
// do not edit, run `npm run compile-checks`. No zod, no library: one expression.
import type { PlayRecord } from '../api/play-record.ts';

/** Whether `value` is a PlayRecord, exactly as the contract's schema says. */
export function isPlayRecord(value: unknown): value is PlayRecord {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what it is, the expression checks
  const v = value as any;
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).every((k) => k === "stream_id" || k === "position" || k === "scene_id" || k === "from" || k === "to" || k === "playing_ms") && v["stream_id"] !== undefined && (Number.isInteger(v["stream_id"]) && v["stream_id"] >= 1 && v["stream_id"] <= 2147483647) && v["position"] !== undefined && (Number.isInteger(v["position"]) && v["position"] >= 1 && v["position"] <= 5) && v["scene_id"] !== undefined && ((Number.isInteger(v["scene_id"]) && v["scene_id"] >= 1 && v["scene_id"] <= 2147483647 || v["scene_id"] === null)) && v["from"] !== undefined && (Number.isInteger(v["from"]) && v["from"] >= 0 && v["from"] <= 9007199254740991) && v["to"] !== undefined && (Number.isInteger(v["to"]) && v["to"] >= 0 && v["to"] <= 9007199254740991) && v["playing_ms"] !== undefined && (Number.isInteger(v["playing_ms"]) && v["playing_ms"] >= 0 && v["playing_ms"] <= 9007199254740991);
}
