import type { SceneStreamDto, StreamDto } from '../../shared/api.ts';
import type { Stream } from './stream.entity.ts';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function presentStream(s: Stream): StreamDto {
  return {
    id: s.id,
    name: s.name,
    url: s.url,
    fallback_url: s.fallbackUrl ?? null,
    description: s.description ?? null,
    category: s.category,
    quality: s.quality,
    active: s.active,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
    quality_score: s.qualityScore ?? null,
    quality_assessed_at: iso(s.qualityAssessedAt),
    quality_confidence: s.qualityConfidence ?? null,
    location_name: s.locationName ?? null,
    latitude: s.latitude ?? null,
    longitude: s.longitude ?? null,
    timezone: s.timezone ?? null,
  };
}

export function presentSceneStream(s: Stream & { position: number }): SceneStreamDto {
  return { ...presentStream(s), position: s.position };
}
