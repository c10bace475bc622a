/** The Screens tab's picture of a screen: which tiles, which stream state, and the sentence that sums it up. */
import { describe, expect, it } from 'vitest';
import type { SceneStreamDto, StreamDto } from '../../src/shared/api/index.ts';
import type { PlaybackState } from '../../src/shared/api/screens.ts';
import type { LiveRecords, Versioned } from '../../src/shared/live-records.ts';
import type { HealthState } from '../../src/shared/quality/health.ts';
import type { QualityFault } from '../../src/shared/quality/score.ts';
import { freshestStream, pictureSummary, playbackWord, screenPicture } from '../../web/features/admin/screens/screen-picture.ts';

/** The fields the picture reads; the rest of a StreamDto does not bear on it. */
function stream(id: number, name: string, health: HealthState = 'live', faults: QualityFault[] = []): StreamDto {
  return { id, name, health, health_faults: faults, health_since: null, still_url: `/api/streams/${id}/still?v=1` } as Partial<StreamDto> as StreamDto;
}

const at = (s: StreamDto, position: number): SceneStreamDto => ({ ...s, position });

const lava = stream(1, 'Lava Lake Overlook');
const reef = stream(2, 'Coral Reef Live');
const ridge = stream(3, 'Offline Ridge Camera', 'offline');
const dusk = stream(4, 'Alpine Dusk', 'degraded', ['frozen']);

const ocean = { name: 'Ocean hour', layout_type: 'mosaic' as const };
const resolved = (version: number, ...streams: SceneStreamDto[]): Versioned<readonly SceneStreamDto[]> => ({ value: streams, version });
const none: LiveRecords<StreamDto> = new Map();

function screen(kind: 'wall' | 'kiosk', health: Record<string, PlaybackState>, extra: { online?: boolean; position?: number | null; scene_id?: number | null } = {}) {
  return { kind, health, online: extra.online ?? true, position: extra.position ?? null, scene_id: extra.scene_id === undefined ? 7 : extra.scene_id };
}

describe('playback in the console\'s words', () => {
  it.each([
    ['playing', 'playing'],
    ['loading', 'loading'],
    ['stalled', 'buffering'],
    ['error', 'failed'],
    [null, 'not reported'],
  ] as [PlaybackState | null, string][])('%s → %s', (state, word) => {
    expect(playbackWord(state)).toBe(word);
  });
});

describe('a screen\'s tiles', () => {
  it('a wall: its scene\'s streams in wall order, its layout, each with its own report and the server\'s badge', () => {
    const picture = screenPicture(screen('wall', { 1: 'playing', 3: 'error' }), ocean, resolved(5, at(ridge, 3), at(lava, 1), at(reef, 2)), none);
    expect(picture.layout).toBe('mosaic');
    expect(picture.tiles.map((t) => [t.position, t.stream?.name, t.playback, t.status?.label])).toEqual([
      [1, 'Lava Lake Overlook', 'playing', 'LIVE'],
      [2, 'Coral Reef Live', null, 'LIVE'],
      [3, 'Offline Ridge Camera', 'error', 'OFFLINE'],
    ]);
  });

  it('a wall shows five tiles at most, as the Live Wall does', () => {
    const many = [1, 2, 3, 4, 5, 6].map((id) => at(stream(id, `Cam ${id}`), id));
    expect(screenPicture(screen('wall', {}), ocean, resolved(1, ...many), none).tiles.map((t) => t.position)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a kiosk: the one stream at its position, in a single tile', () => {
    const picture = screenPicture(screen('kiosk', { 2: 'stalled' }, { position: 2 }), ocean, resolved(1, at(lava, 1), at(reef, 2)), none);
    expect(picture.layout).toBe('grid');
    expect(picture.tiles.map((t) => [t.stream?.name, t.playback])).toEqual([['Coral Reef Live', 'stalled']]);
  });

  it('a kiosk whose position its scene does not fill has no tile', () => {
    expect(screenPicture(screen('kiosk', {}, { position: 5 }), ocean, resolved(1, at(lava, 1)), none).tiles).toEqual([]);
  });

  it('a health change pushed after the scene\'s resolution wins; an older cached state does not', () => {
    const fromScene = at(lava, 1);
    const offlineNow = { ...lava, health: 'offline' as const };
    expect(freshestStream(fromScene, 5, { value: offlineNow, version: 6 }).health).toBe('offline');
    expect(freshestStream(fromScene, 5, { value: offlineNow, version: 4 }).health).toBe('live');
    expect(freshestStream(fromScene, 5, { value: null, version: 9 })).toBe(fromScene);
    expect(freshestStream(fromScene, 5, undefined)).toBe(fromScene);
    const cache: LiveRecords<StreamDto> = new Map([[1, { value: offlineNow, version: 6 }]]);
    expect(screenPicture(screen('wall', {}), ocean, resolved(5, fromScene), cache).tiles[0]!.status?.label).toBe('OFFLINE');
  });

  it('without the scene\'s resolution, the streams the screen reports stand in, by id', () => {
    const cache: LiveRecords<StreamDto> = new Map([[2, { value: reef, version: 1 }]]);
    const picture = screenPicture(screen('wall', { 9: 'loading', 2: 'playing' }), ocean, undefined, cache);
    expect(picture.tiles.map((t) => [t.position, t.stream_id, t.stream?.name ?? null, t.playback])).toEqual([
      [1, 2, 'Coral Reef Live', 'playing'],
      [2, 9, null, 'loading'],
    ]);
  });
});

describe('the picture in one sentence', () => {
  it('a wall: tiles, then each playback state counted, then every stream the server does not hold live', () => {
    const picture = screenPicture(screen('wall', { 1: 'playing', 2: 'playing', 3: 'error' }), ocean, resolved(1, at(lava, 1), at(reef, 2), at(ridge, 3)), none);
    expect(pictureSummary(picture)).toBe('Wall showing Ocean hour: 3 tiles, 2 playing, 1 failed; 1 OFFLINE');
  });

  it('all live and all playing: nothing more to say', () => {
    const picture = screenPicture(screen('wall', { 1: 'playing' }), ocean, resolved(1, at(lava, 1)), none);
    expect(pictureSummary(picture)).toBe('Wall showing Ocean hour: 1 tile, 1 playing');
  });

  it('unreported tiles and degraded streams are counted by name', () => {
    const picture = screenPicture(screen('wall', { 4: 'stalled' }), ocean, resolved(1, at(dusk, 1), at(lava, 2)), none);
    expect(pictureSummary(picture)).toBe('Wall showing Ocean hour: 2 tiles, 1 buffering, 1 not reported; 1 FROZEN');
  });

  it('a kiosk: its position, its stream and how it plays', () => {
    const picture = screenPicture(screen('kiosk', { 2: 'playing' }, { position: 2 }), ocean, resolved(1, at(lava, 1), at(reef, 2)), none);
    expect(pictureSummary(picture)).toBe('Kiosk showing position 2 of Ocean hour: Coral Reef Live, playing');
  });

  it('an offline screen: since when, what it last showed, and no playback (it reports none)', () => {
    const picture = screenPicture(screen('wall', { 1: 'playing' }, { online: false }), ocean, resolved(1, at(lava, 1), at(ridge, 2)), none);
    expect(pictureSummary(picture, '14:05')).toBe('Wall, offline since 14:05, last showing Ocean hour: 2 tiles; 1 OFFLINE');
  });

  it('nothing to show: said so', () => {
    expect(pictureSummary(screenPicture(screen('wall', {}, { scene_id: null }), null, undefined, none))).toBe('Wall showing nothing yet');
    expect(pictureSummary(screenPicture(screen('kiosk', {}, { position: 5 }), ocean, resolved(1, at(lava, 1)), none))).toBe('Kiosk showing position 5 of Ocean hour: no stream');
    expect(pictureSummary(screenPicture(screen('wall', {}), ocean, resolved(1), none))).toBe('Wall showing Ocean hour: no streams');
  });
});
