/** Admin consoles refresh their activity list when a command was journaled. */
import { isJournaled } from '../../domain/changes.ts';
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';

export const activityPushes: FeaturePushes = {
  name: 'activity',
  rooms: [KIND_ROOMS.admin],
  async pushes(changes, { version }) {
    const count = changes.filter(isJournaled).length;
    return count > 0 ? [push([KIND_ROOMS.admin], 'activity:recorded', { version, count })] : [];
  },
};
