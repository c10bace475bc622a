/**
 * Screen reports by feature: a test-only feature (tests/support/beacon-reports.ts) is one more module
 * in the list — and hears what a wall reports: only the streams
 * whose playback changed, with what they were before, and who reported. A report that changes
 * nothing reaches no feature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { beaconReports, withReports } from '../support/beacon-reports.ts';
import { openScreen, type TestScreen } from '../support/screens.ts';

const beacon = beaconReports();
let app: TestApp;
const screens: TestScreen[] = [];

beforeAll(async () => {
  app = await startTestApp({ hub: true, appOptions: { modules: withReports(beacon) } });
});
afterAll(async () => {
  screens.forEach((s) => s.close());
  await app?.close();
});

describe('a feature that hears screens\' reports', () => {
  it('gets each change of playback once, with the state before and the screen that reported', async () => {
    const wall = openScreen(app.baseUrl, { kind: 'wall', device: 'dev-reports-1' });
    screens.push(wall);
    await wall.waitFor((s) => s !== null);
    const report = (streams: { stream_id: number; state: string }[]) => wall.client.socket.emitWithAck('screen:health', { streams });

    expect(await report([{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'loading' }])).toEqual({ data: { ok: true } });
    expect(await report([{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'error' }])).toEqual({ data: { ok: true } });
    expect(await report([{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'error' }])).toEqual({ data: { ok: true } }); // nothing changed

    expect(beacon.heard.map((r) => r.changes)).toEqual([
      [{ streamId: 7, state: 'playing', previous: null }, { streamId: 8, state: 'loading', previous: null }],
      [{ streamId: 8, state: 'error', previous: 'loading' }],
    ]);
    expect(beacon.heard[0]!).toMatchObject({ kind: 'playback', screen: { kind: 'wall', device: 'dev-reports-1', id: wall.client.socket.id } });
  });

  it('is not called for a report the hub refuses', async () => {
    const before = beacon.heard.length;
    const wall = openScreen(app.baseUrl, { kind: 'wall' });
    screens.push(wall);
    await wall.waitFor((s) => s !== null);
    expect(await wall.client.socket.emitWithAck('screen:health', { streams: [{ stream_id: 'x', state: 'error' }] })).toEqual({ error: 'Invalid health report' });
    expect(beacon.heard.length).toBe(before);
  });
});
