/**
 * The streams and scenes every end-to-end test starts from: seven cameras on local media (one
 * live HLS, the rest MP4 clips), one dead camera, and scenes in each layout. Built through the
 * REST API as an administrator would.
 */
import type { Api } from './api.ts';
import type { MediaServer } from './media.ts';

export interface World {
  streams: Record<'forest' | 'kelp' | 'savanna' | 'lava' | 'falls' | 'dusk' | 'reef' | 'offline', { id: number; name: string }>;
  scenes: Record<'morning' | 'ocean' | 'peaks' | 'offline' | 'evening', { id: number; slug: string; name: string }>;
}

export async function buildWorld(api: Api, media: MediaServer): Promise<World> {
  const stream = async (
    name: string,
    url: string,
    category: 'nature' | 'volcano' | 'ocean' | 'waterfall' | 'wildlife',
    location_name: string,
    latitude: number,
    longitude: number,
    timezone: string,
    quality: 'hd' | '4k' | 'sd' = 'hd',
  ) => {
    // The live HLS camera replays a 30 s clip: a recording meant as a camera here, so it is marked fine.
    const created = await api.createStream({ name, url, category, location_name, latitude, longitude, timezone, quality, recording_ok: url === media.hlsUrl });
    return { id: created.id, name: created.name };
  };
  const streams: World['streams'] = {
    forest: await stream('Boreal Forest Canopy', media.hlsUrl, 'nature', 'Lapland, Finland', 68.66, 27.54, 'Europe/Helsinki'),
    kelp: await stream('Kelp Forest Cove', media.clipUrl('ocean', 'kelp'), 'ocean', 'Monterey Bay, California', 36.62, -121.9, 'America/Los_Angeles'),
    savanna: await stream('Savanna Waterhole', media.clipUrl('meadow', 'savanna'), 'wildlife', 'Etosha, Namibia', -19.18, 15.91, 'Africa/Windhoek'),
    lava: await stream('Lava Lake Overlook', media.clipUrl('lava'), 'volcano', 'Kilauea, Hawaii', 19.41, -155.28, 'Pacific/Honolulu', '4k'),
    falls: await stream('Highland Falls', media.clipUrl('forest', 'falls'), 'waterfall', 'Skogafoss, Iceland', 63.53, -19.51, 'Atlantic/Reykjavik'),
    dusk: await stream('Alpine Dusk', media.clipUrl('dusk'), 'nature', 'Lauterbrunnen, Switzerland', 46.59, 7.91, 'Europe/Zurich', '4k'),
    reef: await stream('Coral Reef Live', media.clipUrl('ocean', 'reef'), 'ocean', 'Great Barrier Reef, Australia', -18.29, 147.7, 'Australia/Brisbane', 'sd'),
    offline: await stream('Offline Ridge Camera', media.deadUrl, 'nature', 'Ridge Station', 45.0, 6.5, 'Europe/Paris'),
  };
  const s = streams;
  const scene = async (name: string, description: string | null, layout_type: 'grid' | 'mosaic' | 'feature', ids: number[]) => {
    const created = await api.createScene({ name, description, layout_type, selection_algorithm: 'manual', max_streams: 5, stream_ids: ids });
    return { id: created.id, slug: created.slug ?? String(created.id), name: created.name };
  };
  const scenes: World['scenes'] = {
    morning: await scene('Morning Canopy', 'Forest light, a kelp cove and the savanna at first light', 'grid', [s.forest.id, s.kelp.id, s.savanna.id, s.lava.id, s.falls.id]),
    ocean: await scene('Ocean & Fire', 'Reefs, lava and falling water', 'mosaic', [s.lava.id, s.reef.id, s.kelp.id, s.dusk.id, s.falls.id]),
    peaks: await scene('Quiet Peaks', 'Mountain evenings and highland water', 'feature', [s.dusk.id, s.falls.id, s.savanna.id]),
    offline: await scene('Offline Test', 'A camera that does not answer', 'grid', [s.offline.id]),
    evening: await scene('Evening Mix', null, 'grid', [s.reef.id, s.dusk.id]),
  };
  await api.setDefaultScene(scenes.morning.id);
  return { streams, scenes };
}
