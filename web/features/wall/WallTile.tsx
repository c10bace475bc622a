/** One stream on the Live Wall: the player, and a caption that opens it full screen. */
import type { SceneStreamDto } from '../../../src/shared/api/index.ts';
import { StatusBadge } from '../../components/Badges.tsx';
import { ExpandIcon } from '../../components/icons.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { Weather } from '../../components/Weather.tsx';

interface WallTileProps {
  stream: SceneStreamDto;
  /** Its grid area; null while it is prepared for the next flip (loading, out of sight). */
  area: string | null;
  onOpen: (stream: SceneStreamDto, opener: HTMLElement) => void;
}

export function WallTile({ stream, area, onOpen }: WallTileProps) {
  return (
    <article
      className={area ? 'wall-tile' : 'wall-tile wall-tile--incoming'}
      style={area ? { gridArea: area } : undefined}
      data-position={stream.position}
      aria-label={stream.name}
      aria-hidden={area ? undefined : true}
      inert={!area}
    >
      <Player stream={stream} />
      <span className="wall-tile__live">
        <StatusBadge stream={stream} />
      </span>
      <button type="button" className="wall-tile__caption" onClick={(event) => onOpen(stream, event.currentTarget)}>
        <span className="wall-tile__position" aria-hidden="true">
          {stream.position}
        </span>
        <span className="wall-tile__text">
          <span className="wall-tile__name">{stream.name}</span>
          {stream.location_name && (
            <span className="wall-tile__location">
              {stream.location_name} <Weather latitude={stream.latitude} longitude={stream.longitude} className="wall-tile__weather" />
            </span>
          )}
        </span>
        <ExpandIcon className="wall-tile__expand" />
        <span className="visually-hidden">, open full screen</span>
      </button>
    </article>
  );
}
