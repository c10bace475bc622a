/** The weather at each camera, from OpenWeatherMap through the server (the key never reaches a browser). */
import { flag, optionalText, url } from '../../env.ts';
import { defineModule } from '../module.ts';
import { weatherRouter } from './weather.routes.ts';
import { createWeather, type WeatherOptions } from './weather.service.ts';

export const weatherModule = defineModule<WeatherOptions, ReturnType<typeof createWeather>>({
  name: 'weather',
  settings: {
    env: { WEATHER_API_KEY: optionalText, WEATHER_ENABLED: flag(true), WEATHER_BASE_URL: url('https://api.openweathermap.org') },
    read: (e) => ({ apiKey: e.WEATHER_API_KEY as string | undefined, enabled: e.WEATHER_ENABLED as boolean, baseUrl: e.WEATHER_BASE_URL as string }),
  },
  setup: ({ settings }) => createWeather(settings),
  routes: ({ limits }, weather) => [weatherRouter({ weather, weatherLimit: limits.limiter('weather', 300, 60) })],
});
