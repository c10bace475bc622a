/** GET /api/weather?lat=&lon= (spec §3 "Weather result", §8 codes). The key stays on the server. */
import { z } from 'zod';

export const WeatherQuery = z.object({
  lat: z.coerce.number({ error: 'lat must be a number' }).min(-90, 'lat must be between -90 and 90').max(90, 'lat must be between -90 and 90'),
  lon: z.coerce.number({ error: 'lon must be a number' }).min(-180, 'lon must be between -180 and 180').max(180, 'lon must be between -180 and 180'),
});

/** Spec §8 weather codes. */
export type WeatherErrorCode = 'NOT_CONFIGURED' | 'FETCH_ERROR' | 'LOCATION_ERROR' | 'NO_API_KEY' | 'LOCATION_NOT_FOUND' | 'GEOCODING_ERROR';

export interface WeatherDto {
  /** Celsius, rounded. */
  temperature: number;
  condition: string;
  description: string;
  humidity: number;
  windSpeed: number;
  /** UTC offset text, e.g. "UTC+02:00". */
  timezone: string;
  locationName: string;
  coords: { lat: number; lon: number };
}

/** Real weather, or why not plus the deterministic sample text (isRealWeather false). */
export type WeatherAnswerDto =
  | { isRealWeather: true; weather: WeatherDto }
  | { isRealWeather: false; error: { code: WeatherErrorCode; message: string }; fallback: string | null };
