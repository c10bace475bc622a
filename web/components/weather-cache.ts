/**
 * The weather answers a screen keeps: one request per place (to 0.01°) per five minutes, shared
 * by every card that shows the place (components/Weather.tsx).
 */
import type { WeatherAnswerDto } from '../../src/shared/api/index.ts';
import { call } from '../lib/api.ts';

export const TTL_MS = 300_000;
const cache = new Map<string, { at: number; answer: Promise<WeatherAnswerDto | null> }>();

/** The answer for a place, asked again after TTL_MS. */
export function weatherAt(lat: number, lon: number, now = Date.now()): Promise<WeatherAnswerDto | null> {
  const key = `${lat.toFixed(2)},${lon.toFixed(2)}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.answer;
  // Expired places go as new ones come: a wall that runs for months, through cameras all over the
  // world, keeps the last five minutes' places, not every place it ever showed. (The map is in
  // the order answers were asked for: each is deleted before it is set again.)
  for (const [place, entry] of cache) {
    if (now - entry.at < TTL_MS) break;
    cache.delete(place);
  }
  cache.delete(key);
  const answer = call('weather.current', { query: { lat, lon } }).catch(() => null);
  cache.set(key, { at: now, answer });
  return answer;
}

/** How many places have an answer kept (for tests). */
export const weatherPlacesKept = () => cache.size;
