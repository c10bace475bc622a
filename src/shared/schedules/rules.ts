/**
 * The rules that can decide what a screen shows, strongest first (src/shared/schedules/precedence.ts
 * applies them). Apart, so the socket contract can name them without the time-zone code.
 */
export const SHOWN_RULES = ['takeover', 'address', 'assigned', 'group-schedule', 'group', 'schedule', 'default'] as const;
export type ShownRule = (typeof SHOWN_RULES)[number];
