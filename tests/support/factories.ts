/** Test data with sensible defaults; pass only what a test cares about. */
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '../../src/db.ts';
import { Scene, SceneStream } from '../../src/modules/scenes/scene.entity.ts';
import { Stream } from '../../src/modules/streams/stream.entity.ts';
import { normalizeStreamUrl } from '../../src/shared/streams/url.ts';
import { slugify } from '../../src/shared/scenes/slug.ts';

type StreamOverrides = Partial<Pick<Stream,
  'name' | 'url' | 'category' | 'quality' | 'active' | 'qualityScore' | 'createdAt' | 'locationName' | 'latitude' | 'longitude' | 'timezone'>>;

export async function buildStream(em: EntityManager, overrides: StreamOverrides = {}): Promise<Stream> {
  const tag = randomBytes(4).toString('hex');
  const url = overrides.url ?? `https://cams.example.org/${tag}/live.m3u8`;
  const stream = em.create(Stream, {
    name: `Cam ${tag}`,
    category: 'nature',
    quality: 'hd',
    active: true,
    ...overrides,
    url,
    normalizedUrl: normalizeStreamUrl(url),
  });
  await em.flush();
  return stream;
}

type SceneOverrides = Partial<Pick<Scene, 'name' | 'selectionAlgorithm' | 'maxStreams' | 'layoutType' | 'active' | 'description'>> & {
  /** Manual slots in order (null = empty slot). */
  streams?: (Stream | null)[];
};

export async function buildScene(em: EntityManager, overrides: SceneOverrides = {}): Promise<Scene> {
  const { streams, ...fields } = overrides;
  const name = fields.name ?? `Scene ${randomBytes(3).toString('hex')}`;
  const scene = em.create(Scene, {
    slug: slugify(name) || null,
    selectionAlgorithm: 'manual',
    maxStreams: 5,
    layoutType: 'grid',
    active: true,
    ...fields,
    name,
  });
  streams?.forEach((stream, index) => {
    if (stream) em.create(SceneStream, { scene, stream, position: index + 1, manualPriority: 0 });
  });
  await em.flush();
  return scene;
}
