/**
 * docs/architecture.md walks a default-scene switch and a stream-health change hop by hop: each
 * hop names a file and a function. This keeps the walk true — every file it names exists and
 * holds the function named beside it — and short: at most 8 hops from the route to the emit.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(repo, 'docs/architecture.md'), 'utf8');
const section = doc.slice(doc.indexOf('## A change, hop by hop'), doc.indexOf('\n## ', doc.indexOf('## A change, hop by hop') + 1));

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
const all = [...sources(path.join(repo, 'src')), ...sources(path.join(repo, 'web'))];

/** A named file: a path from the repository's root, or a file name unique in src/ and web/. */
function fileNamed(name: string): string {
  if (name.includes('/') && name.startsWith('src/')) return path.join(repo, name);
  const found = all.filter((file) => file.endsWith(`/${name}`));
  expect(found, `${name} names one file`).toHaveLength(1);
  return found[0]!;
}

/** The walks: their titles and numbered hops, each hop's text. */
function walks(): { title: string; hops: string[] }[] {
  return section
    .split(/\n\*\*(?=[^*]+:\*\*)/)
    .slice(1)
    .map((part) => ({
      title: part.slice(0, part.indexOf(':**')),
      hops: part.split(/\n(?=\d+\. )/).slice(1).map((hop) => hop.replace(/\n\n[\s\S]*$/, '')),
    }));
}

/** Every "`file.ts` `function`" pair a hop names. */
const pairs = (hop: string) => [...hop.matchAll(/`([\w./-]+\.ts)` `(\w+)`/g)].map(([, file, fn]) => ({ file: file!, fn: fn! }));

describe('the architecture walk', () => {
  it('has the two walks, each with hops that name a file and a function', () => {
    expect(walks().map((w) => w.title)).toEqual(['A default-scene switch', "A stream's health changes"]);
    for (const walk of walks()) for (const hop of walk.hops) expect(pairs(hop).length, hop).toBeGreaterThan(0);
  });

  it('takes at most 8 hops from the route to the emit', () => {
    for (const walk of walks()) {
      expect(walk.hops.length, walk.title).toBeGreaterThanOrEqual(5);
      expect(walk.hops.length, walk.title).toBeLessThanOrEqual(8);
      expect(walk.hops.at(-1), walk.title).toMatch(/the emit/);
    }
  });

  it('names only files that exist and functions they hold', () => {
    const named = walks().flatMap((w) => w.hops.flatMap(pairs));
    expect(named.length).toBeGreaterThan(15);
    for (const { file, fn } of named) expect(readFileSync(fileNamed(file), 'utf8'), `${file} holds ${fn}`).toMatch(new RegExp(`\\b${fn}\\b`));
  });
});
