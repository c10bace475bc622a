/**
 * Spec §9 location suggestions: five well-known places per category, a stable choice for a
 * stream by hashing its id, or keyword rules on the URL when there is no category.
 */
import type { Category } from '../constants.ts';
import { suggestCategory } from './url.ts';

export interface LocationSuggestion {
  name: string;
  coordinates: { lat: number; lon: number };
  timezone: string;
  /** 0.8 from the category's list, 0.6 from the URL alone. */
  confidence: number;
  source: 'category' | 'url';
}

type Place = [name: string, lat: number, lon: number, timezone: string];

/** Five places per category; nature is the fallback. */
export const PLACES: Record<'wildlife' | 'ocean' | 'volcano' | 'waterfall' | 'nature', readonly Place[]> = {
  wildlife: [
    ['Serengeti National Park, Tanzania', -2.3333, 34.8333, 'Africa/Dar_es_Salaam'],
    ['Katmai National Park, Alaska', 58.5, -155.0, 'America/Anchorage'],
    ['Kruger National Park, South Africa', -23.9884, 31.5547, 'Africa/Johannesburg'],
    ['Yellowstone National Park, Wyoming', 44.428, -110.5885, 'America/Denver'],
    ['Wolong Nature Reserve, China', 31.0333, 103.1667, 'Asia/Shanghai'],
  ],
  ocean: [
    ['Great Barrier Reef, Australia', -18.2871, 147.6992, 'Australia/Brisbane'],
    ['Monterey Bay, California', 36.8007, -121.9473, 'America/Los_Angeles'],
    ['Maldives', 3.2028, 73.2207, 'Indian/Maldives'],
    ['Big Island, Hawaii', 19.8968, -155.5828, 'Pacific/Honolulu'],
    ['Bay of Biscay, France', 45.5, -3.0, 'Europe/Paris'],
  ],
  volcano: [
    ['Kilauea, Hawaii', 19.4069, -155.2834, 'Pacific/Honolulu'],
    ['Mount Etna, Italy', 37.751, 14.9934, 'Europe/Rome'],
    ['Sakurajima, Japan', 31.5853, 130.6572, 'Asia/Tokyo'],
    ['Fagradalsfjall, Iceland', 63.9033, -22.2733, 'Atlantic/Reykjavik'],
    ['Popocatépetl, Mexico', 19.0225, -98.6278, 'America/Mexico_City'],
  ],
  waterfall: [
    ['Niagara Falls, Canada/USA', 43.0962, -79.0377, 'America/Toronto'],
    ['Iguazu Falls, Argentina/Brazil', -25.6953, -54.4367, 'America/Argentina/Buenos_Aires'],
    ['Victoria Falls, Zambia/Zimbabwe', -17.9243, 25.8572, 'Africa/Harare'],
    ['Rhine Falls, Switzerland', 47.6779, 8.6151, 'Europe/Zurich'],
    ['Yosemite Falls, California', 37.7566, -119.5969, 'America/Los_Angeles'],
  ],
  nature: [
    ['Banff National Park, Canada', 51.4968, -115.9281, 'America/Edmonton'],
    ['Lake Kawaguchi, Japan', 35.5161, 138.7516, 'Asia/Tokyo'],
    ['Swiss Alps, Switzerland', 46.5197, 7.9597, 'Europe/Zurich'],
    ['Torres del Paine, Chile', -50.9423, -73.4068, 'America/Punta_Arenas'],
    ['Lofoten, Norway', 68.2341, 14.5636, 'Europe/Oslo'],
  ],
};

/** A small stable string hash (FNV-1a): the same stream always gets the same place. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Spec §9: from the category's list by hashing the stream id (confidence 0.8). */
export function suggestLocationForCategory(category: Category, streamId: string | number): LocationSuggestion {
  const places = category in PLACES ? PLACES[category as keyof typeof PLACES] : PLACES.nature;
  const [name, lat, lon, timezone] = places[hash(String(streamId)) % places.length]!;
  return { name, coordinates: { lat, lon }, timezone, confidence: 0.8, source: 'category' };
}

/** Spec §9: from URL keywords alone — a region name only, at 0,0 and UTC (confidence 0.6). */
export function suggestLocationForUrl(url: string): LocationSuggestion {
  const category = suggestCategory(url);
  const label = { wildlife: 'Wildlife habitat', ocean: 'Ocean coast', volcano: 'Volcanic region', waterfall: 'Waterfall', nature: 'Natural landscape' }[category];
  return { name: label, coordinates: { lat: 0, lon: 0 }, timezone: 'UTC', confidence: 0.6, source: 'url' };
}
