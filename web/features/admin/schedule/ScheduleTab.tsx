/**
 * The Schedule tab: what plays on each group this week (a timeline per group, by the server's
 * own rules), a preview of any instant, warnings about equal-priority entries that overlap,
 * and the entries themselves — weekly windows (days, start, end, overnight, time zone) or
 * one-off events, each for every screen, some groups or some screens, with a priority.
 */
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { ScheduleDto, SceneDto } from '../../../../src/shared/api/index.ts';
import { decide } from '../../../../src/shared/schedules/precedence.ts';
import { equalPriorityOverlaps } from '../../../../src/shared/schedules/windows.ts';
import { ConfirmDialog } from '../../../components/Modal.tsx';
import { Table } from '../../../components/DataView.tsx';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime } from '../format.ts';
import { itemsOf } from '../live/live.ts';
import { programmeAtom, programmeRules, RULE_TEXT } from '../programme/programme.live.ts';
import { scenesAtom } from '../scenes/scenes.live.ts';
import { ScheduleForm } from './ScheduleForm.tsx';
import { byDay, runsBetween } from './week.ts';
import '../programme/programme.css';
import './schedule.css';

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const HUE_STEP = 137; // golden-angle hues: neighbouring scene ids get distant colours

/** A scene's colour on the timeline (the default scene is neutral). */
const colourOf = (sceneId: number | null) => (sceneId === null ? 'hsl(150 8% 28%)' : `hsl(${(sceneId * HUE_STEP) % 360} 45% 27%)`);

/** Today's local midnight and the six after it. */
function weekDays(now: number): { start: number; end: number; label: string }[] {
  const first = new Date(now);
  first.setHours(0, 0, 0, 0);
  return Array.from({ length: 7 }, (_, i) => {
    const start = new Date(first);
    start.setDate(first.getDate() + i);
    const end = new Date(start);
    end.setDate(start.getDate() + 1);
    return { start: start.getTime(), end: end.getTime(), label: start.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' }) };
  });
}

export function describeWhen(entry: ScheduleDto): string {
  const w = entry.when;
  if (w.kind === 'once') return `${formatDateTime(w.starts_at)} – ${formatDateTime(w.ends_at)}`;
  const days = w.days.length === 7 ? 'Every day' : w.days.map((d) => DAY_NAMES[d - 1]).join(', ');
  return `${days} ${w.start}–${w.end}${w.overnight ? ' (next day)' : ''} · ${w.time_zone}`;
}

function WeekTimeline({ label, runs, scenes, days, now }: { label: string; runs: ReturnType<typeof runsBetween>; scenes: Map<number, SceneDto>; days: ReturnType<typeof weekDays>; now: number }) {
  const perDay = byDay(runs, days);
  return (
    <div className="week" role="group" aria-label={`What plays on ${label} this week`}>
      <h4 className="week__title">{label}</h4>
      <div className="week__day week__axis" aria-hidden="true">
        <span />
        <div className="week__hours">
          {['00:00', '06:00', '12:00', '18:00'].map((h) => (
            <span key={h}>{h}</span>
          ))}
        </div>
      </div>
      {perDay.map((dayRuns, i) => {
        const day = days[i]!;
        return (
          <div key={day.start} className="week__day">
            <span className="week__label">{day.label}</span>
            <div className="week__strip">
              {now >= day.start && now < day.end && <span className="week__now" style={{ left: `${((now - day.start) / (day.end - day.start)) * 100}%` }} title="Now" />}
              {dayRuns.map((run) => {
                const name = run.sceneId === null ? 'Default scene' : (scenes.get(run.sceneId)?.name ?? `Scene #${run.sceneId}`);
                const width = ((run.end - run.start) / (day.end - day.start)) * 100;
                const time = `${new Date(run.start).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}–${new Date(run.end).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;
                return (
                  <span key={run.start} className="week__run" style={{ width: `${width}%`, background: colourOf(run.sceneId) }} title={`${time} · ${name} (by ${RULE_TEXT[run.rule]})`}>
                    {width > 6 ? name : ''}
                  </span>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}

export default function ScheduleTab() {
  const programme = useAtomValue(programmeAtom, { store })?.value ?? null;
  const sceneList = itemsOf(useAtomValue(scenesAtom, { store }));
  const scenes = useMemo(() => new Map(sceneList.map((s) => [s.id, s])), [sceneList]);
  const [editing, setEditing] = useState<ScheduleDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ScheduleDto | null>(null);
  const [previewAt, setPreviewAt] = useState('');
  const may = useMay();
  const now = Date.now();
  const days = useMemo(() => weekDays(now), [Math.floor(now / 3_600_000)]);
  const rules = useMemo(() => (programme ? programmeRules(programme) : null), [programme]);
  const instant = previewAt ? new Date(previewAt).getTime() : now;
  const sceneName = (id: number | null) => (id === null ? 'the default scene' : (scenes.get(id)?.name ?? `Scene #${id}`));
  const entryName = (id: number) => {
    const entry = programme?.schedules.find((e) => e.id === id);
    return entry ? (entry.name ?? sceneName(entry.scene_id)) : `#${id}`;
  };
  const overlaps = rules ? equalPriorityOverlaps(rules.schedules, days[0]!.start, days[6]!.end) : [];

  async function remove(entry: ScheduleDto) {
    setDeleting(null);
    try {
      await adminApi.deleteSchedule(entry.id);
      showSuccess(`Deleted "${entry.name ?? sceneName(entry.scene_id)}"`);
    } catch (failure) {
      showFailure('Failed to delete the schedule entry', failure);
    }
  }

  const targetText = (entry: ScheduleDto) =>
    entry.target.kind === 'all'
      ? 'Every screen'
      : entry.target.kind === 'groups'
        ? entry.target.group_ids.map((id) => programme?.groups.find((g) => g.id === id)?.name ?? `Group #${id}`).join(', ')
        : `${entry.target.devices.length} screen${entry.target.devices.length === 1 ? '' : 's'}`;

  return (
    <>
      <section className="panel" aria-labelledby="week-title">
        <div className="panel__header">
          <h2 id="week-title">This week</h2>
          <button type="button" className="button" onClick={() => setEditing('new')} {...may.button('programme.createSchedule')}>
            Add schedule entry
          </button>
        </div>
        {overlaps.map((o) => (
          <p key={`${o.a}-${o.b}`} className="notice" role="alert">
            “{entryName(o.a)}” and “{entryName(o.b)}” have the same priority and play for the same screens from {formatDateTime(new Date(o.at).toISOString())}: the newer entry wins. Give one a higher priority to say which.
          </p>
        ))}
        {!rules ? (
          <p className="panel__hint">Loading the schedule…</p>
        ) : (
          <div className="weeks">
            {programme!.groups.map((g) => (
              <WeekTimeline key={g.id} label={g.name} runs={runsBetween(rules, g.id, days[0]!.start, days[6]!.end)} scenes={scenes} days={days} now={now} />
            ))}
            <WeekTimeline label="Screens in no group" runs={runsBetween(rules, null, days[0]!.start, days[6]!.end)} scenes={scenes} days={days} now={now} />
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="preview-title">
        <div className="panel__header">
          <h3 id="preview-title">Preview an instant</h3>
          <label className="field">
            At
            <input className="control" type="datetime-local" value={previewAt} onChange={(e) => setPreviewAt(e.target.value)} aria-label="Instant to preview" />
          </label>
        </div>
        {rules && (
          <ul className="preview-list" aria-label="What plays then">
            {[...programme!.groups.map((g) => ({ id: g.id as number | null, name: g.name })), { id: null, name: 'Screens in no group' }].map((g) => {
              const d = decide({ device: null, groupId: g.id, address: null }, rules, instant);
              return (
                <li key={g.id ?? 'none'}>
                  <strong>{g.name}</strong>: {sceneName(d.ref === null ? null : Number(d.ref))} <span className="panel__hint">(by {RULE_TEXT[d.rule]})</span>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section className="panel" aria-labelledby="entries-title">
        <div className="panel__header">
          <h3 id="entries-title">Schedule entries</h3>
          <p className="panel__hint">Higher priority wins; at equal priority, the narrower target (a screen, then a group, then every screen).</p>
        </div>
        {!programme || programme.schedules.length === 0 ? (
          <p className="panel__hint">No schedule entries: screens show their group's scene or the default scene.</p>
        ) : (
          <Table columns={['Entry', 'Scene', 'For', 'When', 'Priority', 'Actions']} label="Schedule entries">
            {programme.schedules.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.name ?? '—'}</td>
                <td>{sceneName(entry.scene_id)}</td>
                <td>{targetText(entry)}</td>
                <td>{describeWhen(entry)}</td>
                <td>{entry.priority}</td>
                <td className="row-actions">
                  <button type="button" className="button button--ghost button--small" onClick={() => setEditing(entry)} aria-label={`Edit ${entry.name ?? sceneName(entry.scene_id)}`} {...may.button('programme.updateSchedule')}>
                    Edit
                  </button>
                  <button type="button" className="button button--ghost button--small" onClick={() => setDeleting(entry)} aria-label={`Delete ${entry.name ?? sceneName(entry.scene_id)}`} {...may.button('programme.deleteSchedule')}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      {editing && <ScheduleForm entry={editing === 'new' ? null : editing} scenes={sceneList} groups={programme?.groups ?? []} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete "${deleting.name ?? sceneName(deleting.scene_id)}"?`}
          message="Screens it concerns return to their other rules at once."
          confirm="Delete entry"
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
