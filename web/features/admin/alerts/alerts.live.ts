/**
 * Alerts' live slice: rules, destinations, open and recent incidents, the delivery log — one
 * small value, fetched whole and pushed whole (`alerts:updated`). The open-incident count is
 * the Alerts tab's badge.
 */
import { atom } from 'jotai';
import type { AlertsOverviewDto } from '../../../../src/shared/api/index.ts';
import { adminApi } from '../admin-api.ts';
import { fetchValue, pushValue, valueOf, type LiveSlice, type LiveValue } from '../live/live.ts';

export const alertsAtom = atom<LiveValue<AlertsOverviewDto>>(null);

/** Incidents told and not yet recovered (pending ones are not news yet). */
export const openIncidentCountAtom = atom((get) => valueOf(get(alertsAtom))?.open.filter((i) => i.state === 'open' || i.state === 'clearing').length ?? 0);

export const alertsLive: LiveSlice = {
  name: 'alerts',
  load() {
    void fetchValue(alertsAtom, adminApi.alerts, 'Failed to load alerts');
  },
  listen(socket) {
    socket.on('alerts:updated', ({ version, ...overview }) => pushValue(alertsAtom, overview, version));
  },
};
