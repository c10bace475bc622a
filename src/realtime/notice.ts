/** What travels between nodes after a commit, and what presence says a screen shows. */
import type { DomainChange } from '../domain/changes.ts';
import type { ScreenPresence } from '../shared/api/screens.ts';

/** One batch of committed changes as every node receives it. */
export interface ChangeNotice {
  /** The cluster-wide version of the batch (screens and consoles order by it). */
  version: number;
  changes: DomainChange[];
  /** What the origin node worked out once for every node, by feature name (JSON). */
  facts: Record<string, unknown>;
}

/** What presence says a screen shows, and why: set by the screen feature when it registers or moves. */
export type Shows = Pick<ScreenPresence, 'follows' | 'scene_id' | 'group_id' | 'rule' | 'position'>;
