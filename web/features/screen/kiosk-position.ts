/** Kiosk positions (spec §5): an integer 1-5, anything else is refused with the spec's words. */
import { MAX_SCENE_STREAMS } from '../../../src/shared/constants.ts';

/** Spec §9: kiosks fetch their stream again every 30 minutes as a safety net. */
export const KIOSK_REFETCH_MS = 1_800_000;

export function parseKioskPosition(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d{1,3}$/.test(raw)) return null;
  const position = Number(raw);
  return position >= 1 && position <= MAX_SCENE_STREAMS ? position : null;
}

export function invalidPositionMessage(raw: string | undefined): string {
  return `Invalid stream position: ${raw ?? ''}. Must be 1-5.`;
}
