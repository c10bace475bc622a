/**
 * What a screen shows, as the Screens tab pictures it: its tiles, each with the stream the scene
 * puts there (the freshest state the console holds of it), how that screen says its player is
 * doing, and what the server holds of the stream — and one sentence that says it all, for
 * assistive technology. Pure: ScreenPicture.tsx draws it, tests/unit-web/screen-picture.test.ts
 * walks its rules.
 */
import type { PlaybackState, ScreenPresence } from '../../../../src/shared/api/screens.ts';
import type { LayoutType } from '../../../../src/shared/constants.ts';
import type { SceneDto, SceneStreamDto, StreamDto } from '../../../../src/shared/api/index.ts';
import type { LiveRecords, Versioned } from '../../../../src/shared/live-records.ts';
import { onScreenStatus, type OnScreenStatus } from '../../../../src/shared/quality/on-screen-status.ts';
import { TILE_AREAS } from '../../../components/wall-layout.ts';

/** A player's state in the words the console uses (a stalled player is buffering; an errored one failed). */
export const PLAYBACK_WORDS = { playing: 'playing', loading: 'loading', stalled: 'buffering', error: 'failed' } as const satisfies Record<PlaybackState, string>;
export type PlaybackWord = (typeof PLAYBACK_WORDS)[PlaybackState] | 'not reported';

export function playbackWord(state: PlaybackState | null): PlaybackWord {
  return state ? PLAYBACK_WORDS[state] : 'not reported';
}

export interface PictureTile {
  /** Its place on the screen, 1..n. */
  position: number;
  stream_id: number;
  /** null: the console does not hold the stream (yet). */
  stream: StreamDto | null;
  /** As the screen last reported its player; null: no report for it. */
  playback: PlaybackState | null;
  /** What the server holds of the stream (null with the stream unknown): the tiles' own badge. */
  status: OnScreenStatus | null;
}

export interface ScreenPictureModel {
  kind: 'wall' | 'kiosk';
  online: boolean;
  /** The scene's name; null: it shows no scene (yet), or one the console does not know. */
  sceneName: string | null;
  layout: LayoutType;
  tiles: PictureTile[];
  /** A kiosk's place in its scene. */
  position: number | null;
}

/**
 * The newer of a stream as its scene's resolution carried it and as the stream cache holds it:
 * both are labelled on the one version scale (src/shared/live-records.ts), so a health change
 * pushed after the scene's last resolution wins, and an older cache entry does not.
 */
export function freshestStream(fromScene: StreamDto, sceneVersion: number, cached: Versioned<StreamDto> | undefined): StreamDto {
  return cached?.value && cached.version > sceneVersion ? cached.value : fromScene;
}

/**
 * A wall's or kiosk's tiles: its scene's streams in wall order (a wall shows at most five, a
 * kiosk the one at its position). When the console has no resolution of that scene (an
 * inactive one, or not loaded yet), the streams the screen itself reports stand in for it.
 */
export function screenPicture(
  screen: Pick<ScreenPresence, 'kind' | 'online' | 'position' | 'health' | 'scene_id'>,
  scene: Pick<SceneDto, 'name' | 'layout_type'> | null,
  sceneStreams: Versioned<readonly SceneStreamDto[]> | undefined,
  streams: LiveRecords<StreamDto>,
): ScreenPictureModel {
  const kind = screen.kind === 'kiosk' ? 'kiosk' : 'wall';
  const position = kind === 'kiosk' ? (screen.position ?? 1) : null;
  const playbackOf = (id: number): PlaybackState | null => screen.health[String(id)] ?? null;
  const tile = (stream_id: number, at: number, stream: StreamDto | null): PictureTile => ({
    position: at,
    stream_id,
    stream,
    playback: playbackOf(stream_id),
    status: stream ? onScreenStatus(stream) : null,
  });

  let tiles: PictureTile[];
  const resolved = screen.scene_id !== null && sceneStreams?.value ? sceneStreams : null;
  if (resolved) {
    const inOrder = [...resolved.value!].sort((a, b) => a.position - b.position);
    const shown = kind === 'kiosk' ? inOrder.filter((s) => s.position === position) : inOrder.slice(0, TILE_AREAS.length);
    tiles = shown.map((s) => tile(s.id, s.position, freshestStream(s, resolved.version, streams.get(s.id))));
  } else {
    const reported = Object.keys(screen.health)
      .map(Number)
      .sort((a, b) => a - b)
      .slice(0, kind === 'kiosk' ? 1 : TILE_AREAS.length);
    tiles = reported.map((id, i) => tile(id, position ?? i + 1, streams.get(id)?.value ?? null));
  }
  return {
    kind,
    online: screen.online,
    sceneName: screen.scene_id === null ? null : (scene?.name ?? null),
    layout: kind === 'kiosk' ? 'grid' : (scene?.layout_type ?? 'grid'),
    tiles,
    position,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "2 playing, 1 failed": each word with its count, in a fixed order, leaving out the zeros. */
function tally(words: readonly string[], order: readonly string[]): string[] {
  return order.flatMap((word) => {
    const n = words.filter((w) => w === word).length;
    return n ? [`${n} ${word}`] : [];
  });
}

const WORD_ORDER: readonly PlaybackWord[] = ['playing', 'loading', 'buffering', 'failed', 'not reported'];

/**
 * The picture in one sentence: "Wall showing Ocean hour: 3 tiles, 2 playing, 1 failed; 1 OFFLINE"
 * — the players as the screen reports them, then every stream the server does not hold live.
 * An offline screen reports nothing: "Wall, offline since 14:05, last showing Ocean hour: 3 tiles".
 */
export function pictureSummary(picture: ScreenPictureModel, offlineSince: string | null = null): string {
  const who = picture.kind === 'kiosk' ? 'Kiosk' : 'Wall';
  const lead = picture.online ? `${who} showing` : `${who}, offline${offlineSince ? ` since ${offlineSince}` : ''}, last showing`;
  if (picture.sceneName === null && picture.tiles.length === 0) return `${lead} nothing yet`;
  const what = picture.kind === 'kiosk' ? `position ${picture.position}${picture.sceneName ? ` of ${picture.sceneName}` : ''}` : (picture.sceneName ?? 'an unknown scene');
  if (picture.tiles.length === 0) return `${lead} ${what}: ${picture.kind === 'kiosk' ? 'no stream' : 'no streams'}`;

  const notLive = picture.tiles.flatMap((t) => (t.status && t.status.tone !== 'live' ? [t.status.label] : []));
  const health = tally(notLive, [...new Set(notLive)]);
  const problems = health.length ? `; ${health.join(', ')}` : '';
  if (picture.kind === 'kiosk') {
    const only = picture.tiles[0]!;
    const name = only.stream?.name ?? `stream #${only.stream_id}`;
    const state = picture.online ? `, ${playbackWord(only.playback)}` : '';
    return `${lead} ${what}: ${name}${state}${problems}`;
  }
  const players = picture.online ? tally(picture.tiles.map((t) => playbackWord(t.playback)), WORD_ORDER) : [];
  return `${lead} ${what}: ${[plural(picture.tiles.length, 'tile'), ...players].join(', ')}${problems}`;
}
