/**
 * A stream's still, taken by its analysis: a frame of a direct stream's local sample (a branch of
 * the sampling decode itself; a short ffmpeg call of its own only when that branch got no frame), or an embedded stream's platform thumbnail
 * fetched through the safe fetcher (small, image types only) — stored and served from our
 * origin, never hot-linked. What is stored is checked to be the picture it claims (its first
 * bytes), so our origin never serves anything but a JPEG, WebP or PNG picture. A still that
 * cannot be taken never fails the analysis: it is left out, and the stream keeps its last one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SafeFetchError, type SafeFetcher } from '../../../http/safe-fetch.ts';
import type { StillPicture } from '../../streams/stream-stills.ts';
import { grabFrame, type MediaTools } from './media-tools.ts';

/** A platform thumbnail larger than this is refused (YouTube's and Vimeo's are tens of kilobytes). */
export const THUMBNAIL_MAX_BYTES = 512 * 1024;
/** Twitch's preview template is filled in at this size (its documented `{width}x{height}`). */
export const THUMBNAIL_SIZE = { width: 320, height: 180 } as const;

/** What a picture's first bytes say it is, and its size; null when it is none of the types we store. */
export function pictureInfo(bytes: Buffer): Omit<StillPicture, 'bytes'> | null {
  // JPEG: SOI, then segments until a start-of-frame marker (SOF0–SOF15, except DHT, JPG and DAC).
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    let i = 2;
    while (i + 9 < bytes.length) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1]!;
      if (marker === 0xff) {
        i++; // fill byte
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2; // standalone markers carry no length
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = bytes.readUInt16BE(i + 5);
        const width = bytes.readUInt16BE(i + 7);
        return width > 0 && height > 0 ? { contentType: 'image/jpeg', width, height } : null;
      }
      i += 2 + bytes.readUInt16BE(i + 2);
    }
    return null;
  }
  // PNG: signature, then IHDR.
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && bytes.toString('latin1', 12, 16) === 'IHDR') {
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    return width > 0 && height > 0 ? { contentType: 'image/png', width, height } : null;
  }
  // WebP: RIFF….WEBP, then a lossy (VP8), lossless (VP8L) or extended (VP8X) header.
  if (bytes.length >= 30 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = bytes.toString('latin1', 12, 16);
    let size: { width: number; height: number } | null = null;
    if (chunk === 'VP8 ') size = { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const [b0, b1, b2, b3] = [bytes[21]!, bytes[22]!, bytes[23]!, bytes[24]!];
      size = { width: 1 + (((b1 & 0x3f) << 8) | b0), height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)) };
    }
    if (chunk === 'VP8X') size = { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
    return size && size.width > 0 && size.height > 0 ? { contentType: 'image/webp', ...size } : null;
  }
  return null;
}

/**
 * A frame from the middle of the sample just decoded (`dir`: the analysis's own temp folder), or
 * its first frame when seeking finds none — a live sample that spans a discontinuity (a loop, an
 * ad break, a timestamp wrap) has no frame at the middle's timestamp.
 */
export async function stillOfSample(tools: MediaTools, file: string, dir: string, sampledSeconds: number, decoded?: string): Promise<StillPicture | null> {
  // The sampling decode's own frame first (no decode of its own); seeking only when it has none.
  if (decoded) {
    const bytes = await readFile(decoded).catch(() => null);
    const info = bytes ? pictureInfo(bytes) : null;
    if (bytes && info?.contentType === 'image/jpeg') return { ...info, bytes };
  }
  for (const at of sampledSeconds > 1 ? [sampledSeconds / 2, 0] : [0]) {
    try {
      const bytes = await grabFrame(tools, file, at, path.join(dir, `still-${at}.jpg`));
      const info = pictureInfo(bytes);
      if (info?.contentType === 'image/jpeg') return { ...info, bytes };
    } catch {
      // no frame there (or ffmpeg refused): try the start; a picture is a nicety, the analysis stands without it
    }
  }
  return null;
}

export type ThumbnailResult = { still: StillPicture; error?: undefined } | { still: null; error: string };

/** A platform's thumbnail, through the safe fetcher: small, an image by its type and by its bytes. */
export async function fetchThumbnail(fetcher: SafeFetcher, url: string): Promise<ThumbnailResult> {
  const refused = (error: string): ThumbnailResult => ({ still: null, error });
  try {
    const response = await fetcher.fetch(url, { accept: 'image/jpeg,image/webp,image/png;q=0.9', maxBytes: THUMBNAIL_MAX_BYTES, timeoutMs: 10_000 });
    if (response.status !== 200) return refused(`The thumbnail answered HTTP ${response.status}`);
    if (!/^image\/(jpeg|pjpeg|webp|png)\b/i.test(response.contentType)) return refused(`The thumbnail is not a picture (${response.contentType.split(';')[0] || 'no type'})`);
    const info = pictureInfo(response.body);
    if (!info) return refused('The thumbnail is not a JPEG, WebP or PNG picture');
    return { still: { ...info, bytes: response.body } };
  } catch (error) {
    if (error instanceof SafeFetchError) {
      if (error.reason === 'blocked') return refused('The thumbnail address is not allowed (not a public address)');
      if (error.reason === 'too-large') return refused('The thumbnail is too large');
      if (error.reason === 'timeout') return refused('The thumbnail did not arrive in time');
    }
    return refused('The thumbnail could not be fetched');
  }
}
