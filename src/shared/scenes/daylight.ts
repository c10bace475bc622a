/**
 * A scene that follows the sun (`daylight`): the streams where the sun is above the horizon
 * now, and the next instant that changes for any candidate (a sunrise or a sunset), when the
 * server resolves the scene again. Astronomy by suncalc; pure, so it is table-tested over fixed
 * instants and places.
 */
import { getPosition, getTimes } from 'suncalc';

export interface Placed {
  latitude: number | null;
  longitude: number | null;
}

/** Whether the sun is above the horizon at this place and instant (null: no coordinates). */
export function inDaylight(place: Placed, instant: number): boolean | null {
  if (place.latitude === null || place.longitude === null) return null;
  return getPosition(new Date(instant), place.latitude, place.longitude).altitude > 0;
}

/** The next sunrise or sunset after `instant` at any of these places, within two days (null: polar day or night everywhere). */
export function nextCrossing(places: readonly Placed[], instant: number): number | null {
  let next: number | null = null;
  for (const { latitude, longitude } of places) {
    if (latitude === null || longitude === null) continue;
    // suncalc's day is the one around local noon: yesterday's, today's and tomorrow's cover the next 24 h anywhere.
    for (const day of [-1, 0, 1, 2]) {
      const times = getTimes(new Date(instant + day * 86_400_000), latitude, longitude);
      for (const t of [times.sunrise, times.sunset]) {
        const at = t ? t.getTime() : Number.NaN;
        if (Number.isFinite(at) && at > instant && (next === null || at < next)) next = at;
      }
    }
  }
  return next;
}
