/** One stream of the scene viewer: its player and everything the spec lists about it. */
import type { CSSProperties } from 'react';
import type { SceneStreamDto } from '../../../src/shared/api/index.ts';
import { formatCoordinates } from '../../../src/shared/streams/location.ts';
import { CategoryLabel, StatusBadge, QualityBadge } from '../../components/Badges.tsx';
import { LocalTime } from '../../components/Clock.tsx';
import { PinIcon } from '../../components/icons.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { Weather } from '../../components/Weather.tsx';
import { countRender } from '../../lib/render-count.ts';
import { Flip, sideProps, type FlipSide } from '../screen/Flip.tsx';
import type { Staged } from '../screen/staging.ts';

/** The position and status badges over the player, for one side of a flip. */
function CardBadges({ stream, side }: { stream: SceneStreamDto; side?: FlipSide }) {
  return (
    <div className="stream-card__badges" {...sideProps(side)}>
      <span className="stream-card__position" aria-label={`Position ${stream.position}`}>
        {stream.position}
      </span>
      <span className="stream-card__live">
        <StatusBadge stream={stream} />
      </span>
    </div>
  );
}

/** The card's text for one side of a flip. */
function CardText({ stream, side }: { stream: SceneStreamDto; side?: FlipSide }) {
  const headingId = side === 'next' ? `stream-${stream.position}-name-next` : `stream-${stream.position}-name`;
  const hasCoordinates = stream.latitude !== null && stream.longitude !== null;
  return (
    <div className="stream-card__body" {...sideProps(side)}>
      <div className="stream-card__title">
        <h2 id={headingId}>{stream.name}</h2>
        <QualityBadge quality={stream.quality} />
      </div>
      {stream.location_name && (
        <p className="stream-card__location">
          <PinIcon className="stream-card__pin" />
          {stream.location_name}
        </p>
      )}
      <div className="stream-card__facts">
        <CategoryLabel category={stream.category} />
        <LocalTime timeZone={stream.timezone} />
        <Weather latitude={stream.latitude} longitude={stream.longitude} />
        {hasCoordinates && (
          <span className="stream-card__coords" aria-label="Coordinates">
            {formatCoordinates(stream.latitude!, stream.longitude!)}
          </span>
        )}
      </div>
    </div>
  );
}

/**
 * One card, as staged (staging.ts): its place among the cards now and after the waiting flip
 * (CSS order: the card element itself never moves, so its player keeps playing when the scene
 * reorders), coming or leaving with the flip, and its text on both sides.
 */
export function StreamCard({ staged, waiting }: { staged: Staged<SceneStreamDto>; waiting: boolean }) {
  countRender();
  const { role } = staged;
  const stream = (staged.now ?? staged.next)!;
  // A card in both scenes may read differently after the flip (its position, a renamed stream).
  const after = waiting && role === 'kept' ? staged.next! : undefined;
  const headingId = `stream-${stream.position}-name`;
  const hidden = role === 'incoming';
  return (
    <article
      className={`stream-card${role === 'kept' ? '' : ` stream-card--${role}`}`}
      style={{ '--o0': staged.nowIndex ?? staged.nextIndex, '--o1': staged.nextIndex ?? staged.nowIndex } as CSSProperties}
      aria-labelledby={headingId}
      aria-hidden={hidden || undefined}
      inert={hidden}
      data-position={stream.position}
    >
      <div className="stream-card__media">
        <Player stream={stream} oneOfMany held={hidden} />
        <Flip now={stream} next={after} render={(shown, side) => <CardBadges stream={shown} side={side} />} />
      </div>
      <div className="stream-card__text flip-stack">
        <Flip now={stream} next={after} render={(shown, side) => <CardText stream={shown} side={side} />} />
      </div>
    </article>
  );
}
