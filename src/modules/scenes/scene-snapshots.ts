/**
 * The scene controller's memory: each active scene resolved to what screens show (the scene
 * and its streams, positions 1..n), kept until something changes. Walls and kiosks read the
 * same few scenes thousands of times between two admin edits, so reads come from here and
 * every published change clears it (before the write's answer is sent: read-your-writes).
 * A TTL bounds staleness from writes that bypass the publisher (a manual SQL edit). While the
 * database is away, an expired entry is still served (screens keep their scene); the hub
 * clears everything when the database is back.
 */
import { isDatabaseUnavailable } from '../../database/availability.ts';
import type { Orm } from '../../db.ts';
import { getDefaultSceneId } from './scenes.service.ts';
import { loadSceneSnapshot, type SceneSnapshot, type SceneWhere } from './scene-queries.ts';

export type { SceneSnapshot };

export interface ReadOptions {
  /** Read the database now and replace the cached entry (pushes use this). */
  fresh?: boolean;
}

interface Entry<T> {
  value: Promise<T>;
  expires: number;
  /** The answer, once the read succeeded: what an outage falls back to. */
  settled?: { value: T };
}

/** How soon a read that fell back to an old answer during an outage is tried again. */
const OUTAGE_RETRY_MS = 1_000;

export class SceneSnapshots {
  readonly #orm: Orm;
  readonly #ttlMs: number;
  readonly #byId = new Map<number, Entry<SceneSnapshot | null>>();
  /** By the slug or id text of a request; only references that found a scene stay (bounded). */
  readonly #byRef = new Map<string, Entry<SceneSnapshot | null>>();
  readonly #defaultId = new Map<'id', Entry<number | null>>();
  readonly #default = new Map<'snapshot', Entry<SceneSnapshot | null>>();

  readonly #now: () => number;

  constructor(orm: Orm, options: { ttlMs?: number; now?: () => number } = {}) {
    this.#orm = orm;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** What time it is for scenes that depend on it (daylight); tests control it. */
  now(): number {
    return this.#now();
  }

  /** Forget everything; reads already under way are not stored. */
  invalidate(): void {
    this.#byId.clear();
    this.#byRef.clear();
    this.#defaultId.clear();
    this.#default.clear();
  }

  #cached<K, T>(map: Map<K, Entry<T>>, key: K, load: () => Promise<T>, fresh = false): Promise<T> {
    const hit = map.get(key);
    if (!fresh && hit && hit.expires > this.#now()) return hit.value;
    const previous = hit?.settled;
    const entry = { expires: this.#now() + this.#ttlMs } as Entry<T>;
    entry.value = load().then(
      (value) => {
        entry.settled = { value };
        // A daylight scene changes by itself at its next crossing: not served from here after it.
        const until = (value as { validUntil?: number } | null)?.validUntil;
        if (until !== undefined) entry.expires = Math.min(entry.expires, until);
        return value;
      },
      (error: unknown) => {
        if (fresh || !previous || !isDatabaseUnavailable(error)) throw error;
        entry.settled = previous;
        entry.expires = this.#now() + OUTAGE_RETRY_MS;
        return previous.value;
      },
    );
    map.set(key, entry);
    const forget = () => {
      if (map.get(key) === entry) map.delete(key);
    };
    entry.value.then((value) => value === null && forget(), forget);
    return entry.value;
  }

  defaultSceneId(options: ReadOptions = {}): Promise<number | null> {
    return this.#cached(this.#defaultId, 'id', () => getDefaultSceneId(this.#orm.em.fork()), options.fresh);
  }

  /** The active scene with this id, or null. */
  byId(id: number, options: ReadOptions = {}): Promise<SceneSnapshot | null> {
    return this.#cached(this.#byId, id, () => this.#load({ id }), options.fresh);
  }

  /** An active scene by slug, or by id when no slug matches (spec routes /scenes/{slug}); or null. */
  byRef(idOrSlug: string, options: ReadOptions = {}): Promise<SceneSnapshot | null> {
    return this.#cached(this.#byRef, idOrSlug, () => this.#load({ ref: idOrSlug }), options.fresh);
  }

  /**
   * What a screen following the default scene shows; null when no default is configured.
   * `likely`: the scene a change just made the default (scene-queries.ts reads with its statement first).
   */
  defaultSnapshot(options: ReadOptions & { likely?: number | undefined } = {}): Promise<SceneSnapshot | null> {
    return this.#cached(this.#default, 'snapshot', () => this.#load('default', options.likely), options.fresh);
  }

  #load(where: SceneWhere, likely?: number): Promise<SceneSnapshot | null> {
    return loadSceneSnapshot(this.#orm.em.fork(), where, this.#now(), likely);
  }
}
