/**
 * The video walls' scenes (bench:wall, bench:flip-picture): four scenes over ten cameras, in
 * turn — each change keeps two tiles in place (or none) and brings three or five, and the first
 * tile changes every time.
 */
export const VIDEO_SCENES = [
  [0, 1, 2, 3, 4],
  [5, 6, 7, 3, 4],
  [8, 9, 0, 3, 4],
  [5, 1, 2, 6, 7],
] as const;
