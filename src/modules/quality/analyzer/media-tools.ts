/**
 * ffprobe and ffmpeg on a local file (never on a URL: what they read was fetched by the safe
 * fetcher first). One decode of a bounded sample feeds every measure, at 10 fps: the change
 * between frames at full resolution (scdet: whether the picture repeats, stillness.ts — a
 * downscale averages away the sensor noise that tells a quiet scene from a stuck one), then at
 * most 360 lines blackdetect, blurdetect and signalstats (YAVG), a 64 × 36 grey copy of every
 * frame for motion and activity (motion.ts), and the still; and for a live stream every decoded
 * frame's 16 × 9 area means for the replay fingerprint (replay.ts) —
 * the verdicts do not need more, and the CPU cost stays small (bench:quality).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { framesOf, MOTION_FPS, MOTION_HEIGHT, MOTION_WIDTH, summarizeMotion } from './motion.ts';
import { PRINT_HEIGHT, PRINT_MAX_FPS, PRINT_WIDTH, printFramesOf } from './replay.ts';
import { judgeStillness, type StillnessReading } from './stillness.ts';

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
  /** Share of the sample's frame pairs that are the same picture at full resolution (stillness.ts). */
  frozenRatio: number;
  /** Whether that repeating is frozen, or can't be told from a still scene (null: too few frames). */
  stillness: StillnessReading | null;
  /** The video's bits per pixel per frame in the sample (null: its size or rate unknown). */
  videoBitsPerPixel: number | null;
  blur: number | null;
  brightness: number | null;
  /** Mean region change (grey levels): how much the whole picture moves. */
  motion: number | null;
  /** Local motion above the sample's noise floor (grey levels, motion.ts). */
  activity: number | null;
  noiseFloor: number | null;
  /** Frames a second of the motion frames (10, or the stream's own rate when lower). */
  motionFps: number;
  /** CPU seconds ffmpeg spent (its -benchmark line), for bench:quality. */
  cpuSeconds: number | null;
}

/** The sample, its motion frames and its print frames (not stored as they are). */
export interface Sample {
  metrics: SampleMetrics;
  motionFrames: Uint8Array[];
  /** Every decoded frame's replay print and their rate, when asked for (replay.ts). */
  print: { frames: Uint16Array[]; fps: number } | null;
}

const SAMPLE_FPS = MOTION_FPS;
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

export interface SampleOptions {
  /**
   * Also keep one frame of the same decode (the sample's middle frame, at most STILL_WIDTH wide,
   * as a JPEG in `out`): a branch of the one filter graph, so the picture costs one scaled frame,
   * not a second decode. `expectedSeconds` is how long the sample should be.
   */
  still?: { out: string; expectedSeconds: number } | undefined;
  /**
   * Its probe: a stream slower than 10 fps is sampled at its own rate (repeating its frames would
   * look frozen), and its size and rate give the bits per pixel.
   */
  source?: Pick<ProbeInfo, 'fps' | 'width' | 'height'> | undefined;
  /** Also print every decoded frame for the replay fingerprint (replay.ts): a live stream's sample. */
  print?: boolean | undefined;
}

export async function sampleFile(tools: MediaTools, file: string, seconds: number, { still, source = { fps: null, width: null, height: null }, print = false }: SampleOptions = {}): Promise<Sample> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nw-sample-'));
  const metaFile = path.join(dir, 'frames.txt');
  const motionFile = path.join(dir, 'motion.gray');
  const printFile = path.join(dir, 'print.gray16');
  const sourceFps = source.fps;
  const fps = sourceFps && sourceFps > 0 && sourceFps < SAMPLE_FPS ? Math.round(sourceFps * 100) / 100 : SAMPLE_FPS;
  try {
    const measures = ['signalstats', 'blackdetect=d=0.5:pix_th=0.10', 'blurdetect', `metadata=print:file=${metaFile.replace(/[\\':]/g, '\\$&')}`].join(',');
    const middle = still ? Math.max(0, Math.round((Math.min(seconds, still.expectedSeconds) * fps) / 2)) : 0;
    const branches = still ? 3 : 2;
    // The print takes every decoded frame (at most PRINT_MAX_FPS) before the 10 fps pick, so a
    // replay lines up frame for frame whatever the loop's length; area means of the full picture
    // at 16 bits keep the sensor's noise (replay.ts).
    const printRate = sourceFps && sourceFps > PRINT_MAX_FPS ? `fps=${PRINT_MAX_FPS},` : '';
    const graph = [
      ...(print ? [`[0:v]split=2[v][p]`, `[p]${printRate}scale=${PRINT_WIDTH}:${PRINT_HEIGHT}:flags=area,format=gray16le[po]`] : []),
      // scdet before the scale: its per-frame change is read at full resolution (threshold 100: it
      // only measures, it never marks a scene change).
      `${print ? '[v]' : '[0:v]'}fps=${fps},scdet=threshold=100,scale=-2:'min(360,ih)',split=${branches}[m][g]${still ? '[s]' : ''}`,
      `[m]${measures}[mo]`,
      `[g]scale=${MOTION_WIDTH}:${MOTION_HEIGHT}:flags=area,format=gray[go]`,
      ...(still ? [`[s]select='eq(n\\,${middle})',scale='min(${STILL_WIDTH},iw)':-2[so]`] : []),
    ].join(';');
    const outputs = [
      '-filter_complex', graph,
      '-map', '[mo]', '-f', 'null', '-',
      '-map', '[go]', '-f', 'rawvideo', '-y', motionFile,
      ...(still ? ['-map', '[so]', '-frames:v', '1', '-q:v', '5', '-c:v', 'mjpeg', '-f', 'image2', '-update', '1', '-y', still.out] : []),
      ...(print ? ['-map', '[po]', '-f', 'rawvideo', '-y', printFile] : []),
    ];
    // verbose: its closing lines say how many bytes of video were read (the bits per pixel).
    const { stderr } = await run(tools.ffmpeg, ['-hide_banner', '-nostats', '-loglevel', 'verbose', '-benchmark', ...LOCAL_ONLY, '-t', String(seconds), '-i', file, '-an', '-sn', ...outputs], 60_000);
    const frames = (await readFile(metaFile, 'utf8').catch(() => '')).split(/\n(?=frame:)/);
    const values = (key: string) => frames.flatMap((f) => {
      const m = new RegExp(`${key.replace(/\./g, '\\.')}=([-\\d.]+)`).exec(f);
      const v = m ? Number(m[1]) : NaN;
      return Number.isFinite(v) ? [v] : [];
    });
    const sampled = frames.filter((f) => f.startsWith('frame:')).length / fps;
    const end = sampled || seconds;
    const black = spanSeconds(stderr, /black_start:([\d.]+)/g, /black_duration:([\d.]+)/g, end);
    const blurMean = /blur mean: ([\d.]+)/.exec(stderr);
    const cpu = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(stderr);
    const motionFrames = framesOf(await readFile(motionFile).catch(() => Buffer.alloc(0)));
    const motion = summarizeMotion(motionFrames);
    // scdet's mafd: the mean absolute difference from the frame before, in % of full scale (its first frame has none).
    const pairChanges = values('lavfi.scd.mafd').slice(1).map((percent) => (percent * 255) / 100);
    const videoBytes = /Input stream #\d+:\d+ \(video\): \d+ packets read \((\d+) bytes\)/.exec(stderr);
    const pixels = (source.width ?? 0) * (source.height ?? 0) * (sourceFps ?? 0);
    const videoBitsPerPixel = videoBytes && pixels > 0 && end > 0 ? Math.round(((Number(videoBytes[1]) * 8) / end / pixels) * 1000) / 1000 : null;
    const stillness = judgeStillness(pairChanges, videoBitsPerPixel);
    return {
      metrics: {
        sampledSeconds: Math.round(end * 10) / 10,
        blackRatio: Math.min(1, black / end),
        frozenRatio: stillness?.repeatRatio ?? 0,
        stillness,
        videoBitsPerPixel,
        blur: blurMean ? Number(blurMean[1]) : null,
        brightness: mean(values('lavfi.signalstats.YAVG')),
        motion: motion?.motion ?? null,
        activity: motion?.activity ?? null,
        noiseFloor: motion?.noiseFloor ?? null,
        motionFps: fps,
        cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null,
      },
      motionFrames,
      print: print ? await printOf(printFile, sourceFps, end) : null,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The print frames ffmpeg wrote, at the stream's own rate (or, unknown, the rate they came at over the sample). */
async function printOf(file: string, sourceFps: number | null, sampledSeconds: number): Promise<{ frames: Uint16Array[]; fps: number }> {
  const frames = printFramesOf(await readFile(file).catch(() => Buffer.alloc(0)));
  const fps = sourceFps ? Math.min(Math.round(sourceFps * 100) / 100, PRINT_MAX_FPS) : Math.round(frames.length / sampledSeconds);
  return { frames, fps };
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
