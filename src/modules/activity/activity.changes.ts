/** Admin consoles refresh their activity list when a command was journaled. */
import { push, type FeaturePushes } from '../../realtime/pushes.ts';
import { KIND_ROOMS } from '../../realtime/rooms.ts';

export const activityPushes: FeaturePushes = {
  name: 'activity',
  rooms: [KIND_ROOMS.admin],
  async pushes(changes, { version }) {
    return changes.length > 0 ? [push([KIND_ROOMS.admin], 'activity:recorded', { version, count: changes.length })] : [];
  },
};
