/** Connected screens as admins see them, and what admins can tell them to do. */
import { z } from 'zod';

/** Reload: the page loads afresh. Identify: the screen shows its own name in large type for a few seconds. */
const SCREEN_COMMANDS = ['reload', 'identify'] as const;
export type ScreenCommandName = (typeof SCREEN_COMMANDS)[number];

/** POST /api/screens/command: one screen (its connection id) or, without `id`, every wall and kiosk. */
export const ScreenCommandRequest = z.object({
  command: z.enum(SCREEN_COMMANDS),
  id: z.string().trim().min(1).max(64).optional(),
});
export type ScreenCommandRequest = z.infer<typeof ScreenCommandRequest>;

export const ScreenListQuery = z.object({
  /** Also list screens seen in the last 24 hours that are offline now. */
  include_offline: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
});
