/** Uptime answers: the share of the last day and week a screen was online or a stream was live (src/shared/uptime.ts). */
import { z } from 'zod';
import { UPTIME_WINDOWS } from '../uptime.ts';
import { IsoDate } from './common.ts';

/** A share of the known time that was up, 0..1; null: nothing known in it. */
export const UptimeShare = z.number().min(0).max(1).nullable();

const windowDto = (hours: number) =>
  z.strictObject({
    share: UptimeShare.describe('The share of the window it was up, of the time known (before its first record is unknown, not down); null: nothing known'),
    hours: z.array(UptimeShare).length(hours).describe(`${hours} one-hour buckets, oldest first, the last ending at \`to\`: each one's share up, or null where nothing is known`),
    from: IsoDate,
    to: IsoDate,
  });

export const UptimeDto = z.strictObject({
  day: windowDto(UPTIME_WINDOWS.day).describe('The last 24 hours'),
  week: windowDto(UPTIME_WINDOWS.week).describe('The last 7 days'),
});
export type UptimeDto = z.output<typeof UptimeDto>;
export type UptimeWindowDto = UptimeDto['day'];
