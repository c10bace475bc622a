/**
 * Proof of play (issue 34): how long each stream was on screen, on which screens, day by day, and
 * how much of that time its picture was actually playing — from what walls and kiosks reported
 * (src/shared/plays.ts says what the server believes). A CSV of the same days, per day, screen
 * and stream, for the people who pay for the screens or the content.
 */
import { useEffect, useState } from 'react';
import { PLAY_GROUPS, type PlayGroup } from '../../../../src/shared/plays.ts';
import { playsEndpoints, type PlaysDto } from '../../../../src/shared/api/plays.ts';
import { urlOf } from '../../../lib/api.ts';
import { adminApi } from '../admin-api.ts';
import { DataView, Table } from '../../../components/DataView.tsx';
import { durationText, timeAgo } from '../format.ts';
import { useLiveFetch } from '../live/live.ts';
import './plays.css';

const GROUP_TEXT: Record<PlayGroup, string> = { stream: 'Stream', screen: 'Screen', day: 'Day' };
/** Reports come in every half minute: the table follows at this pace. */
const REFRESH_MS = 60_000;

export default function PlaysTab() {
  const [group, setGroup] = useState<PlayGroup>('stream');
  // Unset until chosen: the server's last seven days, in its time zone (not this browser's).
  const [chosen, setChosen] = useState<{ from?: string; to?: string }>({});
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const query = { group, ...chosen };
  const { value, error } = useLiveFetch(() => adminApi.plays(query), JSON.stringify(query), tick, 'Failed to load proof of play');
  const from = chosen.from ?? value?.from ?? '';
  const to = chosen.to ?? value?.to ?? '';
  const total = value?.rows.reduce((sum, r) => sum + r.seconds, 0) ?? 0;
  const playing = value?.rows.reduce((sum, r) => sum + r.playing_seconds, 0) ?? 0;

  return (
    <section className="panel" aria-labelledby="plays-title">
      <div className="panel__header">
        <div>
          <h2 id="plays-title">Proof of play</h2>
          <p className="panel__hint">
            What every kiosk and installed wall showed, and for how much of it the picture was playing.
            {value && ` Days in ${value.time_zone}; kept ${value.retention_days} days.`}
          </p>
        </div>
        <div className="plays__controls">
          <label className="field">
            By
            <select value={group} onChange={(e) => setGroup(e.target.value as PlayGroup)}>
              {PLAY_GROUPS.map((g) => (
                <option key={g} value={g}>
                  {GROUP_TEXT[g]}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            From
            <input type="date" value={from} max={to} onChange={(e) => e.target.value && setChosen({ from: e.target.value, to })} />
          </label>
          <label className="field">
            To
            <input type="date" value={to} min={from} onChange={(e) => e.target.value && setChosen({ from, to: e.target.value })} />
          </label>
          <a className="button button--ghost" href={urlOf(playsEndpoints.export, { query: chosen })} download>
            Download CSV
          </a>
        </div>
      </div>
      {value && value.rows.length > 0 && (
        <p className="plays__summary">
          <strong>{durationText(total)}</strong> on screen, playing {total > 0 ? Math.round((playing / total) * 100) : 0}% of it
          {value.refused > 0 && <span className="plays__refused"> · {value.refused} reported {value.refused === 1 ? 'record' : 'records'} refused or clipped (see below)</span>}
        </p>
      )}
      <DataView value={value?.rows ?? null} error={error} empty="No screen has reported what it showed in these days.">
        {(rows) => (
          <Table columns={[GROUP_TEXT[value?.group ?? group], 'On screen', 'Playing', group === 'stream' ? 'Screens' : 'Streams']}>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  <td>{row.label}</td>
                  <td>{durationText(row.seconds)}</td>
                  <td>
                    <span className="plays__share" style={{ ['--share' as string]: `${Math.round((row.playing_share ?? 0) * 100)}%` }}>
                      {row.playing_share === null ? '—' : `${Math.round(row.playing_share * 100)}%`}
                    </span>
                  </td>
                  <td>{group === 'stream' ? row.screens : row.streams}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </DataView>
      {value && value.refusals.length > 0 && (
        <>
          <h3 className="plays__subtitle">Not counted as sent</h3>
          <Table columns={['Screen', 'Why', 'Records', 'Last']}>
            <tbody>
              {value.refusals.map((r) => (
                <tr key={`${r.key}-${r.reason}`}>
                  <td>{r.label}</td>
                  <td>{REFUSAL_TEXT[r.reason]}</td>
                  <td>{r.count}</td>
                  <td>{timeAgo(r.last_at)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </section>
  );
}

/** Why a screen's record was not counted as sent (src/shared/plays.ts's verdicts), in words. */
const REFUSAL_TEXT: Record<PlaysDto['refusals'][number]['reason'], string> = {
  clipped: 'Clipped: it overlapped time already counted, ran past now, or claimed more playing than its length',
  'not-its-position': 'Refused: a position other than the kiosk’s own',
  empty: 'Refused: no time on screen',
  'too-long': 'Refused: longer than 5 minutes',
  future: 'Refused: from the future',
  'too-old': 'Refused: more than a week old',
  'not-assigned': 'Refused: the screen was told to show something else there then',
  'never-assigned': 'Refused: a stream the screen was never told to show there',
  covered: 'Refused: time already counted for that position',
  'unknown-stream': 'Refused: a stream that does not exist',
};
