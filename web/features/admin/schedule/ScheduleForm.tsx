/**
 * One schedule entry, new or edited: its scene, its target (every screen, some groups, some
 * screens), its priority, and when — weekly (days, start, end, overnight, time zone) or once
 * (start and end). The server checks every rule and answers with the sentence shown here.
 */
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import type { ScheduleDto, SceneDto, ScreenGroupDto } from '../../../../src/shared/api/index.ts';
import { MAX_PRIORITY } from '../../../../src/shared/api/programme.ts';
import { ErrorBox } from '../../../components/FormParts.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { screensAtom } from '../presence/presence.live.ts';
import { SceneSelect } from '../programme/SceneSelect.tsx';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "2026-11-24T09:30" for a datetime-local input, from an ISO instant (the browser's zone). */
function localInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

interface Draft {
  name: string;
  sceneId: number | '';
  priority: number;
  target: 'all' | 'groups' | 'screens';
  groupIds: number[];
  devices: string[];
  kind: 'weekly' | 'once';
  days: number[];
  start: string;
  end: string;
  overnight: boolean;
  timeZone: string;
  startsAt: string;
  endsAt: string;
}

function draftOf(entry: ScheduleDto | null): Draft {
  const w = entry?.when;
  return {
    name: entry?.name ?? '',
    sceneId: entry?.scene_id ?? '',
    priority: entry?.priority ?? 0,
    target: entry?.target.kind ?? 'all',
    groupIds: entry?.target.kind === 'groups' ? [...entry.target.group_ids] : [],
    devices: entry?.target.kind === 'screens' ? [...entry.target.devices] : [],
    kind: w?.kind ?? 'weekly',
    days: w?.kind === 'weekly' ? [...w.days] : [1, 2, 3, 4, 5],
    start: w?.kind === 'weekly' ? w.start : '09:00',
    end: w?.kind === 'weekly' ? w.end : '12:00',
    overnight: w?.kind === 'weekly' ? w.overnight : false,
    timeZone: w?.kind === 'weekly' ? w.time_zone : HERE,
    startsAt: w?.kind === 'once' ? localInput(w.starts_at) : '',
    endsAt: w?.kind === 'once' ? localInput(w.ends_at) : '',
  };
}

export function ScheduleForm(props: { entry: ScheduleDto | null; scenes: readonly SceneDto[]; groups: readonly ScreenGroupDto[]; onClose: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.entry));
  const [error, setError] = useState<string | null>(null);
  const may = useMay();
  const screens = (useAtomValue(screensAtom, { store }).list?.value ?? []).filter((s) => (s.kind === 'wall' || s.kind === 'kiosk') && s.device);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (draft.sceneId === '') return setError('Choose a scene');
    const target = draft.target === 'all' ? { kind: 'all' as const } : draft.target === 'groups' ? { kind: 'groups' as const, group_ids: draft.groupIds } : { kind: 'screens' as const, devices: draft.devices };
    const when =
      draft.kind === 'weekly'
        ? { kind: 'weekly' as const, days: draft.days, start: draft.start, end: draft.end, overnight: draft.overnight, time_zone: draft.timeZone }
        : { kind: 'once' as const, starts_at: draft.startsAt ? new Date(draft.startsAt).toISOString() : '', ends_at: draft.endsAt ? new Date(draft.endsAt).toISOString() : '' };
    const input = { name: draft.name.trim() || null, scene_id: draft.sceneId, priority: draft.priority, target, when };
    try {
      if (props.entry) await adminApi.updateSchedule({ id: props.entry.id, ...input });
      else await adminApi.createSchedule(input);
      showSuccess(props.entry ? 'Schedule entry saved' : 'Schedule entry added');
      props.onClose();
    } catch (failure) {
      setError(serverSentence(failure, 'Failed to save the schedule entry'));
      showFailure('Failed to save the schedule entry', failure);
    }
  }

  return (
    <Modal title={props.entry ? 'Edit schedule entry' : 'Add schedule entry'} onClose={props.onClose} wide>
      <form className="form-grid" onSubmit={save}>
        <label className="field">
          Name (optional)
          <input className="control" value={draft.name} maxLength={80} onChange={(e) => set('name', e.target.value)} placeholder="Ocean mornings" />
        </label>
        <label className="field">
          Scene
          <SceneSelect scenes={props.scenes} value={draft.sceneId === '' ? null : draft.sceneId} onChange={(id) => set('sceneId', id ?? '')} none="Choose a scene" required />
        </label>
        <label className="field">
          Priority (0–{MAX_PRIORITY})
          <input className="control" type="number" min={0} max={MAX_PRIORITY} value={draft.priority} onChange={(e) => set('priority', Number(e.target.value))} />
        </label>

        <fieldset className="field span-all schedule-choice">
          <legend>For</legend>
          {(['all', 'groups', 'screens'] as const).map((kind) => (
            <label key={kind} className="field--check">
              <input type="radio" name="target" checked={draft.target === kind} onChange={() => set('target', kind)} />
              {kind === 'all' ? 'Every screen' : kind === 'groups' ? 'Some groups' : 'Some screens'}
            </label>
          ))}
        </fieldset>
        {draft.target === 'groups' && (
          <fieldset className="field span-all schedule-choice" aria-label="Groups">
            {props.groups.length === 0 && <span className="panel__hint">No groups yet: create them in the Screens tab.</span>}
            {props.groups.map((g) => (
              <label key={g.id} className="field--check">
                <input type="checkbox" checked={draft.groupIds.includes(g.id)} onChange={(e) => set('groupIds', toggle(draft.groupIds, g.id, e.target.checked))} />
                {g.name}
              </label>
            ))}
          </fieldset>
        )}
        {draft.target === 'screens' && (
          <fieldset className="field span-all schedule-choice" aria-label="Screens">
            {screens.length === 0 && <span className="panel__hint">No screen with a device id has been seen in the last day.</span>}
            {screens.map((s) => (
              <label key={s.device} className="field--check">
                <input type="checkbox" checked={draft.devices.includes(s.device!)} onChange={(e) => set('devices', toggle(draft.devices, s.device!, e.target.checked))} />
                {s.name ?? s.device}
              </label>
            ))}
          </fieldset>
        )}

        <fieldset className="field span-all schedule-choice">
          <legend>When</legend>
          <label className="field--check">
            <input type="radio" name="when" checked={draft.kind === 'weekly'} onChange={() => set('kind', 'weekly')} />
            Every week
          </label>
          <label className="field--check">
            <input type="radio" name="when" checked={draft.kind === 'once'} onChange={() => set('kind', 'once')} />
            Once
          </label>
        </fieldset>
        {draft.kind === 'weekly' ? (
          <>
            <fieldset className="field span-all schedule-choice" aria-label="Days">
              {DAYS.map((name, i) => (
                <label key={name} className="field--check">
                  <input type="checkbox" checked={draft.days.includes(i + 1)} onChange={(e) => set('days', toggle(draft.days, i + 1, e.target.checked).sort())} />
                  {name}
                </label>
              ))}
            </fieldset>
            <label className="field">
              Start
              <input className="control" type="time" value={draft.start} onChange={(e) => set('start', e.target.value)} required />
            </label>
            <label className="field">
              End
              <input className="control" type="time" value={draft.end} onChange={(e) => set('end', e.target.value)} required />
            </label>
            <label className="field">
              Time zone
              <input className="control" value={draft.timeZone} onChange={(e) => set('timeZone', e.target.value)} required placeholder="Europe/Berlin" />
            </label>
            <label className="field--check span-all">
              <input type="checkbox" checked={draft.overnight} onChange={(e) => set('overnight', e.target.checked)} />
              Overnight: it ends the next day (22:00–02:00)
            </label>
          </>
        ) : (
          <>
            <label className="field">
              Starts
              <input className="control" type="datetime-local" value={draft.startsAt} onChange={(e) => set('startsAt', e.target.value)} required />
            </label>
            <label className="field">
              Ends
              <input className="control" type="datetime-local" value={draft.endsAt} onChange={(e) => set('endsAt', e.target.value)} required />
            </label>
          </>
        )}
        <ErrorBox error={error} wide />
        <div className="modal__footer span-all">
          <button type="button" className="button button--ghost" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="button" {...may.button(props.entry ? 'programme.updateSchedule' : 'programme.createSchedule')}>
            {props.entry ? 'Save entry' : 'Add entry'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
