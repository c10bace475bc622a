/**
 * The weather at a stream's place (spec §3): real weather from GET /api/weather when the server
 * has a key; the spec's sample text when the service failed (marked as such); nothing at all
 * when weather is not configured. One request per place per 5 minutes, shared by every card.
 */
import { useEffect, useState } from 'react';
import type { WeatherAnswerDto } from '../../src/shared/api/index.ts';
import { isValidCoordinates } from '../../src/shared/streams/location.ts';
import { TTL_MS, weatherAt } from './weather-cache.ts';

export function Weather({ latitude, longitude, className = 'weather' }: { latitude: number | null; longitude: number | null; className?: string }) {
  const [answer, setAnswer] = useState<WeatherAnswerDto | null>(null);
  useEffect(() => {
    if (latitude === null || longitude === null || !isValidCoordinates(latitude, longitude)) return;
    let live = true;
    void weatherAt(latitude, longitude).then((a) => live && setAnswer(a));
    const timer = setInterval(() => void weatherAt(latitude, longitude).then((a) => live && setAnswer(a)), TTL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [latitude, longitude]);

  if (!answer) return null;
  if (answer.isRealWeather) {
    const w = answer.weather;
    return (
      <span className={className} title={`${w.description}, humidity ${w.humidity}%, wind ${w.windSpeed} m/s`}>
        {w.temperature}°C · {w.condition}
      </span>
    );
  }
  if (!answer.fallback) return null; // not configured: no weather, not an error
  return (
    <span className={`${className} ${className}--sample`} title="Sample weather: the weather service did not answer">
      {answer.fallback}
    </span>
  );
}
