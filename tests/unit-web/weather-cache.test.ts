import { describe, expect, it, vi } from 'vitest';

vi.mock('../../web/lib/api.ts', () => ({ call: vi.fn(() => Promise.resolve(null)) }));
const { call } = await import('../../web/lib/api.ts');
const { weatherAt, weatherPlacesKept } = await import('../../web/components/weather-cache.ts');

describe('the weather kept by a screen', () => {
  it('asks once per place within five minutes, and again after', async () => {
    const asked = () => vi.mocked(call).mock.calls.length;
    const before = asked();
    await weatherAt(10, 20, 0);
    await weatherAt(10.001, 20.001, 299_999); // the same place (to 0.01°), still fresh
    expect(asked() - before).toBe(1);
    await weatherAt(10, 20, 300_000);
    expect(asked() - before).toBe(2);
  });

  it('keeps only places asked for in the last five minutes, however many a wall went through', async () => {
    // A wall that runs for months shows thousands of cameras: one new place a minute for a week.
    for (let minute = 0; minute < 7 * 24 * 60; minute++) await weatherAt(-60 + (minute % 12_000) * 0.01, 0, 1_000_000 + minute * 60_000);
    expect(weatherPlacesKept()).toBeLessThanOrEqual(5);
  });
});
