/** Which finds look like nature cams, and their category: one row per rule. */
import { describe, expect, it } from 'vitest';
import { assessRelevance } from '../../src/modules/discovery/relevance.ts';
import { suggestCategory } from '../../src/shared/streams/url.ts';

const list = (name: string, extra: { group?: string; url?: string; tvgId?: string } = {}) =>
  assessRelevance({ name, group: extra.group ?? null, tvgId: extra.tvgId ?? null, url: extra.url ?? 'https://cdn.example.org/live/index.m3u8', livePlatform: false });

describe('assessRelevance: not nature cams', () => {
  it.each([
    ['"Freeform" holds no reef', 'Freeform', 'Entertainment', 'off-topic'],
    ['"Freeform" without a group', 'Freeform', '', 'no nature words'],
    ['"Cooking Panda" is a cooking channel', 'Cooking Panda', 'Cooking', 'off-topic'],
    ['"Cooking Panda" says so itself', 'Cooking Panda', '', 'off-topic'],
    ['"Zoom" holds no zoo', 'Zoom', '', 'no nature words'],
    ['"CNN International"', 'CNN International', 'News', 'off-topic'],
    ['"CNN International" without a group', 'CNN International', '', 'no nature words'],
    ['a shopping channel with a beach in its name', 'Beach Shopping TV', '', 'off-topic'],
    ['a religious channel with a mountain', 'Mountain Gospel Network', 'Religious', 'off-topic'],
    ['a nature documentary channel is not a camera', 'Love Nature 4K', 'Documentary', 'off-topic'],
    ['a nature TV channel without a camera', 'Nature Vision TV', '', 'not a camera'],
    ['a kids channel with animals', 'Baby Animals Kids TV', 'Kids', 'off-topic'],
    ['sport by the sea', 'Sea Sports Live', '', 'off-topic'],
  ])('%s', (_rule, name, group, reason) => {
    expect(list(name, { group })).toMatchObject({ relevant: false, reason });
  });
});

describe('assessRelevance: nature cams', () => {
  it.each([
    // Its category is the one rule's (tests/unit/category-words.test.ts): "aquarium" is a nature
    // word but not among §9's ocean keywords.
    ['an aquarium is a nature cam', 'Monterey Bay Aquarium Live Cam', {}, 'nature'],
    ['an aquarium with a §9 ocean word', 'Monterey Bay Aquarium Coral Reef Cam', {}, 'ocean'],
    ['Kīlauea volcano webcam (accents)', 'Kīlauea volcano webcam', {}, 'volcano'],
    ['Explore.org Brown Bear Cam', 'Explore.org Brown Bear Cam', {}, 'wildlife'],
    ['a camera word in camelCase', 'BrooksFallsBearCam', {}, 'wildlife'],
    ['a waterfall camera', 'Niagara Falls webcam', {}, 'waterfall'],
    ['a general nature camera', 'Lake Tahoe webcam', {}, 'nature'],
    ['a camera network\'s host makes it a camera', 'Decorah Eagles North Nest', { url: 'https://explore.org/livecams/birds/decorah-eagles' }, 'wildlife'],
    ['"marine animal" is wildlife (spec order)', 'Marine animal cam', {}, 'wildlife'],
    ['words in the address count', 'Channel 7', { url: 'https://cams.example.org/coral-reef-cam/index.m3u8' }, 'ocean'],
    ['an Outdoor group is fine', 'Osprey nest cam', { group: 'Outdoor' }, 'nature'],
    ['a bird word of §9 makes it wildlife', 'Osprey nest bird cam', { group: 'Outdoor' }, 'wildlife'],
  ])('%s', (_rule, name, extra, category) => {
    expect(list(name, extra)).toEqual({ relevant: true, category, reason: 'nature cam' });
  });

  it('finds of a live platform\'s search need no camera word', () => {
    expect(assessRelevance({ name: 'Decorah Eagles - North Nest', url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa', livePlatform: true })).toEqual({ relevant: true, category: 'wildlife', reason: 'nature cam' });
    expect(assessRelevance({ name: 'Fox News Live', url: 'https://www.youtube.com/watch?v=bbbbbbbbbbb', livePlatform: true })).toMatchObject({ relevant: false, reason: 'off-topic' });
    expect(assessRelevance({ name: 'lofi hip hop radio', url: 'https://www.youtube.com/watch?v=ccccccccccc', livePlatform: true })).toMatchObject({ relevant: false, reason: 'off-topic' });
  });
});

describe('suggestCategory matches whole words (spec §9 keywords)', () => {
  it.each([
    ['Freeform', 'nature'],
    ['Zoom', 'nature'],
    ['Cooking Panda', 'wildlife'],
    ['https://example.org/seals-and-seashells', 'nature'],
    ['https://example.org/eagles', 'wildlife'],
    ['https://example.org/BeachCam', 'ocean'],
    ['Bearing Sea Cam', 'ocean'],
  ])('%s → %s', (text, category) => {
    expect(suggestCategory(text)).toBe(category);
  });
});
