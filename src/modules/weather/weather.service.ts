/**
 * Current weather at a stream's coordinates, from an OpenWeatherMap-shaped API (spec §3, §7,
 * §9): metric units, Celsius rounded, cached 5 minutes per coordinates, the error codes of §8.
 * The API key never leaves the server. WEATHER_BASE_URL points tests at a fixture server.
 */
import type { WeatherAnswerDto, WeatherDto, WeatherErrorCode } from '../../shared/api/weather.ts';
import { sampleWeather } from '../../shared/streams/analysis.ts';

export const WEATHER_CACHE_MS = 300_000;
const TIMEOUT_MS = 5_000;

export interface WeatherOptions {
  apiKey: string | undefined;
  enabled: boolean;
  baseUrl: string;
}

/** UTC offset text from OpenWeatherMap's `timezone` (seconds east of UTC). */
export function utcOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const total = Math.abs(Math.round(seconds / 60));
  return `UTC${sign}${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

interface OwmCurrent {
  weather?: { main?: string; description?: string }[];
  main?: { temp?: number; humidity?: number };
  wind?: { speed?: number };
  timezone?: number;
  name?: string;
  coord?: { lat?: number; lon?: number };
}

function failure(code: WeatherErrorCode, message: string, seed: string | null): WeatherAnswerDto {
  return { isRealWeather: false, error: { code, message }, fallback: code === 'NOT_CONFIGURED' ? null : sampleWeather(seed ?? code) };
}

export interface WeatherService {
  current(lat: number, lon: number): Promise<WeatherAnswerDto>;
  /** Coordinates of a place name (geocoding, limit 1). */
  geocode(query: string): Promise<{ lat: number; lon: number; name: string } | { error: { code: WeatherErrorCode; message: string } }>;
}

export function createWeather(options: WeatherOptions): WeatherService {
  const cache = new Map<string, { at: number; answer: Promise<WeatherAnswerDto> }>();
  const configured = options.enabled && !!options.apiKey;

  async function call(path: string, params: Record<string, string>): Promise<Response> {
    const url = new URL(path, options.baseUrl);
    for (const [k, v] of Object.entries({ ...params, appid: options.apiKey ?? '' })) url.searchParams.set(k, v);
    return fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
  }

  async function fetchCurrent(lat: number, lon: number): Promise<WeatherAnswerDto> {
    const seed = `${lat},${lon}`;
    let res: Response;
    try {
      res = await call('/data/2.5/weather', { lat: String(lat), lon: String(lon), units: 'metric' });
    } catch {
      return failure('FETCH_ERROR', 'The weather service could not be reached', seed);
    }
    if (res.status === 401) return failure('NO_API_KEY', 'The weather API key was refused', seed);
    if (res.status === 404) return failure('LOCATION_NOT_FOUND', 'Location not found', seed);
    if (!res.ok) return failure('FETCH_ERROR', `The weather service answered ${res.status}`, seed);
    const body = (await res.json().catch(() => null)) as OwmCurrent | null;
    const temp = body?.main?.temp;
    if (!body || typeof temp !== 'number') return failure('FETCH_ERROR', 'The weather service answered something unexpected', seed);
    const weather: WeatherDto = {
      temperature: Math.round(temp),
      condition: body.weather?.[0]?.main ?? 'Unknown',
      description: body.weather?.[0]?.description ?? '',
      humidity: body.main?.humidity ?? 0,
      windSpeed: body.wind?.speed ?? 0,
      timezone: utcOffset(body.timezone ?? 0),
      locationName: body.name ?? '',
      coords: { lat: body.coord?.lat ?? lat, lon: body.coord?.lon ?? lon },
    };
    return { isRealWeather: true, weather };
  }

  return {
    async current(lat, lon) {
      if (!configured) return failure('NOT_CONFIGURED', 'Weather service disabled or API key not configured', null);
      if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
        return failure('LOCATION_ERROR', 'Invalid coordinates', null);
      }
      const key = `${lat.toFixed(2)},${lon.toFixed(2)}`;
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < WEATHER_CACHE_MS) return hit.answer;
      const answer = fetchCurrent(lat, lon);
      cache.set(key, { at: Date.now(), answer });
      // Failures are not kept: the next screen asks again.
      void answer.then((a) => a.isRealWeather || cache.delete(key));
      if (cache.size > 5_000) cache.delete(cache.keys().next().value!);
      return answer;
    },
    async geocode(query) {
      if (!configured) return { error: { code: 'NOT_CONFIGURED', message: 'Weather service disabled or API key not configured' } };
      try {
        const res = await call('/geo/1.0/direct', { q: query, limit: '1' });
        if (!res.ok) return { error: { code: 'GEOCODING_ERROR', message: `The geocoding service answered ${res.status}` } };
        const [first] = ((await res.json()) as { lat: number; lon: number; name: string }[]) ?? [];
        return first ? { lat: first.lat, lon: first.lon, name: first.name } : { error: { code: 'LOCATION_NOT_FOUND', message: 'Location not found' } };
      } catch {
        return { error: { code: 'GEOCODING_ERROR', message: 'The geocoding service could not be reached' } };
      }
    },
  };
}
