/**
 * One category rule (src/shared/streams/category-words.ts), one row per rule: the category a
 * text suggests is the same whether it is a stream's address (URL analysis, spec §9), a name
 * (submissions, the debug page), or what discovery reads of a find (name or address).
 */
import { describe, expect, it } from 'vitest';
import type { Category } from '../../src/shared/constants.ts';
import { assessRelevance } from '../../src/modules/discovery/relevance.ts';
import { suggestCategory } from '../../src/shared/streams/url.ts';

const slug = (text: string) => text.toLowerCase().replace(/\s+/g, '-');

/** The category of `text` by each road a stream's words take to it. */
function everyWay(text: string): Record<string, Category> {
  return {
    'URL analysis of an address': suggestCategory(`https://cams.example.org/${slug(text)}`),
    'URL analysis of a name': suggestCategory(text),
    'discovery, by name': assessRelevance({ name: text, url: 'https://cdn.example.org/live/index.m3u8', livePlatform: true }).category,
    'discovery, by address': assessRelevance({ name: 'Channel 7', url: `https://cams.example.org/${slug(text)}/index.m3u8`, livePlatform: true }).category,
  };
}

const rows: [rule: string, text: string, category: Category][] = [
  // §9's keywords, each deciding its category.
  ...(['wildlife', 'animal', 'zoo', 'safari', 'bird', 'eagle', 'panda', 'bear'] as const).map(
    (word): [string, string, Category] => [`§9 wildlife keyword "${word}"`, `Live ${word} view`, 'wildlife'],
  ),
  ...(['ocean', 'sea', 'beach', 'wave', 'coral', 'reef', 'marine'] as const).map(
    (word): [string, string, Category] => [`§9 ocean keyword "${word}"`, `Live ${word} view`, 'ocean'],
  ),
  ['§9 volcano keyword', 'Live volcano view', 'volcano'],
  ['§9 waterfall keyword', 'Live waterfall view', 'waterfall'],
  // §9's order: wildlife, ocean, volcano, waterfall.
  ['wildlife before ocean: "marine animal" is wildlife', 'Marine animal rescue', 'wildlife'],
  ['ocean before volcano', 'Volcano by the sea', 'ocean'],
  ['volcano before waterfall', 'Volcano waterfall', 'volcano'],
  // Words §9 does not name, for the two categories it gives no words for.
  ['a volcano word §9 does not name: lava', 'Lava lake', 'volcano'],
  ['a volcano by its name, accents dropped', 'Kīlauea summit', 'volcano'],
  ['a waterfall word §9 does not name: falls', 'Bridal Veil Falls', 'waterfall'],
  ['Niagara Falls', 'Niagara Falls', 'waterfall'],
  ['a waterfall by its name alone', 'Iguazu', 'waterfall'],
  ['a cascade', 'Cascade view', 'waterfall'],
  // Those words come after every §9 keyword: they never outvote one.
  ['§9 "waterfall" beats an unnamed volcano word', 'Kilauea waterfall', 'waterfall'],
  ['§9 "bear" beats an unnamed waterfall word', 'Brooks Falls bear', 'wildlife'],
  ['§9 "beach" beats an unnamed waterfall word', 'Niagara beach', 'ocean'],
  ['among unnamed words, volcano before waterfall', 'Lava falls', 'volcano'],
  // Whole words; a plain plural counts.
  ['a plural counts', 'Pandas', 'wildlife'],
  ['"Freeform" holds no reef', 'Freeform', 'nature'],
  ['"Zoom" holds no zoo', 'Zoom', 'nature'],
  ['"Bearing" is no bear', 'Bearing Strait', 'nature'],
  ['"Seashells" is no sea', 'Seashells', 'nature'],
  ['"fall" is no falls', 'Fall colours', 'nature'],
  // §9's lists for wildlife and ocean are its words, not a start of them.
  ['a wildlife word §9\'s list does not hold stays nature', 'Osprey nest', 'nature'],
  ['an ocean word §9\'s list does not hold stays nature', 'Aquarium', 'nature'],
  ['otherwise nature', 'Mountain lake', 'nature'],
];

describe('one category rule, whichever way a stream\'s words come', () => {
  it.each(rows)('%s', (_rule, text, category) => {
    const ways = everyWay(text);
    expect(ways).toEqual(Object.fromEntries(Object.keys(ways).map((way) => [way, category])));
  });

  it('"Niagara Falls" by address and by name: one category', () => {
    const byAddress = suggestCategory('https://www.example.org/webcams/niagara-falls');
    const byName = assessRelevance({ name: 'Niagara Falls', url: 'https://cdn.example.org/live/index.m3u8', livePlatform: true }).category;
    expect([byAddress, byName]).toEqual(['waterfall', 'waterfall']);
  });
});
