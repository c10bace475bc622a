/**
 * Embedded streams, judged from their platform (fixture servers on 127.0.0.1 in the APIs'
 * documented shapes): the YouTube Data API when a key is set (live status, definition), public
 * oEmbed without one, Twitch's Helix with credentials, Vimeo's oEmbed — each with the confidence
 * of what it could measure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetcher, type SafeFetcher } from '../../src/http/safe-fetch.ts';
import { analyzeStream, type AnalyzerContext } from '../../src/modules/quality/analyzer/index.ts';
import { DEFAULT_MEDIA_TOOLS } from '../../src/modules/quality/analyzer/media-tools.ts';
import { scoreQuality } from '../../src/shared/quality/score.ts';
import { startPlatformFixtures, type PlatformFixtures } from '../support/platforms.ts';

let fixtures: PlatformFixtures;
let fetcher: SafeFetcher;
let ctx: AnalyzerContext;
beforeAll(async () => {
  fixtures = await startPlatformFixtures();
  fetcher = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
  ctx = { fetcher, tools: DEFAULT_MEDIA_TOOLS, platforms: fixtures.settings, sampleSeconds: 8, sleep: async () => {} };
});
afterAll(async () => {
  await fetcher.close();
  await fixtures.close();
});

const judge = async (url: string, context = ctx) => {
  const analysis = await analyzeStream({ url, latitude: null, longitude: null }, context);
  return { ...scoreQuality(analysis.measurements), measurements: analysis.measurements };
};

describe('embedded platforms', () => {
  it('YouTube with a key: live and HD from the API', async () => {
    expect(await judge('https://www.youtube.com/watch?v=live0000001')).toMatchObject({ score: 85, confidence: 0.6, faults: [], measurements: { method: 'api', live: true, definition: 'hd' } });
    expect(await judge('https://www.youtube.com/watch?v=rec00000000')).toMatchObject({ faults: ['not-live'] });
    expect(await judge('https://www.youtube.com/watch?v=gone0000000')).toMatchObject({ score: 0, faults: ['unreachable'], measurements: { error: 'The video does not exist or is private' } });
  });

  it('YouTube without a key: oEmbed only, with less confidence', async () => {
    const noKey = { ...ctx, platforms: { ...fixtures.settings, youtube: { ...fixtures.settings.youtube, apiKey: undefined } } };
    expect(await judge('https://www.youtube.com/watch?v=live0000001', noKey)).toMatchObject({ score: 70, confidence: 0.35, faults: [] });
    expect(await judge('https://www.youtube.com/watch?v=gone0000001', noKey)).toMatchObject({ faults: ['unreachable'] });
  });

  it('Twitch with credentials: live or not from Helix', async () => {
    expect(await judge('https://www.twitch.tv/alveussanctuary')).toMatchObject({ measurements: { method: 'api', live: true }, faults: [] });
    expect(await judge('https://www.twitch.tv/sleepingchannel')).toMatchObject({ measurements: { live: false }, faults: ['not-live'] });
  });

  it('Vimeo through oEmbed', async () => {
    expect(await judge('https://vimeo.com/76979871')).toMatchObject({ measurements: { method: 'oembed', reachable: true }, faults: [] });
    expect(await judge('https://vimeo.com/11111111')).toMatchObject({ faults: ['unreachable'] });
  });
});
