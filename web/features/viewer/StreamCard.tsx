/** One stream of the scene viewer: its player and everything the spec lists about it. */
import type { SceneStreamDto } from '../../../src/shared/api/index.ts';
import { formatCoordinates } from '../../../src/shared/streams/location.ts';
import { CategoryLabel, StatusBadge, QualityBadge } from '../../components/Badges.tsx';
import { LocalTime } from '../../components/Clock.tsx';
import { PinIcon } from '../../components/icons.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { Weather } from '../../components/Weather.tsx';

/**
 * `order`: where it shows among the cards (CSS order: the card element itself never moves, so
 * its player keeps playing when the scene reorders). `incoming`: prepared for the next flip.
 */
export function StreamCard({ stream, order, incoming = false }: { stream: SceneStreamDto; order: number; incoming?: boolean }) {
  const headingId = `stream-${stream.position}-name`;
  const hasCoordinates = stream.latitude !== null && stream.longitude !== null;
  return (
    <article
      className={incoming ? 'stream-card stream-card--incoming' : 'stream-card'}
      style={incoming ? undefined : { order }}
      aria-labelledby={headingId}
      aria-hidden={incoming || undefined}
      inert={incoming}
      data-position={stream.position}
    >
      <div className="stream-card__media">
        <Player stream={stream} />
        <span className="stream-card__position" aria-label={`Position ${stream.position}`}>
          {stream.position}
        </span>
        <span className="stream-card__live">
          <StatusBadge stream={stream} />
        </span>
      </div>
      <div className="stream-card__body">
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
    </article>
  );
}
