/** Link analysis and visitor submissions (spec §7 "Quality and discovery"). */
import { z } from 'zod';
import type { Platform } from '../streams/platform.ts';

/** What a visitor or an admin pastes: a link, or an embed code (read, never stored). */
export const ExtractRequest = z.object({
  url: z.string({ error: 'URL is required' }).trim().min(1, 'URL is required').max(10_000, 'Must be at most 10000 characters'),
});

export interface DiscoveredStreamDto {
  url: string;
  normalizedUrl: string;
  platform: Platform;
  title: string | null;
  thumbnail: string | null;
  embedUrl: string | null;
}

export interface ExtractDto {
  streams: DiscoveredStreamDto[];
}
