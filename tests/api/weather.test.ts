/**
 * GET /api/weather against a fixture server on 127.0.0.1 answering in OpenWeatherMap's shapes:
 * Celsius rounded, the UTC offset, a 5-minute cache per coordinates, the §8 error codes with
 * the deterministic sample text, "not configured" as no weather at all, and the key never in
 * an answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeatherAnswerDto } from '../../src/shared/api/weather.ts';
import { utcOffset } from '../../src/modules/weather/weather.service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const KEY = 'owm-test-key-0123456789';
const calls: string[] = [];
let fixture: http.Server;
let base: string;
let app: TestApp;

beforeAll(async () => {
  fixture = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    calls.push(`${url.pathname}?${url.searchParams.get('lat')},${url.searchParams.get('lon')}`);
    if (url.searchParams.get('appid') !== KEY) return res.writeHead(401).end('{"cod":401,"message":"Invalid API key"}');
    if (url.pathname === '/data/2.5/weather') {
      if (url.searchParams.get('units') !== 'metric') return res.writeHead(400).end();
      if (url.searchParams.get('lat') === '10') return res.writeHead(500).end();
      return res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          coord: { lat: Number(url.searchParams.get('lat')), lon: Number(url.searchParams.get('lon')) },
          weather: [{ id: 803, main: 'Clouds', description: 'broken clouds', icon: '04d' }],
          main: { temp: 12.6, feels_like: 11.9, humidity: 81, pressure: 1012 },
          wind: { speed: 3.1, deg: 240 },
          timezone: 7200,
          name: 'Zurich',
          cod: 200,
        }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => fixture.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  app = await startTestApp({ settings: { weather: { apiKey: KEY, enabled: true, baseUrl: base } } });
});
afterAll(async () => {
  await app?.close();
  await new Promise((r) => fixture.close(r));
});

const weather = (q: string, target = app) => target.anonymous<WeatherAnswerDto & { error?: unknown }>('GET', `/api/weather?${q}`);

describe('GET /api/weather', () => {
  it('answers the current weather, rounded Celsius, with the UTC offset', async () => {
    const res = await weather('lat=47.37&lon=8.54');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isRealWeather: true,
      weather: { temperature: 13, condition: 'Clouds', description: 'broken clouds', humidity: 81, windSpeed: 3.1, timezone: 'UTC+02:00', locationName: 'Zurich', coords: { lat: 47.37, lon: 8.54 } },
    });
    expect(JSON.stringify(res.body)).not.toContain(KEY);
  });

  it('keeps an answer for 5 minutes per coordinates', async () => {
    const before = calls.length;
    await weather('lat=46.5&lon=7.9');
    await weather('lat=46.5&lon=7.9');
    await weather('lat=46.5&lon=7.90001');
    expect(calls.length - before).toBe(1);
  });

  it('turns a failing service into FETCH_ERROR with the sample text, not real weather', async () => {
    const res = await weather('lat=10&lon=10');
    expect(res.body).toMatchObject({ isRealWeather: false, error: { code: 'FETCH_ERROR' } });
    expect((res.body as { fallback: string }).fallback).toMatch(/^[A-Z][a-z ]+ -?\d+°C$/);
  });

  it('refuses coordinates out of range with a 400', async () => {
    expect((await weather('lat=91&lon=0')).status).toBe(400);
    expect((await weather('lat=abc&lon=0')).status).toBe(400);
  });

  it('reports a refused key as NO_API_KEY', async () => {
    const wrongKey = await startTestApp({ settings: { weather: { apiKey: 'wrong', enabled: true, baseUrl: base } } });
    try {
      expect((await weather('lat=1&lon=1', wrongKey)).body).toMatchObject({ isRealWeather: false, error: { code: 'NO_API_KEY' } });
    } finally {
      await wrongKey.close();
    }
  });

  it('without a key (or disabled) there is no weather and no sample text: screens show nothing', async () => {
    const bare = await startTestApp();
    try {
      const res = await weather('lat=1&lon=1', bare);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        isRealWeather: false,
        error: { code: 'NOT_CONFIGURED', message: 'Weather service disabled or API key not configured' },
        fallback: null,
      });
    } finally {
      await bare.close();
    }
  });

  it.each([
    [7200, 'UTC+02:00'],
    [-16200, 'UTC-04:30'],
    [0, 'UTC+00:00'],
  ])('utcOffset(%s) = %s', (seconds, text) => {
    expect(utcOffset(seconds)).toBe(text);
  });
});
