/**
 * Counts shown beside tab labels (when above 0), by tab path, and what they count. Apart from
 * tabs.ts because the router, and so every page, loads that list; only the console's shell
 * loads this (and the live slices behind the counts).
 */
import type { Atom } from 'jotai';
import { openIncidentCountAtom } from './alerts/alerts.live.ts';
import { pendingCountAtom } from './submissions/submissions.live.ts';

export interface TabBadge {
  count: Atom<number>;
  label: string;
}

export const TAB_BADGES: Readonly<Record<string, TabBadge>> = {
  submissions: { count: pendingCountAtom, label: 'pending' },
  alerts: { count: openIncidentCountAtom, label: 'open' },
};
