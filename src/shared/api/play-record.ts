/**
 * One proof-of-play record as a screen sends it — the one statement of its shape: the socket
 * contract checks reports against it (src/shared/api/plays.ts), the rules take its type
 * (src/shared/plays.ts), and the screens check what they kept in storage with a validator the
 * build compiles from it (web/build/compiled-checks.ts), so their code carries no zod.
 */
import { z } from 'zod';
import { Id } from './common.ts';
import { MAX_SCENE_STREAMS } from '../constants.ts';

/** Times in ms since the epoch, on the server's clock as the screen estimates it. */
export const PlayRecord = z.strictObject({
  stream_id: Id,
  /** 1–5. */
  position: z.number().int().min(1).max(MAX_SCENE_STREAMS),
  scene_id: Id.nullable(),
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  playing_ms: z.number().int().nonnegative(),
});
export type PlayRecord = z.output<typeof PlayRecord>;
