/**
 * ffprobe and ffmpeg on a local file (never on a URL: what they read was fetched by the safe
 * fetcher first). One decode of a bounded sample feeds every filter: blackdetect, freezedetect,
 * blurdetect, signalstats (YAVG) and scdet, at 10 fps and at most 360 lines — the filters'
 * verdicts do not need more, and the CPU cost stays small.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface MediaTools {
  /** FFMPEG_PATH / FFPROBE_PATH (default: found on PATH). */
  ffmpeg: string;
  ffprobe: string;
}

export const DEFAULT_MEDIA_TOOLS: MediaTools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

/**
 * An analysis error the admin reads as it is: `tool` when ffmpeg itself is missing or stuck
 * (nothing is known of the stream), `unreadable` when what the stream sent is not video.
 */
export class MediaToolError extends Error {
  readonly kind: 'tool' | 'unreadable';
  constructor(message: string, kind: 'tool' | 'unreadable') {
    super(message);
    this.kind = kind;
  }
}

export interface ProbeInfo {
  codec: string | null;
  width: number | null;
  height: number | null;
  fps: number | null;
  bitrateKbps: number | null;
  audio: boolean;
  durationSeconds: number | null;
}

export interface SampleMetrics {
  sampledSeconds: number;
  blackRatio: number;
  frozenRatio: number;
  blur: number | null;
  brightness: number | null;
  motion: number | null;
  /** CPU seconds ffmpeg spent (its -benchmark line), for bench:quality. */
  cpuSeconds: number | null;
}

const SAMPLE_FPS = 10;
/** What a stream sent is read as a local file and nothing else: a playlist disguised as a video cannot make ffmpeg fetch. */
const LOCAL_ONLY = ['-protocol_whitelist', 'file'];

function run(binary: string, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return reject(new MediaToolError(`${path.basename(binary)} not found (install ffmpeg, or set ${binary.includes('probe') ? 'FFPROBE_PATH' : 'FFMPEG_PATH'})`, 'tool'));
        if ((error as { killed?: boolean }).killed) return reject(new MediaToolError(`${path.basename(binary)} took longer than ${Math.round(timeoutMs / 1000)} s`, 'tool'));
        const last = stderr.trim().split('\n').at(-1) ?? '';
        return reject(new MediaToolError(`The video could not be read${last ? `: ${last.slice(0, 200)}` : ''}`, 'unreadable'));
      }
      resolve({ stdout, stderr });
    });
  });
}

const ratio = (text: string | undefined): number | null => {
  if (!text) return null;
  const [n, d] = text.split('/').map(Number);
  const value = d ? n! / d : n!;
  return Number.isFinite(value) && value > 0 && value < 1000 ? value : null;
};

export async function probeFile(tools: MediaTools, file: string): Promise<ProbeInfo> {
  const { stdout } = await run(tools.ffprobe, ['-v', 'error', ...LOCAL_ONLY, '-print_format', 'json', '-show_streams', '-show_format', file], 30_000);
  const info = JSON.parse(stdout) as {
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string; bit_rate?: string }[];
    format?: { bit_rate?: string; duration?: string };
  };
  const video = info.streams?.find((s) => s.codec_type === 'video');
  const bitrate = Number(video?.bit_rate ?? info.format?.bit_rate);
  return {
    codec: video?.codec_name ?? null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    fps: ratio(video?.avg_frame_rate) ?? ratio(video?.r_frame_rate),
    bitrateKbps: Number.isFinite(bitrate) && bitrate > 0 ? Math.round(bitrate / 1000) : null,
    audio: Boolean(info.streams?.some((s) => s.codec_type === 'audio')),
    durationSeconds: Number(info.format?.duration) || null,
  };
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/** Sums "start … end/duration" spans from a detector's log lines; an open span runs to the sample's end. */
function spanSeconds(stderr: string, startKey: RegExp, durationKey: RegExp, end: number): number {
  let total = 0;
  for (const m of stderr.matchAll(durationKey)) total += Number(m[1]) || 0;
  const starts = [...stderr.matchAll(startKey)].map((m) => Number(m[1]));
  const durations = [...stderr.matchAll(durationKey)].length;
  if (starts.length > durations) total += Math.max(0, end - starts.at(-1)!);
  return total;
}

/**
 * `still`: also keep one frame of the same decode (the sample's middle frame, at most STILL_WIDTH
 * wide, as a JPEG in `still.out`): a branch of the one filter graph, so the picture costs one
 * scaled frame, not a second decode. `still.expectedSeconds` is how long the sample should be.
 */
export async function sampleFile(tools: MediaTools, file: string, seconds: number, still?: { out: string; expectedSeconds: number }): Promise<SampleMetrics> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-sample-'));
  const metaFile = path.join(dir, 'frames.txt');
  try {
    const filters = [
      `fps=${SAMPLE_FPS}`,
      "scale=-2:'min(360,ih)'",
      'signalstats',
      'blackdetect=d=0.5:pix_th=0.10',
      'freezedetect=n=0.003:d=2',
      'blurdetect',
      'scdet=t=10',
      `metadata=print:file=${metaFile.replace(/[\\':]/g, '\\$&')}`,
    ].join(',');
    const middle = still ? Math.max(0, Math.round((Math.min(seconds, still.expectedSeconds) * SAMPLE_FPS) / 2)) : 0;
    const outputs = still
      ? [
          '-filter_complex',
          `[0:v]fps=${SAMPLE_FPS},split=2[m][s];[m]${filters.slice(filters.indexOf(',') + 1)}[mo];[s]select='eq(n\\,${middle})',scale='min(${STILL_WIDTH},iw)':-2[so]`,
          '-map', '[mo]', '-f', 'null', '-',
          '-map', '[so]', '-frames:v', '1', '-q:v', '5', '-c:v', 'mjpeg', '-f', 'image2', '-update', '1', '-y', still.out,
        ]
      : ['-an', '-sn', '-vf', filters, '-f', 'null', '-'];
    const { stderr } = await run(tools.ffmpeg, ['-hide_banner', '-nostats', '-benchmark', ...LOCAL_ONLY, '-t', String(seconds), '-i', file, ...outputs], 60_000);
    const frames = (await readFile(metaFile, 'utf8').catch(() => '')).split(/\n(?=frame:)/);
    const values = (key: string) => frames.flatMap((f) => {
      const m = new RegExp(`${key.replace(/\./g, '\\.')}=([-\\d.]+)`).exec(f);
      const v = m ? Number(m[1]) : NaN;
      return Number.isFinite(v) ? [v] : [];
    });
    const sampled = frames.filter((f) => f.startsWith('frame:')).length / SAMPLE_FPS;
    const end = sampled || seconds;
    const black = spanSeconds(stderr, /black_start:([\d.]+)/g, /black_duration:([\d.]+)/g, end);
    const frozen = spanSeconds(stderr, /freeze_start: ([\d.]+)/g, /freeze_duration: ([\d.]+)/g, end);
    const blurMean = /blur mean: ([\d.]+)/.exec(stderr);
    const cpu = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
    return {
      sampledSeconds: Math.round(end * 10) / 10,
      blackRatio: Math.min(1, black / end),
      frozenRatio: Math.min(1, frozen / end),
      blur: blurMean ? Number(blurMean[1]) : null,
      brightness: mean(values('lavfi.signalstats.YAVG')),
      motion: mean(values('lavfi.scd.score')),
      cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A still is this wide at most (a small thumbnail in the console, cheap to take and to store). */
export const STILL_WIDTH = 320;

/**
 * One frame of the local sample, `atSeconds` into it (0: its first), as a JPEG at most STILL_WIDTH
 * wide (input seeking, one frame decoded: a small fraction of the sample's cost). Written to `out`,
 * returned; a seek that finds no frame writes nothing, and reading `out` fails.
 */
export async function grabFrame(tools: MediaTools, file: string, atSeconds: number, out: string): Promise<Buffer> {
  await run(
    tools.ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-nostdin', ...LOCAL_ONLY, ...(atSeconds > 0 ? ['-ss', atSeconds.toFixed(2)] : []), '-i', file, '-map', '0:v:0', '-frames:v', '1', '-vf', `scale='min(${STILL_WIDTH},iw)':-2`, '-q:v', '5', '-f', 'image2', '-update', '1', '-c:v', 'mjpeg', '-y', out],
    15_000,
  );
  return readFile(out);
}
