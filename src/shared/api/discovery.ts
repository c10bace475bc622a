/** Link analysis and visitor submissions (spec §7 "Quality and discovery"). */
import { z } from 'zod';
import { LIMITS, type DiscoveryPlatform, type JobStatus } from '../constants.ts';
import type { Platform } from '../streams/platform.ts';

export const JobListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.listPage).default(10),
});

export interface DiscoverySourceDto {
  id: number;
  name: string;
  platform: DiscoveryPlatform;
  url: string | null;
  active: boolean;
  created_at: string;
}

export interface DiscoveryJobDto {
  id: number;
  source_id: number | null;
  source_name: string | null;
  status: JobStatus;
  error_message: string | null;
  streams_discovered: number;
  streams_added: number;
  created_at: string;
  finished_at: string | null;
}

export interface DiscoveryStatDto {
  source_id: number;
  source_name: string;
  last_run: string | null;
  total_added: number;
  total_discovered: number;
}

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
