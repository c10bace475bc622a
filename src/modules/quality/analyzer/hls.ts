/**
 * Reading an HLS stream through the safe fetcher: the master playlist's best variant, liveness
 * (the media sequence must advance between two fetches about a target duration apart; an
 * ENDLIST or VOD playlist is not live), and the newest segments (with their init section) as
 * one local file for ffmpeg — which therefore never opens a URL itself.
 */
import HLS from 'hls-parser';
import type { SafeFetcher } from '../../../http/safe-fetch.ts';
import { cameraSkewHint, startBandwidth, syncLatencyMs, type PlaybackHints } from '../../../shared/streams/playback.ts';

type Playlist = ReturnType<typeof HLS.parse>;
type MediaPlaylist = Extract<Playlist, { isMasterPlaylist: false }>;

export interface HlsReading {
  variant: { width: number | null; height: number | null; bandwidth: number | null } | null;
  live: boolean;
  /** Why it is not live, when it is not. */
  liveNote: string | null;
  /** The sampled segments, concatenated (init section first). */
  media: Buffer;
  mediaSeconds: number;
  firstResponseMs: number;
  encrypted: boolean;
  /** How screens should start and sync it (src/shared/streams/playback.ts). */
  playback: PlaybackHints;
  /** The sampled segments in order: media sequence number and length (s), to place each moment of the sample. */
  sampled: { sequence: number; seconds: number }[];
  /** The newest segment's EXT-X-PROGRAM-DATE-TIME plus its length (epoch ms), when the playlist has one. */
  edgeProgramTime: number | null;
}

const MAX_SEGMENTS = 4;
const MAX_MEDIA_BYTES = 24 * 1024 * 1024;

export class HlsError extends Error {}

async function fetchPlaylist(fetcher: SafeFetcher, url: string): Promise<{ playlist: Playlist; url: string; at: number }> {
  const response = await fetcher.fetch(url, { accept: 'application/vnd.apple.mpegurl, application/x-mpegurl, */*;q=0.5', timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 });
  if (response.status !== 200) throw new HlsError(`The playlist answered HTTP ${response.status}`);
  const text = response.body.toString('utf8');
  if (!text.trimStart().startsWith('#EXTM3U')) throw new HlsError('This address does not serve an HLS playlist');
  try {
    return { playlist: HLS.parse(text), url: response.url, at: Date.now() };
  } catch (error) {
    throw new HlsError(`The playlist could not be read: ${error instanceof Error ? error.message : 'malformed'}`);
  }
}

/** The newest segment's end in program time − when the playlist was loaded (ms); null without program date-time. */
function edgeSkew(p: MediaPlaylist, loadedAt: number): number | null {
  const edge = p.segments.at(-1);
  return edge?.programDateTime ? edge.programDateTime.getTime() + edge.duration * 1000 - loadedAt : null;
}

const lastSequence = (p: MediaPlaylist) => (p.mediaSequenceBase ?? 0) + p.segments.length;

export async function readHls(
  fetcher: SafeFetcher,
  url: string,
  options: { sampleSeconds: number; sleep: (ms: number) => Promise<void> },
): Promise<HlsReading> {
  const started = Date.now();
  let { playlist, url: playlistUrl, at: loadedAt } = await fetchPlaylist(fetcher, url);
  const firstResponseMs = Date.now() - started;
  let variant: HlsReading['variant'] = null;
  let start: number | null = null;
  if (playlist.isMasterPlaylist) {
    const variants = playlist.variants.filter((v) => !v.isIFrameOnly);
    start = startBandwidth(variants.map((v) => ({ bandwidth: v.bandwidth || null, height: v.resolution?.height ?? null })));
    const best = [...variants]
      .sort((a, b) => (b.resolution?.height ?? 0) - (a.resolution?.height ?? 0) || b.bandwidth - a.bandwidth)[0];
    if (!best) throw new HlsError('The master playlist lists no variant');
    variant = { width: best.resolution?.width ?? null, height: best.resolution?.height ?? null, bandwidth: best.bandwidth || null };
    ({ playlist, url: playlistUrl, at: loadedAt } = await fetchPlaylist(fetcher, new URL(best.uri, playlistUrl).href));
    if (playlist.isMasterPlaylist) throw new HlsError('The variant is another master playlist');
  }
  const media = playlist;
  if (media.segments.length === 0) throw new HlsError('The playlist has no segments');

  let live = true;
  let liveNote: string | null = null;
  // The camera's clock against ours, at each load: its edge's program time − when it was loaded.
  const skews = [edgeSkew(media, loadedAt)];
  if (media.endlist || media.playlistType === 'VOD') {
    live = false;
    liveNote = 'The playlist is a finished recording (ENDLIST), not a live stream';
  } else {
    // A live playlist gains segments every target duration; wait about that long and look again.
    await options.sleep(Math.min(Math.max(media.targetDuration, 1), 6) * 1000 + 250);
    const again = await fetchPlaylist(fetcher, playlistUrl);
    if (!again.playlist.isMasterPlaylist) skews.push(edgeSkew(again.playlist, again.at));
    if (!again.playlist.isMasterPlaylist && lastSequence(again.playlist) <= lastSequence(media) && !again.playlist.endlist) {
      live = false;
      liveNote = 'The playlist did not advance: the stream is stale';
    }
  }

  // The newest segments covering the sample (a live edge is what viewers see).
  const chosen: typeof media.segments = [];
  let seconds = 0;
  for (let i = media.segments.length - 1; i >= 0 && chosen.length < MAX_SEGMENTS && seconds < options.sampleSeconds; i--) {
    chosen.unshift(media.segments[i]!);
    seconds += media.segments[i]!.duration;
  }
  const encrypted = chosen.some((s) => s.key && s.key.method !== 'NONE');
  const parts: Buffer[] = [];
  const init = chosen[0]?.map?.uri;
  if (init) parts.push((await fetcher.fetch(new URL(init, playlistUrl).href, { accept: '*/*', maxBytes: 4 * 1024 * 1024, timeoutMs: 10_000 })).body);
  let total = 0;
  const sampled: HlsReading['sampled'] = [];
  const firstSequence = (media.mediaSequenceBase ?? 0) + media.segments.length - chosen.length;
  for (const [index, segment] of chosen.entries()) {
    const response = await fetcher.fetch(new URL(segment.uri, playlistUrl).href, { accept: '*/*', maxBytes: 16 * 1024 * 1024, timeoutMs: 15_000 });
    if (response.status !== 200) throw new HlsError(`A segment answered HTTP ${response.status}`);
    total += response.body.length;
    if (total > MAX_MEDIA_BYTES) break;
    parts.push(response.body);
    sampled.push({ sequence: firstSequence + index, seconds: segment.duration });
  }
  const edge = media.segments.at(-1)!;
  const edgeProgramTime = edge.programDateTime ? edge.programDateTime.getTime() + edge.duration * 1000 : null;
  const window = media.segments.reduce((sum, s) => sum + s.duration, 0);
  const latency = media.segments.some((s) => s.programDateTime) ? syncLatencyMs(media.targetDuration, window) : null;
  const known = skews.filter((skew): skew is number => skew !== null);
  const skew = known.length ? cameraSkewHint({ windowMs: window * 1000, targetDurationMs: media.targetDuration * 1000, skewMs: Math.max(...known) }, latency) : null;
  const playback = { sync_latency_ms: latency, start_bandwidth: start, camera_skew_ms: skew };
  return { variant, live, liveNote, media: Buffer.concat(parts), mediaSeconds: seconds, firstResponseMs, encrypted, playback, sampled, edgeProgramTime };
}
