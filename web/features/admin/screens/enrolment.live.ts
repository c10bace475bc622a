/**
 * Enrolment's live slice (issue 41): the browsers waiting for approval and the approved screens,
 * fetched whole and fetched again whenever the server says either changed (`enrolment:updated`:
 * a pairing request, an approval, a rename, a revocation). Only an operator sees who waits.
 */
import { atom } from 'jotai';
import type { EnrolmentSettingDto, PairingDto } from '../../../../src/shared/api/index.ts';
import { permissionFor } from '../access.ts';
import { adminApi } from '../admin-api.ts';
import { fetchValue, type LiveSlice, type LiveValue } from '../live/live.ts';
import { meAtom } from '../access.ts';
import { store } from '../../../lib/store.ts';

export interface Enrolment extends EnrolmentSettingDto {
  waiting: PairingDto[];
}

export const enrolmentAtom = atom<LiveValue<Enrolment>>(null);

async function loadEnrolment(): Promise<Enrolment> {
  const mayApprove = permissionFor(store.get(meAtom)?.role, 'screen.pairings').allowed;
  const [enrolled, waiting] = await Promise.all([adminApi.enrolled(), mayApprove ? adminApi.pairings().catch(() => []) : Promise.resolve([])]);
  return { ...enrolled, waiting };
}

export const enrolmentLive: LiveSlice = {
  name: 'enrolment',
  load() {
    void fetchValue(enrolmentAtom, loadEnrolment, 'Failed to load screens waiting for approval');
  },
  listen(socket) {
    socket.on('enrolment:updated', () => void fetchValue(enrolmentAtom, loadEnrolment, 'Failed to load screens waiting for approval'));
  },
};
