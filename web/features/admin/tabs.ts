/**
 * The console's tabs, each at its own URL (/admin/<path>) and in its own chunk. A later feature
 * plugs a tab in by adding one entry here; the shell and the router read this list. Every page
 * loads it (the router does): it imports no console code — a tab's count lives in tab-badges.ts.
 */
import type { ComponentType } from 'react';
import type { RouteName } from '../../../src/shared/api/routes.ts';

export interface AdminTab {
  path: string;
  label: string;
  /** The tab's page, loaded when it is first opened. */
  load: () => Promise<{ default: ComponentType }>;
  /** Shown only to a role that may make this call (the tab is about nothing else). */
  needs?: RouteName;
}

export const ADMIN_TABS: readonly AdminTab[] = [
  { path: 'streams', label: 'Streams', load: () => import('./streams/StreamsTab.tsx') },
  { path: 'scenes', label: 'Scenes', load: () => import('./scenes/ScenesTab.tsx') },
  { path: 'screens', label: 'Screens', load: () => import('./screens/ScreensTab.tsx') },
  { path: 'schedule', label: 'Schedule', load: () => import('./schedule/ScheduleTab.tsx') },
  { path: 'plays', label: 'Proof of play', load: () => import('./plays/PlaysTab.tsx') },
  { path: 'discovery', label: 'Discovery', load: () => import('./discovery/DiscoveryTab.tsx') },
  { path: 'submissions', label: 'Submissions', load: () => import('./submissions/SubmissionsTab.tsx') },
  { path: 'ratings', label: 'Ratings', load: () => import('./ratings/RatingsTab.tsx') },
  { path: 'alerts', label: 'Alerts', load: () => import('./alerts/AlertsTab.tsx') },
  { path: 'activity', label: 'Activity', load: () => import('./activity/ActivityTab.tsx') },
  { path: 'team', label: 'Team', needs: 'team.list', load: () => import('./team/TeamTab.tsx') },
  { path: 'tokens', label: 'API tokens', needs: 'auth.tokens', load: () => import('./tokens/TokensTab.tsx') },
  { path: 'backups', label: 'Backups', needs: 'backup.list', load: () => import('./backups/BackupsTab.tsx') },
];
