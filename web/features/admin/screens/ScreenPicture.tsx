/**
 * A wall or kiosk as a small picture of what it shows: its scene's layout tile by tile (as the
 * Live Wall lays them out), each tile the stream's still with the stream's badge as walls show
 * it (LIVE, OFFLINE, FROZEN…) and how this screen says its player is doing. An offline screen's
 * picture is what it last showed, dimmed, with since when (and no badges: they speak of now). Everything comes from the console's live state (scenes,
 * their resolutions, the stream cache, presence): no request per tile.
 */
import { useAtomValue } from 'jotai';
import type { ScreenPresence } from '../../../../src/shared/events.ts';
import type { SceneDto } from '../../../../src/shared/api/index.ts';
import { StatusBadge } from '../../../components/Badges.tsx';
import { StreamStill } from '../../../components/Thumbnail.tsx';
import { store } from '../../../lib/store.ts';
import { areasTemplate, TILE_AREAS, trackList, wallLayout } from '../../../components/wall-layout.ts';
import { formatDateTime } from '../format.ts';
import { sceneStreamsAtom } from '../scenes/scenes.live.ts';
import { streamRecordsAtom } from '../streams/streams.live.ts';
import { pictureSummary, playbackWord, screenPicture, type PictureTile } from './screen-picture.ts';

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** "14:05" today, a date and time before. */
function sinceText(iso: string, now = new Date()): string {
  const date = new Date(iso);
  return date.toDateString() === now.toDateString() ? clock.format(date) : formatDateTime(iso);
}

function Tile({ tile, area, online }: { tile: PictureTile; area: string; online: boolean }) {
  const word = playbackWord(tile.playback);
  const name = tile.stream?.name ?? `Stream #${tile.stream_id}`;
  return (
    <div
      className="screen-picture__tile"
      style={{ gridArea: area }}
      data-stream-id={tile.stream_id}
      title={[`${tile.position} · ${name}`, online ? word : null, tile.status?.label].filter(Boolean).join(' · ')}
    >
      {tile.stream ? <StreamStill stream={tile.stream} /> : <span className="thumb thumb--placeholder" />}
      {/* An offline screen shows nothing now: its dimmed picture is what it last showed, without live overlays. */}
      {online && tile.stream && (
        <span className={`screen-picture__badge${tile.status?.tone === 'live' ? ' screen-picture__badge--live' : ''}`}>
          <StatusBadge stream={tile.stream} />
        </span>
      )}
      {online && (
        <span className={`screen-picture__playback status-dot status-dot--${tile.playback ?? 'unreported'}`}>
          <span className="screen-picture__word">{word}</span>
        </span>
      )}
    </div>
  );
}

export function ScreenPicture({ screen, scene }: { screen: ScreenPresence; scene: SceneDto | null }) {
  const sceneStreams = useAtomValue(sceneStreamsAtom, { store }).get(screen.scene_id ?? -1);
  const streams = useAtomValue(streamRecordsAtom, { store });
  const picture = screenPicture(screen, scene, sceneStreams, streams);
  const since = screen.online ? null : sinceText(screen.last_heartbeat);
  const layout = wallLayout(picture.layout, picture.tiles.length);
  const empty = picture.tiles.length === 0 ? (picture.sceneName === null ? 'Nothing yet' : picture.kind === 'kiosk' ? `No stream at position ${picture.position}` : 'No streams') : null;
  return (
    <div
      className={`screen-picture${screen.online ? '' : ' screen-picture--offline'}`}
      role="img"
      aria-label={pictureSummary(picture, since)}
      data-testid="screen-picture"
    >
      {empty ? (
        <span className="screen-picture__empty">{empty}</span>
      ) : (
        <div className="screen-picture__grid" style={{ gridTemplateColumns: trackList(layout.columns), gridTemplateRows: trackList(layout.rows), gridTemplateAreas: areasTemplate(layout) }}>
          {picture.tiles.map((tile, i) => (
            <Tile key={`${tile.position}-${tile.stream_id}`} tile={tile} area={TILE_AREAS[i]!} online={screen.online} />
          ))}
        </div>
      )}
      {since && <span className="screen-picture__offline">Offline since {since}</span>}
    </div>
  );
}
