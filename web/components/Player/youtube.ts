/** Reading the YouTube embed's postMessage reports (its JS API is enabled by youtubeEmbedUrl). */

const PLAYING = 1;

/** True when a message from a YouTube frame says the video is playing. */
export function youtubeIsPlaying(data: unknown): boolean {
  let message: unknown = data;
  if (typeof data === 'string') {
    try {
      message = JSON.parse(data);
    } catch {
      return false;
    }
  }
  if (typeof message !== 'object' || message === null) return false;
  const info = (message as { info?: unknown }).info;
  if (typeof info !== 'object' || info === null) return false;
  return (info as { playerState?: unknown }).playerState === PLAYING;
}
