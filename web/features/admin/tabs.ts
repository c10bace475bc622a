/**
 * The console's tabs, each at its own URL (/admin/<path>) and in its own chunk. A later feature
 * plugs a tab in by adding one entry here; the shell and the router read this list.
 */
import type { Atom } from 'jotai';
import type { ComponentType } from 'react';
import { pendingCountAtom } from './submissions/submissions.live.ts';

export interface AdminTab {
  path: string;
  label: string;
  /** The tab's page, loaded when it is first opened. */
  load: () => Promise<{ default: ComponentType }>;
  /** A count shown next to the label when above 0, and what it counts ("pending"). */
  badge?: { count: Atom<number>; label: string };
}

export const ADMIN_TABS: readonly AdminTab[] = [
  { path: 'streams', label: 'Streams', load: () => import('./streams/StreamsTab.tsx') },
  { path: 'scenes', label: 'Scenes', load: () => import('./scenes/ScenesTab.tsx') },
  { path: 'screens', label: 'Screens', load: () => import('./screens/ScreensTab.tsx') },
  { path: 'discovery', label: 'Discovery', load: () => import('./discovery/DiscoveryTab.tsx') },
  { path: 'submissions', label: 'Submissions', load: () => import('./submissions/SubmissionsTab.tsx'), badge: { count: pendingCountAtom, label: 'pending' } },
  { path: 'ratings', label: 'Ratings', load: () => import('./ratings/RatingsTab.tsx') },
  { path: 'activity', label: 'Activity', load: () => import('./activity/ActivityTab.tsx') },
  { path: 'tokens', label: 'API tokens', load: () => import('./tokens/TokensTab.tsx') },
];
