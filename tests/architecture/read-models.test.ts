/**
 * A read model only reads: every `*-queries.ts` under src/modules (the files allowed to join other
 * modules' tables, tests/architecture/foreign-reads.test.ts) writes nothing — no SQL
 * `insert into`, `update <table> set`, `delete from` or `merge into` in its string literals, and no
 * ORM write (`persist`, `flush`, `nativeUpdate`, `nativeDelete`, `insert`, `upsert`, `create`,
 * `remove`… or a query builder's `update`/`delete`). A module's writes live in its services and
 * write-side files, on its own tables. Parsed with the TypeScript compiler, so comments and
 * identifiers that merely say "update" do not count.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const modules = path.resolve(import.meta.dirname, '../../src/modules');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });

const SQL_WRITES: [RegExp, string][] = [
  [/\binsert\s+into\s+"?(\w+)/gi, 'insert into'],
  // `update <table> [alias] set` — not `for update [of q] skip locked`, not `do update set` (an upsert's insert is found anyway).
  [/\bupdate\s+(?:only\s+)?"?(?!of\b|set\b|skip\b|nowait\b)(\w+)"?(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\b/gi, 'update … set'],
  [/\bdelete\s+from\s+"?(\w+)/gi, 'delete from'],
  [/\bmerge\s+into\s+"?(\w+)/gi, 'merge into'],
];
/** EntityManager (and repository) calls that write, or stage a write for the next flush. */
const ORM_WRITES = new Set(['persist', 'persistAndFlush', 'flush', 'nativeUpdate', 'nativeDelete', 'insert', 'insertMany', 'upsert', 'upsertMany', 'create', 'remove', 'removeAndFlush']);
/** A query builder's writes (only on a chain that starts at `createQueryBuilder`/`qb`: `map.delete(k)` is no write). */
const QB_WRITES = new Set(['update', 'delete', 'truncate', 'insert']);

interface Write {
  line: number;
  what: string;
}

/** Whether a call chain starts at a query builder (`em.createQueryBuilder(X)…`, `em.qb(X)…`). */
function fromQueryBuilder(node: ts.Expression): boolean {
  let at: ts.Expression = node;
  for (;;) {
    if (ts.isCallExpression(at)) {
      const callee = at.expression;
      if (ts.isPropertyAccessExpression(callee) && (callee.name.text === 'createQueryBuilder' || callee.name.text === 'qb')) return true;
      at = callee;
    } else if (ts.isPropertyAccessExpression(at) || ts.isParenthesizedExpression(at) || ts.isAwaitExpression(at) || ts.isNonNullExpression(at)) {
      at = at.expression;
    } else return false;
  }
}

/** Every write in one file's text: SQL in its string literals and templates, ORM write calls. */
function writesIn(file: string, text: string): Write[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Write[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const sqlIn = (node: ts.Node, literal: string) => {
    for (const [pattern, what] of SQL_WRITES) for (const [, table] of literal.matchAll(pattern)) found.push({ line: at(node), what: `SQL ${what} ${table}` });
  };
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sqlIn(node, node.text);
    else if (ts.isTemplateExpression(node)) sqlIn(node, [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? '));
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const receiver = node.expression.expression;
      const isObject = ts.isIdentifier(receiver) && receiver.text === 'Object';
      if ((ORM_WRITES.has(name) && !isObject) || (QB_WRITES.has(name) && fromQueryBuilder(receiver))) found.push({ line: at(node), what: `${name}()` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const readModels = files(modules).filter((file) => file.endsWith('-queries.ts'));

describe('a read model only reads', () => {
  it('finds the read models (the rule is not vacuous)', () => {
    const names = readModels.map((file) => path.relative(modules, file));
    expect(names).toEqual(expect.arrayContaining([path.join('evaluation', 'evaluation-queries.ts'), path.join('scenes', 'scene-queries.ts')]));
  });

  it('finds what it looks for: SQL and ORM writes, but not reads that lock or merely say "update"', () => {
    const probe = [
      "const a = await em.execute(`insert into evaluation_queue (stream_id) select id from streams where ${x}`);",
      "const b = await em.execute('update evaluation_queue q set priority = 1 where q.id = ?', [id]);",
      "const c = await em.execute(`update \"streams\" set active = false`);",
      "const d = await em.execute('delete from pairwise_evaluations where id = ?', [id]);",
      "em.persist(stream); await em.flush();",
      "await em.nativeUpdate(Stream, { id }, { active: false });",
      "await tx.upsert(Stream, row);",
      "const e = em.create(Stream, {});",
      "await em.createQueryBuilder(Stream).update({ active: false }).where({ id });",
      // Reads, none of which is a write:
      "const f = await em.execute('select id from evaluation_queue where status = ? for update of q skip locked');",
      "const g = await em.execute('select 1 for update skip locked');",
      '// update streams set active = false (a comment)',
      "const updatedAt = rows.map((r) => r.updated_at); seen.delete(key); Object.create(null);",
      "const h = await em.find(Stream, { active: true });",
    ].join('\n');
    expect(writesIn('probe-queries.ts', probe).map((w) => `${w.line} ${w.what}`)).toEqual([
      '1 SQL insert into evaluation_queue',
      '2 SQL update … set evaluation_queue',
      '3 SQL update … set streams',
      '4 SQL delete from pairwise_evaluations',
      '5 persist()',
      '5 flush()',
      '6 nativeUpdate()',
      '7 upsert()',
      '8 create()',
      '9 update()',
    ]);
  });

  it.each(readModels.map((file) => [path.relative(modules, file), file]))('%s writes nothing', (_name, file) => {
    expect(writesIn(file, readFileSync(file, 'utf8')).map((w) => `${path.relative(modules, file)}:${w.line} ${w.what}`)).toEqual([]);
  });
});
