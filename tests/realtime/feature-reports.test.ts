/**
 * Screen reports are declarations: a test-only feature (tests/support/beacon-reports.ts) is one
 * more module in the list, declares a report of its own and hears another feature's. The hub
 * validates the new report against its schema, checks who sent it, answers with the owner's
 * answer, and hands every listener the report with what was kept before — without one line of
 * src/realtime/ naming it. (Keeping a report's latest value is tried on the screens module's own,
 * tests/realtime/flip.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reportTable, declareReport } from '../../src/realtime/reports.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { beaconReports, BeaconReport, withReports } from '../support/beacon-reports.ts';
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

const open = async (registration: Parameters<typeof openScreen>[1]) => {
  const screen = openScreen(app.baseUrl, registration);
  screens.push(screen);
  await screen.waitFor((s) => s !== null);
  return screen;
};

describe('a feature that declares a report of its own', () => {
  it('is validated, checked for who sent it and answered by its owner', async () => {
    const wall = await open({ kind: 'wall', device: 'dev-beacon-1', name: 'Beacon wall' });
    const send = (report: unknown) => wall.client.socket.timeout(2000).emitWithAck('screen:beacon', report as never);

    expect(await send({ blink: 3 })).toEqual({ data: { seen: 1 } });
    expect(beacon.received.at(-1)).toMatchObject({ report: { blink: 3 }, screen: { kind: 'wall', device: 'dev-beacon-1', name: 'Beacon wall', id: wall.client.socket.id } });
    expect(await send({ blink: 'on' })).toEqual({ error: 'Invalid beacon report' });
    expect(await send({ blink: 3, extra: true })).toEqual({ error: 'Invalid beacon report' });
    expect(beacon.received).toHaveLength(1); // nothing refused reached the owner

    const kiosk = await open({ kind: 'kiosk', device: 'dev-beacon-2', position: 1 });
    expect(await kiosk.client.socket.timeout(2000).emitWithAck('screen:beacon', { blink: 1 })).toEqual({ error: 'A kiosk does not send beacon reports' });
    const anonymous = await open({ kind: 'wall' });
    expect(await anonymous.client.socket.timeout(2000).emitWithAck('screen:beacon', { blink: 1 })).toEqual({ error: 'A beacon needs a device id' });
    expect(beacon.received).toHaveLength(1);
    expect(await send({ blink: 4 })).toEqual({ data: { seen: 2 } });
  });

  it('hears another feature\'s report with what was kept before, and only reports the hub accepted', async () => {
    const wall = await open({ kind: 'wall', device: 'dev-beacon-3' });
    const report = (streams: unknown) => wall.client.socket.timeout(2000).emitWithAck('screen:health', { streams } as never);
    const mine = () => beacon.heard.filter((h) => h.screen.id === wall.client.socket.id);

    expect(await report([{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'loading' }])).toEqual({ data: { ok: true } });
    expect(await report([{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'error' }])).toEqual({ data: { ok: true } });
    expect(await report([{ stream_id: 'x', state: 'error' }])).toEqual({ error: 'Invalid health report' });
    expect(mine().map((h) => [h.report.streams, h.before])).toEqual([
      [[{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'loading' }], null],
      [[{ stream_id: 7, state: 'playing' }, { stream_id: 8, state: 'error' }], { '7': 'playing', '8': 'loading' }],
    ]);
    expect(mine()[0]!.screen).toMatchObject({ kind: 'wall', device: 'dev-beacon-3' });
  });

  it('a report nobody declares is answered with a sentence, not left hanging', async () => {
    const wall = await open({ kind: 'wall', device: 'dev-beacon-4' });
    const answer = await wall.client.socket.timeout(2000).emitWithAck('screen:dropped-everything' as 'screen:beacon', { blink: 1 });
    expect(answer).toEqual({ error: 'This server takes no dropped-everything reports' });
  });
});

describe('the report table', () => {
  const declaration = declareReport({ name: 'beacon', title: 'beacon', schema: BeaconReport, from: ['wall'], receive: () => ({ seen: 0 }) });
  it('refuses a report declared twice, heard and declared nowhere, or on the hub\'s own event', () => {
    expect(() => reportTable([{ name: 'a', declares: [declaration] }, { name: 'b', declares: [declaration] }])).toThrow('The report "beacon" is declared twice (again by b)');
    expect(() => reportTable([{ name: 'c', hears: [{ report: 'beacon', hear: () => {} }] }])).toThrow('c hears the report "beacon", which no module declares');
    expect(() => reportTable([{ name: 'd', declares: [{ ...declaration, name: 'register' as 'beacon' }] }])).toThrow('d declares the report "register": screen:register is the hub\'s own');
  });

  it('the hub names no report: src/realtime/ has no report name of any feature in it', () => {
    const dir = path.resolve(import.meta.dirname, '../../src/realtime');
    const hub = readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
    for (const name of ['health', 'clock', 'flip', 'offline_start', 'plays', 'beacon']) expect(hub, name).not.toMatch(new RegExp(`['\`]screen:${name}['\`]|name: '${name}'`));
    expect(hub).not.toMatch(/PlayReport|HealthReport|onPlays/);
  });
});
