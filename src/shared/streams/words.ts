/**
 * The words of a name, a URL or a playlist's metadata, for rules that match whole words:
 * lower-case, accents removed (Kīlauea → kilauea), camelCase and digits split off
 * (BrownBearCam → brown bear cam), anything but letters a separator. "Freeform" holds no "reef",
 * and "Zoom" no "zoo".
 */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/** Whether `words` holds `term` (one word, or several in a row), a plain plural counting as the word. */
export function hasTerm(words: readonly string[], term: string): boolean {
  const parts = term.split(' ');
  const same = (word: string | undefined, part: string) => word === part || word === `${part}s` || word === `${part}es`;
  for (let i = 0; i + parts.length <= words.length; i++) {
    if (parts.every((part, j) => same(words[i + j], part))) return true;
  }
  return false;
}
