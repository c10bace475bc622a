/**
 * The one rule for the category a stream's words suggest, used by URL analysis (a pasted
 * address, a submission's address and title) and by discovery (a find's name, playlist metadata
 * and address), so "Niagara Falls" is one category wherever it is read. Table-tested in
 * tests/unit/category-words.test.ts.
 *
 * Spec §9 fixes the contract: "Keyword rules on URL: wildlife (wildlife, animal, zoo, safari,
 * bird, eagle, panda, bear), ocean (ocean, sea, beach, wave, coral, reef, marine), volcano,
 * waterfall; otherwise nature." So:
 * - §9's words, in §9's order, come first, and decide alone whenever a text holds one: wildlife
 *   before ocean ("marine animal" is wildlife), volcano, then waterfall.
 * - §9 lists the words of wildlife and ocean, and those lists are kept as they are: an osprey
 *   or an aquarium, holding none of them, is nature here as §9 says.
 * - §9 names volcano and waterfall but gives them no list: there it is silent, and the words
 *   discovery has always used for them (lava, Kīlauea…; falls, Niagara…) are added — after
 *   every §9 word, so none of them outvotes one ("Kilauea waterfall" stays waterfall), and in
 *   §9's order among themselves ("lava falls" is volcano).
 * Words match whole, as `hasTerm` does (a plain plural counts): "Freeform" holds no reef.
 */
import type { Category } from '../constants.ts';
import { hasTerm, wordsOf } from './words.ts';

/** In order; the first row with a word the text holds names its category. */
export const CATEGORY_WORDS: readonly (readonly [Category, readonly string[]])[] = [
  // Spec §9, word for word.
  ['wildlife', ['wildlife', 'animal', 'zoo', 'safari', 'bird', 'eagle', 'panda', 'bear']],
  ['ocean', ['ocean', 'sea', 'beach', 'wave', 'coral', 'reef', 'marine']],
  ['volcano', ['volcano']],
  ['waterfall', ['waterfall']],
  // Where §9 is silent: more words for the two categories it gives none.
  ['volcano', ['volcanic', 'lava', 'eruption', 'crater', 'kilauea', 'etna', 'stromboli', 'vesuvius', 'fagradalsfjall', 'popocatepetl', 'sakurajima']],
  ['waterfall', ['falls', 'cascade', 'niagara', 'iguazu']],
];

/** The category whole words (from `wordsOf`) suggest by CATEGORY_WORDS; nature when none. */
export function categoryOfWords(words: readonly string[]): Category {
  for (const [category, terms] of CATEGORY_WORDS) {
    if (terms.some((term) => hasTerm(words, term))) return category;
  }
  return 'nature';
}

/** Spec §9's keyword rules on a URL, a name or any text, with the words above; otherwise nature. */
export function suggestCategory(text: string): Category {
  return categoryOfWords(wordsOf(text));
}
