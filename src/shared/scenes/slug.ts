/**
 * Scene slugs (spec §5): lower-case, trimmed, only letters, digits, spaces and hyphens,
 * whitespace runs to one hyphen, repeated hyphens collapsed, no hyphen at either end.
 * Letters and digits are Unicode-aware, so "Étang du Nord" keeps its accent.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The slug of `name`, made unique against `taken` by appending -1, -2, ... (spec §5).
 * Empty when the name has no letters or digits: such a scene is addressed by its id.
 */
export function uniqueSlug(name: string, taken: ReadonlySet<string>): string {
  const base = slugify(name);
  if (base === '' || !taken.has(base)) return base;
  for (let n = 1; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
