/**
 * First-start data (spec §7 "Init"): the Default scene and `default_scene_id`, plus — once, and
 * only if wanted — a demo pool of real nature cams and a few scenes, so a new wall is full.
 * Idempotent and safe when several nodes start at once (one advisory lock).
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { SceneCreate, StreamCreate } from '../../shared/api/index.ts';
import { CATEGORIES } from '../../shared/constants.ts';
import { normalizeStreamUrl } from '../../shared/streams/url.ts';
import type { EntityManager } from '../../db.ts';
import type { Logger } from '../../logger.ts';
import { getConfigValue, setConfigValue } from '../config/config.service.ts';
import { createScene, ensureDefaultScene, sceneNamed } from '../scenes/scenes.service.ts';
import type { Stream } from '../streams/stream.entity.ts';
import { streamByUrl } from '../streams/stream-reads.ts';
import { createStream } from '../streams/streams.service.ts';

const DEMO_SEEDED_KEY = 'demo_seeded_at';
const SEED_LOCK = 7_361_001; // pg_advisory_xact_lock key: one seeder at a time across nodes

const DemoStream = z.object({
  name: z.string(),
  category: z.enum(CATEGORIES),
  url: z.url(),
  fallback: z.url().optional(),
  location: z.string(),
  lat: z.number(),
  lon: z.number(),
  tz: z.string(),
  note: z.string().optional(),
  confidence: z.enum(['high', 'medium', 'low']),
});

/** Demo scenes by stream name; the Default scene (recent) shows the newest five streams. */
const DEMO_SCENES = [
  {
    name: 'Wildlife Watch',
    description: 'Bears, waterholes and birds from four continents',
    algorithm: 'manual',
    layout: 'feature',
    streams: ['Djuma Gowrie Dam waterhole', 'Brooks Falls brown bears', 'Namib Desert waterhole', 'Cornell Lab Bird Cams', 'Alveus Sanctuary'],
  },
  {
    name: 'Fire & Water',
    description: 'Volcanoes, waterfalls and a coral reef',
    algorithm: 'manual',
    layout: 'mosaic',
    streams: ['Kilauea summit (USGS)', 'Niagara Falls Live', 'Sakurajima volcano', 'Rhine Falls', 'Coral City Camera'],
  },
  {
    name: 'Best Rated',
    description: 'The five streams with the best quality score right now',
    algorithm: 'ranked',
    layout: 'grid',
    streams: [],
  },
] as const;

/** The streams the Default (recent) scene should show go in last, so they are the newest. */
const NEWEST_FIRST_ON_DEFAULT = [
  'Mount Fuji over Lake Kawaguchi',
  'Monterey Bay Aquarium',
  'Namib Desert waterhole',
  'Niagara Falls Live',
  'Djuma Gowrie Dam waterhole',
];

async function loadDemoStreams(): Promise<z.infer<typeof DemoStream>[]> {
  const raw = JSON.parse(await readFile(new URL('./demo-streams.json', import.meta.url), 'utf8')) as unknown;
  const streams = z.array(DemoStream).parse(raw);
  const rank = (name: string) => NEWEST_FIRST_ON_DEFAULT.indexOf(name);
  return streams.sort((a, b) => rank(a.name) - rank(b.name)); // -1 (not listed) first, listed last in order
}

export async function seed(em: EntityManager, options: { demo: boolean; logger: Logger }): Promise<void> {
  await em.transactional(async (tx) => {
    // tx.execute runs inside the transaction (getConnection().execute would not, and the lock
    // would be released at once).
    await tx.execute(`select pg_advisory_xact_lock(${SEED_LOCK})`);

    const init = await ensureDefaultScene(tx, []); // nothing to push: screens connect after start-up
    if (init.createdScene) options.logger.info({ sceneId: init.sceneId }, 'created the Default scene');

    if (!options.demo || (await getConfigValue(tx, DEMO_SEEDED_KEY)) !== null) return;
    const byName = new Map<string, Stream>();
    for (const demo of await loadDemoStreams()) {
      const existing = await streamByUrl(tx, normalizeStreamUrl(demo.url));
      // The same path (and the same validation) as a stream added in the console.
      const stream =
        existing ??
        (await createStream(
          tx,
          [], // nothing to push: screens connect after start-up
          StreamCreate.parse({
            name: demo.name,
            url: demo.url,
            fallback_url: demo.fallback,
            description: demo.note,
            category: demo.category,
            location_name: demo.location,
            latitude: demo.lat,
            longitude: demo.lon,
            timezone: demo.tz,
          }),
        ));
      byName.set(demo.name, stream);
    }
    for (const demo of DEMO_SCENES) {
      if (await sceneNamed(tx, demo.name)) continue;
      // Through the scenes module, as a scene saved in the console is.
      await createScene(tx, [], SceneCreate.parse({
        name: demo.name,
        description: demo.description,
        selection_algorithm: demo.algorithm,
        max_streams: 5,
        layout_type: demo.layout,
        active: true,
        stream_ids: demo.streams.map((name) => byName.get(name)?.id ?? null),
      }));
    }
    await setConfigValue(tx, {
      key: DEMO_SEEDED_KEY,
      value: new Date().toISOString(),
      updatedBy: 'system',
      description: 'When the demo streams and scenes were added (they are added once)',
    });
    options.logger.info({ streams: byName.size, scenes: DEMO_SCENES.length }, 'added demo streams and scenes');
  });
}
