/**
 * The Screens tab: every wall, kiosk, admin and rater the hub knows — live, and those seen in
 * the last day as "last seen …" — with a picture of what each wall and kiosk shows (its tiles'
 * stills, each player's state, each stream's health), what each shows and why (which rule
 * decided it), how each player is doing, its group and its own scene, and the commands screens
 * obey: Reload and Identify. Above them: the takeover and enrolment (screens waiting for
 * approval, approved ones); below them, the screen groups.
 */
import { useAtomValue } from 'jotai';
import type { ScreenPresence } from '../../../../src/shared/events.ts';
import { store } from '../../../lib/store.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { DataView } from '../../../components/DataView.tsx';
import { itemsOf } from '../live/live.ts';
import { scenesAtom } from '../scenes/scenes.live.ts';
import { useStreamsById } from '../streams/streams.live.ts';
import { screensAtom } from '../presence/presence.live.ts';
import { showFailure, showSuccess } from '../feedback.ts';
import { clockText, droppedFramesText, flipText, formatDateTime, timeAgo } from '../format.ts';
import { GroupsPanel } from '../programme/GroupsPanel.tsx';
import { SceneSelect } from '../programme/SceneSelect.tsx';
import { programmeAtom, RULE_TEXT } from '../programme/programme.live.ts';
import { TakeoverBar } from '../programme/TakeoverBar.tsx';
import { ScreenUptime } from '../uptime/Uptime.tsx';
import { ScreenPicture } from './ScreenPicture.tsx';
import { EnrolmentPanel } from './EnrolmentPanel.tsx';
import { GroupSelect } from './GroupSelect.tsx';
import { enrolmentAtom } from './enrolment.live.ts';
import { playbackWord } from './screen-picture.ts';
import type { ProgrammeDto } from '../../../../src/shared/api/index.ts';
import '../programme/programme.css';
import './screens.css';

const KIND_NAMES = { wall: 'Wall', kiosk: 'Kiosk', admin: 'Admin console', rater: 'Rater' } as const;

/** Puts a screen in a group or gives it its own scene (null clears it); the hub moves it at once. */
async function place(screen: ScreenPresence, change: { group_id?: number | null; scene_id?: number | null }) {
  if (!screen.device) return;
  try {
    await adminApi.placeScreen({ device: screen.device, ...change });
    showSuccess(`${screen.name ?? 'The screen'} moves now`);
  } catch (error) {
    showFailure(`Failed to change ${screen.name ?? 'the screen'}`, error);
  }
}

/** A screen's group and own scene, as the programme has them. */
/** A screen's last flip; one that came late is marked, so the technician sees which screen lags. */
function FlipLine({ flip }: { flip: NonNullable<ScreenPresence['flip']> }) {
  const { text, late } = flipText(flip);
  return (
    <div className={late ? 'screen-row__flip screen-row__flip--late' : 'screen-row__flip'}>
      {late && <span className="badge badge--warn">Flips late</span>} {text}
    </div>
  );
}

/**
 * Whether a wall or kiosk could start without its server (issue 34). Only a lack is worth a
 * badge: a screen on http://<LAN address> gets no service worker, and after a reboot during an
 * outage it would show the browser's error page (README, "When the server is away").
 */
function OfflineStartLine({ state }: { state: NonNullable<ScreenPresence['offline_start']> }) {
  if (state === 'unavailable') {
    return (
      <div className="screen-row__offline screen-row__offline--none">
        <span className="badge badge--warn">No offline start</span> Not a secure origin: a restart while the server is away shows the browser's error page. Serve it over HTTPS or mark its address as secure in the kiosk browser.
      </div>
    );
  }
  return <div className="screen-row__offline">{state === 'ready' ? 'Starts without its server (cached)' : 'Offline start installing…'}</div>;
}

/** What its video players dropped; a screen that drops many frames is marked (its machine does not keep up with its tiles). */
function DroppedFramesLine({ text, struggling }: { text: string; struggling: boolean }) {
  return (
    <div className={struggling ? 'screen-row__frames screen-row__frames--bad' : 'screen-row__frames'}>
      {struggling && <span className="badge badge--warn">Drops frames</span>} {text}
    </div>
  );
}

function placementOf(programme: ProgrammeDto | null, device: string | null) {
  return programme?.placements.find((p) => p.device === device) ?? null;
}

async function command(what: 'reload' | 'identify', screen?: ScreenPresence) {
  try {
    await adminApi.commandScreens(what, screen?.id);
    showSuccess(what === 'reload' ? (screen ? `Reloading ${screen.name ?? 'the screen'}` : 'Reloading every wall and kiosk') : `${screen?.name ?? 'The screen'} shows its name now`);
  } catch (error) {
    showFailure(what === 'reload' ? 'Failed to reload' : 'Failed to identify', error);
  }
}

export default function ScreensTab() {
  const { list, error } = useAtomValue(screensAtom, { store });
  const screens = list?.value ?? [];
  const sceneList = itemsOf(useAtomValue(scenesAtom, { store }));
  const scenes = new Map(sceneList.map((s) => [s.id, s]));
  const programme = useAtomValue(programmeAtom, { store })?.value ?? null;
  const groups = programme?.groups ?? [];
  // The streams screens report playing: looked up by id (the console holds no whole pool).
  const streams = useStreamsById([...new Set(screens.flatMap((s) => Object.keys(s.health).map(Number)))]);
  const online = screens.filter((s) => s.online);
  // Walls and kiosks first (they are what an operator watches), online before offline.
  const rank = (s: ScreenPresence) => (s.online ? 0 : 2) + (s.kind === 'wall' || s.kind === 'kiosk' ? 0 : 1);
  const sorted = [...screens].sort((a, b) => rank(a) - rank(b));
  const may = useMay();
  const approval = useAtomValue(enrolmentAtom, { store })?.value?.approval ?? false;

  return (
    <>
    <TakeoverBar scenes={sceneList} />
    <EnrolmentPanel groups={groups} />
    <section className="panel" aria-labelledby="screens-title">
      <div className="panel__header">
        <h2 id="screens-title">Screens</h2>
        <div className="admin__actions">
          <span className="panel__hint">
            <strong>{online.filter((s) => s.kind === 'wall' || s.kind === 'kiosk').length}</strong> walls and kiosks online
          </span>
          <button type="button" className="button button--ghost button--small" onClick={() => void command('reload')} {...may.button('screen.command')}>
            Reload all screens
          </button>
        </div>
      </div>
      <DataView value={list ? sorted : null} error={error && `Failed to fetch screens: ${error}`} loading="Loading screens…" empty="No screen has connected in the last 24 hours.">
        {(sorted) => (
        <ul className="screen-list" aria-label="Screens">
          {sorted.map((screen) => {
            const shows = screen.scene_id === null ? null : scenes.get(screen.scene_id);
            const health = Object.entries(screen.health);
            const player = screen.kind === 'wall' || screen.kind === 'kiosk';
            const frames = screen.online && screen.dropped_frames ? droppedFramesText(screen.dropped_frames) : null;
            return (
              <li key={`${screen.id}-${screen.online}`} className={`screen-row${screen.online ? '' : ' screen-row--offline'}`} data-screen-name={screen.name ?? ''}>
                <div className="screen-row__picture">{player && <ScreenPicture screen={screen} scene={shows ?? null} />}</div>
                <div className="screen-row__name">
                  <strong>{screen.name ?? KIND_NAMES[screen.kind]}</strong>
                  <span className="screen-row__meta">
                    <span className={`status-dot${screen.online ? ' status-dot--live' : ' status-dot--offline'}`}>{screen.online ? 'Online' : `Last seen ${timeAgo(screen.last_heartbeat)}`}</span>
                    {' · '}
                    {KIND_NAMES[screen.kind]}
                    {screen.position !== null ? ` · position ${screen.position}` : ''}
                  </span>
                  {player && <ScreenUptime id={screen.id} online={screen.online} />}
                </div>
                <div className="screen-row__meta">
                  {player && (
                    <div className="screen-row__shows">
                      Shows <strong>{shows?.name ?? 'nothing yet'}</strong>
                      {screen.rule ? <> · by {RULE_TEXT[screen.rule]}</> : null}
                      {screen.follows ? <> · address /scenes/{screen.follows}</> : null}
                      {shows?.selection_algorithm === 'ranked' && shows.picks.length > 0 && (
                        <ul className="screen-row__why" aria-label={`Why ${shows.name} shows these cameras`}>
                          {shows.picks.map((pick) => (
                            <li key={pick.position}>
                              Tile {pick.position}: {pick.reason}
                            </li>
                          ))}
                        </ul>
                      )}
                    </div>
                  )}
                  {player && screen.device && (
                    <div className="screen-row__place">
                      <GroupSelect
                        groups={groups}
                        label={`Group of ${screen.name ?? 'screen'}`}
                        value={placementOf(programme, screen.device)?.group_id ?? screen.group_id ?? null}
                        {...may.button('programme.assign')}
                        onChange={(id) => void place(screen, { group_id: id })}
                      />
                      <SceneSelect
                        scenes={sceneList}
                        value={placementOf(programme, screen.device)?.scene_id ?? null}
                        onChange={(id) => void place(screen, { scene_id: id })}
                        label={`Own scene of ${screen.name ?? 'screen'}`}
                        none="No scene of its own"
                        {...may.button('programme.assign')}
                      />
                    </div>
                  )}
                  <div>
                    Since {formatDateTime(screen.connected_at)} · node {screen.node}
                  </div>
                  {screen.online && <div>Heartbeat {timeAgo(screen.last_heartbeat)}</div>}
                  {screen.online && screen.clock && <div className="screen-row__clock">{clockText(screen.clock)}</div>}
                  {screen.online && screen.flip && <FlipLine flip={screen.flip} />}
                  {player && screen.online && screen.offline_start && <OfflineStartLine state={screen.offline_start} />}
                  {player && screen.online && frames && <DroppedFramesLine text={frames.text} struggling={frames.struggling} />}
                </div>
                <ul className="health" aria-label="Playback">
                  {health.length === 0 && <li className="screen-row__meta">{player ? 'No playback reported yet' : '—'}</li>}
                  {health.map(([streamId, state]) => {
                    const stream = streams.get(Number(streamId));
                    return (
                      <li key={streamId} className="health__item">
                        <span>{stream?.name ?? `Stream #${streamId}`}</span>
                        <span className={`status-dot status-dot--${state}`}>
                          {playbackWord(state)}
                          {frames?.byStream.get(Number(streamId)) && <span className="health__frames"> · {frames.byStream.get(Number(streamId))}</span>}
                        </span>
                      </li>
                    );
                  })}
                </ul>
                <div className="row-actions">
                  {player && screen.online && (
                    <>
                      <button type="button" className="button button--ghost button--small" onClick={() => void command('identify', screen)} aria-label={`Identify ${screen.name ?? 'screen'}`} {...may.button('screen.command')}>
                        Identify
                      </button>
                      <button type="button" className="button button--ghost button--small" onClick={() => void command('reload', screen)} aria-label={`Reload ${screen.name ?? 'screen'}`} {...may.button('screen.command')}>
                        Reload
                      </button>
                    </>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
        )}
      </DataView>
    </section>
    <GroupsPanel scenes={sceneList} approval={approval} />
    </>
  );
}
