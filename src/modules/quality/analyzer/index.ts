/**
 * Analysing one stream: a direct stream (HLS, MP4, WebM, FLV, MOV) is fetched through the safe
 * fetcher — playlist, liveness, newest segments, or the first megabytes of a file — and the local
 * copy is probed and sampled with ffprobe/ffmpeg, one frame of it kept as the stream's still; an
 * embedded one (YouTube, Twitch, Vimeo, webcam pages) is judged from its platform's API or oEmbed
 * (embedded.ts), whose thumbnail becomes its still. Night at the stream's coordinates (suncalc)
 * turns a dark picture into a note instead of a fault.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getPosition } from 'suncalc';
import { SafeFetchError, type SafeFetcher } from '../../../http/safe-fetch.ts';
import type { RequestHeaders } from '../../../shared/streams/request-headers.ts';
import { detectFormat } from '../../../shared/streams/url.ts';
import { analyzeEmbedded } from './embedded.ts';
import { HlsError, readHls } from './hls.ts';
import { MediaToolError, probeFile, sampleFile } from './media-tools.ts';
import { fingerprintOf } from './replay.ts';
import { stillOfSample } from './still.ts';
import type { Analysis, AnalyzerContext } from './types.ts';

export type { Analysis, AnalyzerContext } from './types.ts';


export interface StreamToAnalyze {
  url: string;
  latitude: number | null;
  longitude: number | null;
  /** Headers its player must send (a playlist's user-agent and referrer): every request of the analysis sends them. */
  headers?: RequestHeaders | null | undefined;
}

/** The fetcher, sending the stream's own headers with every request (a playlist that needs them). */
function fetcherFor(stream: StreamToAnalyze, fetcher: SafeFetcher): SafeFetcher {
  const extra: Record<string, string> = {};
  if (stream.headers?.user_agent) extra['user-agent'] = stream.headers.user_agent;
  if (stream.headers?.referrer) extra.referer = stream.headers.referrer;
  if (Object.keys(extra).length === 0) return fetcher;
  return { ...fetcher, fetch: (url, init = {}) => fetcher.fetch(url, { ...init, headers: { ...extra, ...init.headers } }) };
}


/** Which segment (media sequence number) a moment of the sample came from. */
function segmentLocator(sampled: readonly { sequence: number; seconds: number }[]): (seconds: number) => number | null {
  return (at) => {
    let start = 0;
    for (const segment of sampled) {
      if (at < start + segment.seconds) return segment.sequence;
      start += segment.seconds;
    }
    return sampled.at(-1)?.sequence ?? null;
  };
}

/** The first bytes of a video file are enough for its headers and an 8 s sample. */
const FILE_SAMPLE_BYTES = 16 * 1024 * 1024;

/** The sun more than 6° below the horizon: civil twilight is over. */
function isNight(date: Date, latitude: number | null, longitude: number | null): boolean | null {
  if (latitude === null || longitude === null) return null;
  return getPosition(date, latitude, longitude).altitude < (-6 * Math.PI) / 180;
}

function unreachable(error: string, metrics: Record<string, unknown> = {}): Analysis {
  return { measurements: { method: 'sample', reachable: false, error }, metrics: { ...metrics, error }, cpuSeconds: null };
}

/** Why a fetch failed, in the admin's words. */
function fetchReason(error: unknown): string {
  if (error instanceof SafeFetchError) {
    if (error.reason === 'blocked') return 'The address is not allowed (not a public address)';
    if (error.reason === 'timeout') return 'The stream did not answer in time';
    return 'The stream could not be reached';
  }
  return error instanceof Error ? error.message : String(error);
}

export async function analyzeStream(stream: StreamToAnalyze, ctx: AnalyzerContext): Promise<Analysis> {
  const format = detectFormat(stream.url);
  if (format === 'hls' || format === 'mp4' || format === 'webm' || format === 'flv' || format === 'mov') return analyzeDirect(stream, format, ctx);
  return analyzeEmbedded(stream.url, format, ctx);
}

async function analyzeDirect(stream: StreamToAnalyze, format: 'hls' | 'mp4' | 'webm' | 'flv' | 'mov', analyzer: AnalyzerContext): Promise<Analysis> {
  const ctx = { ...analyzer, fetcher: fetcherFor(stream, analyzer.fetcher) };
  const metrics: Record<string, unknown> = { format };
  let media: Buffer;
  let live: boolean | null = null;
  let firstResponseMs: number;
  let variantHeight: number | null = null;
  let playback: Analysis['playback'] = format === 'hls' ? undefined : null; // HLS: known once its playlist is read
  let sampled: { sequence: number; seconds: number }[] = [];
  let edgeProgramTime: number | null = null;
  try {
    if (format === 'hls') {
      const hls = await readHls(ctx.fetcher, stream.url, { sampleSeconds: ctx.sampleSeconds, sleep: ctx.sleep });
      media = hls.media;
      live = hls.live;
      firstResponseMs = hls.firstResponseMs;
      variantHeight = hls.variant?.height ?? null;
      playback = hls.playback;
      sampled = hls.sampled;
      edgeProgramTime = hls.edgeProgramTime;
      Object.assign(metrics, { variant: hls.variant, live: hls.live, live_note: hls.liveNote, segment_seconds: hls.mediaSeconds, encrypted: hls.encrypted });
      if (hls.encrypted) {
        return { measurements: { method: 'probe', reachable: true, live, ttfbMs: firstResponseMs, height: variantHeight, width: hls.variant?.width ?? null }, metrics, cpuSeconds: null, playback };
      }
    } else {
      const started = Date.now();
      const response = await ctx.fetcher.fetch(stream.url, { accept: '*/*', maxBytes: FILE_SAMPLE_BYTES, truncate: true, timeoutMs: 20_000, headers: { range: `bytes=0-${FILE_SAMPLE_BYTES - 1}` } });
      firstResponseMs = Date.now() - started;
      if (response.status !== 200 && response.status !== 206) return unreachable(`The stream answered HTTP ${response.status}`, metrics);
      media = response.body;
    }
  } catch (error) {
    if (error instanceof HlsError && /HTTP (4|5)\d\d/.test(error.message)) return unreachable(error.message, metrics);
    if (error instanceof HlsError) return { measurements: { method: 'probe', reachable: true, error: error.message, width: 0 }, metrics: { ...metrics, error: error.message }, cpuSeconds: null };
    return unreachable(fetchReason(error), metrics);
  }
  metrics.first_response_ms = firstResponseMs;

  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-quality-'));
  try {
    const file = path.join(dir, format === 'hls' ? 'sample.ts' : `sample.${format}`);
    await writeFile(file, media);
    const probe = await probeFile(ctx.tools, file);
    const stillFile = path.join(dir, 'still.jpg');
    // A live playlist's sample is fingerprinted (a file is a recording by nature; nothing to find).
    const printed = format === 'hls' && live === true;
    const { metrics: sample, print } = await sampleFile(ctx.tools, file, ctx.sampleSeconds, { still: { out: stillFile, expectedSeconds: probe.durationSeconds ?? ctx.sampleSeconds }, source: probe, print: printed });
    const now = ctx.now?.() ?? new Date();
    const night = isNight(now, stream.latitude, stream.longitude);
    const fingerprint = print ? fingerprintOf(print.frames, print.fps, now.getTime(), segmentLocator(sampled)) : null;
    // A picture of what it shows, from the middle of what was sampled (never fails the analysis).
    const still = await stillOfSample(ctx.tools, file, dir, Math.min(sample.sampledSeconds || ctx.sampleSeconds, probe.durationSeconds ?? Infinity), stillFile);
    Object.assign(metrics, { probe, sample, night, still: still ? { width: still.width, height: still.height, bytes: still.bytes.length } : null });
    return {
      measurements: {
        method: 'sample',
        reachable: true,
        ttfbMs: firstResponseMs,
        live,
        width: probe.width,
        height: probe.height ?? variantHeight,
        fps: probe.fps,
        bitrateKbps: probe.bitrateKbps,
        codec: probe.codec,
        audio: probe.audio,
        blackRatio: sample.blackRatio,
        frozenRatio: sample.frozenRatio,
        stillness: sample.stillness?.verdict ?? null,
        blur: sample.blur,
        brightness: sample.brightness,
        motion: sample.motion,
        activity: sample.activity,
        night,
      },
      metrics,
      cpuSeconds: sample.cpuSeconds,
      playback,
      still,
      fingerprint,
      edgeProgramTime,
    };
  } catch (error) {
    if (error instanceof MediaToolError && error.kind === 'unreadable') {
      return { measurements: { method: 'sample', reachable: true, width: 0, error: error.message }, metrics: { ...metrics, error: error.message }, cpuSeconds: null };
    }
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
