/** How the console says a camera's clock skew (CameraClockNote.tsx). */

/**
 * "1 h 0 min fast", "10 s slow", "2 min fast": minutes from a minute up (the analysis reads the
 * skew at a live edge up to a segment old, so the seconds of a large skew say nothing).
 */
export function describeSkew(skewMs: number): string {
  const seconds = Math.round(Math.abs(skewMs) / 1000);
  const direction = skewMs > 0 ? 'fast' : 'slow';
  if (seconds < 60) return `${seconds} s ${direction}`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  return `${h > 0 ? `${h} h ${minutes % 60} min` : `${minutes} min`} ${direction}`;
}
