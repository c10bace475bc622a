/**
 * The programme's live slice: screen groups, each screen's place, schedule entries and the
 * takeover — one small value, fetched whole and pushed whole (`programme:updated`), merged by
 * the versioned rule like every other live value.
 */
import { atom } from 'jotai';
import type { ProgrammeDto } from '../../../../src/shared/api/index.ts';
import type { Programme } from '../../../../src/shared/schedules/precedence.ts';
import { adminApi } from '../admin-api.ts';
import { fetchValue, pushValue, type LiveSlice, type LiveValue } from '../live/live.ts';

export const programmeAtom = atom<LiveValue<ProgrammeDto>>(null);

export const programmeLive: LiveSlice = {
  name: 'programme',
  load() {
    void fetchValue(programmeAtom, adminApi.programme, 'Failed to load screen groups and schedules');
  },
  listen(socket) {
    socket.on('programme:updated', ({ version, ...programme }) => pushValue(programmeAtom, programme, version));
  },
};

/** What each rule means, as the Screens tab says why a screen shows what it shows. */
export const RULE_TEXT = {
  takeover: 'the takeover',
  address: 'its address',
  assigned: 'its own scene',
  'group-schedule': "its group's schedule",
  group: "its group's scene",
  schedule: 'the building schedule',
  default: 'the default scene',
} as const;

/** The programme as the shared rules read it (the console previews with the server's own rules). */
export function programmeRules(dto: ProgrammeDto): Programme {
  return {
    takeover: dto.takeover ? { scene_id: dto.takeover.scene_id, group_ids: dto.takeover.group_ids, ends_at: dto.takeover.ends_at } : null,
    assigned: new Map(dto.placements.flatMap((p) => (p.scene_id === null ? [] : [[p.device, p.scene_id] as const]))),
    groupScenes: new Map(dto.groups.map((g) => [g.id, g.scene_id])),
    schedules: dto.schedules,
  };
}
