/**
 * docs/architecture.md walks a default-scene switch and a stream-health change on the server, and
 * a switch in the browser, hop by hop: each hop names files and the functions (or atoms) in them.
 * This keeps the walks true to the code: every named function is declared in its file (parsed,
 * not grepped), and every hop is reached from an earlier one in the code itself — an earlier
 * hop's function names it (a call, a handler handed over), or it names the previous hop's (a
 * subscription to that atom, a wrapper around that call). So a hop's count is a count of links
 * found in the code: a renamed function, a call removed or a hop skipped in the doc fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(repo, 'docs/architecture.md'), 'utf8');
const start = doc.indexOf('## A change, hop by hop');
const section = doc.slice(start, doc.indexOf('\n## ', start + 1));

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(full) ? [full] : [];
  });
const all = [...sources(path.join(repo, 'src')), ...sources(path.join(repo, 'web'))];

/** A named file: a path from the repository's root, or a file name unique in src/ and web/. */
function fileNamed(name: string): string {
  if (name.startsWith('src/') || name.startsWith('web/')) return path.join(repo, name);
  const found = all.filter((file) => file.endsWith(`/${name}`));
  expect(found, `${name} names one file`).toHaveLength(1);
  return found[0]!;
}

interface Walk {
  title: string;
  hops: string[];
}

/** The walks: their titles and numbered hops, each hop's text. */
function walks(text = section): Walk[] {
  return text
    .split(/\n\*\*(?=[^*]+:\*\*)/)
    .slice(1)
    .map((part) => ({
      title: part.slice(0, part.indexOf(':**')),
      hops: part.split(/\n(?=\d+\. )/).slice(1).map((hop) => hop.replace(/\n\n[\s\S]*$/, '')),
    }));
}

/** Every "`file.ts` `function`" pair a hop names. */
const pairs = (hop: string) => [...hop.matchAll(/`([\w./-]+\.tsx?)` `(\w+)`/g)].map(([, file, fn]) => ({ file: file!, fn: fn! }));

/** The declarations named `name` in a source (functions, constants, methods, object members), with every name their code uses. */
function declared(file: string, text: string, name: string): Set<string>[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Set<string>[] = [];
  /** Every name the declaration's code uses (its own name where it is declared is no link; a call of the same name elsewhere is). */
  const namesIn = (node: ts.Node, own: ts.Node | undefined) => {
    const names = new Set<string>();
    const visit = (n: ts.Node) => {
      if (n === own) return;
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) names.add(n.text.replace(/^#/, ''));
      ts.forEachChild(n, visit);
    };
    ts.forEachChild(node, visit);
    return names;
  };
  const visit = (node: ts.Node) => {
    const named =
      ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) &&
        node.name &&
        ts.isIdentifier(node.name) &&
        node.name.text === name) ||
      (ts.isShorthandPropertyAssignment(node) && node.name.text === name);
    if (named) found.push(namesIn(node, node.name));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

type Read = (file: string) => string;
const readRepo: Read = (file) => readFileSync(file, 'utf8');

/**
 * Checks one walk against the code: the problems found (none when it is true), and how many hops
 * were linked. Hop 1 is where the walk starts; every later hop must be reached from an earlier one.
 */
function follow(walk: Walk, read: Read = readRepo): { problems: string[]; linked: number } {
  const problems: string[] = [];
  const hops = walk.hops.map((hop, i) =>
    pairs(hop).map(({ file, fn }) => {
      const declarations = declared(file, read(fileNamed(file)), fn);
      if (declarations.length === 0) problems.push(`hop ${i + 1}: ${file} declares no ${fn}`);
      return { fn, uses: declarations.reduce((all, d) => new Set([...all, ...d]), new Set<string>()) };
    }),
  );
  let linked = 0;
  hops.forEach((hop, i) => {
    if (i === 0) return;
    // Called or handed over by any earlier hop; or subscribing to (wrapping) the hop just before.
    const earlier = hops.slice(0, i).flat();
    const reached = hop.some((step) => earlier.some((before) => before.uses.has(step.fn)) || hops[i - 1]!.some((before) => step.uses.has(before.fn)));
    if (reached) linked++;
    else problems.push(`hop ${i + 1} (${hop.map((s) => s.fn).join(', ')}) is not reached from any earlier hop in the code`);
  });
  return { problems, linked };
}

const LIMITS: Record<string, { most: number; ends: RegExp }> = {
  'A default-scene switch': { most: 8, ends: /the emit/ },
  'A switch in the browser': { most: 6, ends: /the flip/ },
  "A stream's health changes": { most: 8, ends: /the emit/ },
};

describe('the architecture walks', () => {
  it('are the three walks, each hop naming a file and a function', () => {
    expect(walks().map((w) => w.title)).toEqual(Object.keys(LIMITS));
    for (const walk of walks()) for (const hop of walk.hops) expect(pairs(hop).length, hop).toBeGreaterThan(0);
  });

  it.each(Object.entries(LIMITS))('%s: every hop is declared where it says and reached from an earlier one, within its hop budget', (title, { most, ends }) => {
    const walk = walks().find((w) => w.title === title)!;
    const { problems, linked } = follow(walk);
    expect(problems).toEqual([]);
    expect(linked + 1, 'hops linked in the code').toBe(walk.hops.length);
    expect(walk.hops.length).toBeGreaterThanOrEqual(4);
    expect(walk.hops.length).toBeLessThanOrEqual(most);
    expect(walk.hops.at(-1)).toMatch(ends);
  });

  it('fails a walk whose code no longer makes a hop, or names a function its file lacks (planted)', () => {
    const browser = walks().find((w) => w.title === 'A switch in the browser')!;
    const session = fileNamed('web/features/screen/session.ts');
    // The session no longer folds pushes into the store: what stages the change is reached from nowhere.
    const cut: Read = (file) => (file === session ? readRepo(file).replaceAll('screenMessageAtom', 'someOtherAtom') : readRepo(file));
    expect(follow(browser, cut).problems).toEqual([expect.stringMatching(/^hop 3 \(screenMessageAtom, receive, applyScreenMessage, waitingStateAtom, nextSideAtom, useWallScreen\) is not reached/)]);
    // A hop that names what its file does not declare.
    const renamed = { ...browser, hops: browser.hops.map((hop) => hop.replace('`openSession`', '`openScreenSession`')) };
    expect(follow(renamed).problems).toContainEqual('hop 2: web/features/screen/session.ts declares no openScreenSession');
    // A hop skipped in the doc: from the push straight to the flip is no link in the code.
    const skipped = { ...browser, hops: [browser.hops[0]!, browser.hops.at(-1)!] };
    expect(follow(skipped).problems).toEqual([expect.stringMatching(/^hop 2 \(commit\) is not reached/)]);
  });
});
