/** GET /api/weather?lat=&lon= (spec §3 "Weather result", §8 codes). The key stays on the server. */
import { z } from 'zod';
import { queryNumber } from './common.ts';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';

export const WeatherQuery = z.object({
  lat: queryNumber(-90, 90, 'lat'),
  lon: queryNumber(-180, 180, 'lon'),
});

/** Spec §8 weather codes. */
export const WEATHER_ERROR_CODES = ['NOT_CONFIGURED', 'FETCH_ERROR', 'LOCATION_ERROR', 'NO_API_KEY', 'LOCATION_NOT_FOUND', 'GEOCODING_ERROR'] as const;
export type WeatherErrorCode = (typeof WEATHER_ERROR_CODES)[number];

export const WeatherDto = z.strictObject({
  temperature: z.number().int().describe('Celsius, rounded'),
  condition: z.string(),
  description: z.string(),
  humidity: z.number(),
  windSpeed: z.number(),
  timezone: z.string().describe('UTC offset text, e.g. "UTC+02:00"'),
  locationName: z.string(),
  coords: z.strictObject({ lat: z.number(), lon: z.number() }),
});
export type WeatherDto = z.output<typeof WeatherDto>;

/** Real weather, or why not plus the deterministic sample text (isRealWeather false). */
export const WeatherAnswerDto = z.discriminatedUnion('isRealWeather', [
  z.strictObject({ isRealWeather: z.literal(true), weather: WeatherDto }),
  z.strictObject({
    isRealWeather: z.literal(false),
    error: z.strictObject({ code: z.enum(WEATHER_ERROR_CODES), message: z.string() }),
    fallback: z.string().nullable().describe('A deterministic sample text to show instead; null when weather is not configured'),
  }),
]);
export type WeatherAnswerDto = z.output<typeof WeatherAnswerDto>;

export const weatherEndpoints = {
  current: endpoint({
    ...ROUTES['weather.current'],
    summary: 'Current weather at coordinates: cached, rate-limited per IP; the API key never leaves the server',
    access: 'public',
    query: WeatherQuery,
    responses: { 200: WeatherAnswerDto },
    errors: [429],
  }),
};
