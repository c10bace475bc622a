/**
 * One stream on the Live Wall: the player, and a caption that opens it full screen. A tile has
 * a box now and a box after the next flip (wall.css switches them at the flip's attribute): a
 * tile that comes with the flip is laid out and loading in its box, out of sight, before the
 * instant; one that leaves keeps its box and goes out of sight at it.
 */
import type { CSSProperties } from 'react';
import type { SceneStreamDto } from '../../../src/shared/api/index.ts';
import { StatusBadge } from '../../components/Badges.tsx';
import { ExpandIcon } from '../../components/icons.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { Weather } from '../../components/Weather.tsx';
import type { TileBox } from '../../components/wall-layout.ts';
import { countRender } from '../../lib/render-count.ts';
import { Flip, sideProps, type FlipSide } from '../screen/Flip.tsx';
import type { Staged } from '../screen/staging.ts';

interface WallTileProps {
  staged: Staged<SceneStreamDto>;
  /** Its box now and after the next flip (the same when nothing waits). */
  boxes: { now: TileBox; next: TileBox };
  /** A flip waits: the tile's caption may differ on its two sides. */
  waiting: boolean;
  onOpen: (stream: SceneStreamDto, opener: HTMLElement) => void;
}

const boxStyle = ({ now, next }: WallTileProps['boxes']) =>
  ({
    '--l0': now.left,
    '--t0': now.top,
    '--w0': now.width,
    '--h0': now.height,
    '--l1': next.left,
    '--t1': next.top,
    '--w1': next.width,
    '--h1': next.height,
  }) as CSSProperties;

/** The badge and caption of one side. */
function TileFace({ stream, side, onOpen }: { stream: SceneStreamDto; side?: FlipSide; onOpen: WallTileProps['onOpen'] }) {
  return (
    <div className="wall-tile__face" {...sideProps(side)}>
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
    </div>
  );
}

export function WallTile({ staged, boxes, waiting, onOpen }: WallTileProps) {
  countRender();
  const { role } = staged;
  const shown = (staged.now ?? staged.next)!;
  const hidden = role === 'incoming';
  return (
    <article
      className={`wall-tile${role === 'kept' ? '' : ` wall-tile--${role}`}`}
      style={boxStyle(boxes)}
      data-role={role}
      data-position={shown.position}
      aria-label={shown.name}
      aria-hidden={hidden || undefined}
      inert={hidden}
    >
      <Player stream={shown} oneOfMany held={hidden} />
      <Flip now={shown} next={waiting && role === 'kept' ? staged.next! : undefined} render={(stream, side) => <TileFace stream={stream} side={side} onOpen={onOpen} />} />
    </article>
  );
}
