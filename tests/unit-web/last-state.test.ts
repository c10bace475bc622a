/** A screen's last state, kept for a start without its server (issue 34): what is kept, how it comes back, and the bound. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KioskState, WallState } from '../../src/shared/events.ts';
import type { SceneDto } from '../../src/shared/api/index.ts';
import { keepLastState, lastState } from '../../web/features/screen/last-state.ts';

/** The Web Storage API over a Map (what the browser gives the page). */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const scene = { id: 3, name: 'Harbour at Dawn' } as SceneDto;
const wall = (version: number, at?: number): WallState => ({ kind: 'wall', version, ...(at ? { at } : {}), follows: null, scene, streams: [], problem: null });

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a screen keeps what it shows and starts from it', () => {
  it('comes back as the lowest version, waiting for no instant, for the same address only', () => {
    keepLastState('["/"]', wall(41, 1_795_000_000_000));
    expect(lastState('["/"]')).toEqual({ ...wall(-1), version: -1 });
    expect(lastState('["/scenes/other"]')).toBeNull();
  });

  it('keeps nothing worth starting from when there is no scene, and ignores what it cannot read', () => {
    keepLastState('a', { ...wall(2), scene: null, problem: 'no-default-scene' });
    keepLastState('b', { kind: 'admin', version: 2 });
    expect(lastState('a')).toBeNull();
    expect(lastState('b')).toBeNull();
    localStorage.setItem('nw:last-state:c', '{not json');
    expect(lastState('c')).toBeNull();
    localStorage.setItem('nw:last-state:d', JSON.stringify({ savedAt: 1, state: { kind: 'admin', version: 3 } }));
    expect(lastState('d')).toBeNull();
  });

  it('keeps at most eight addresses, dropping the oldest', () => {
    vi.useFakeTimers();
    for (let i = 0; i < 10; i++) {
      vi.setSystemTime(1_000 + i);
      const kiosk: KioskState = { kind: 'kiosk', version: i, follows: null, position: 1 + (i % 5), scene, stream: null, problem: null };
      keepLastState(`k${i}`, kiosk);
    }
    expect(localStorage.length).toBe(8);
    expect(lastState('k0')).toBeNull();
    expect(lastState('k1')).toBeNull();
    expect(lastState('k2')).toMatchObject({ kind: 'kiosk', position: 3, version: -1 });
    expect(lastState('k9')).toMatchObject({ kind: 'kiosk', position: 5 });
  });

  it('a refused write loses nothing but the copy', () => {
    vi.stubGlobal('localStorage', { ...memoryStorage(), setItem: () => { throw new Error('QuotaExceededError'); } });
    expect(() => keepLastState('x', wall(1))).not.toThrow();
    expect(lastState('x')).toBeNull();
  });
});
