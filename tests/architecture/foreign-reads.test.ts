/**
 * Reads go through the owner: a module reads another module's tables through that module's
 * exported functions. A read that must join two modules' tables for speed lives in a declared
 * read model (`*-queries.ts`) of the module that asks. Anywhere else, SQL text naming another
 * module's table, or an EntityManager query (`find`, `findOne`, `count`, a query builder…) of
 * another module's entity, fails here. Who owns what is read from the entity files themselves.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });

/** The folder that owns a file: `modules/<name>`, or the top folder for the core. */
const ownerOf = (file: string) => {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? `modules/${parts[1]}` : parts.length > 1 ? parts[0]! : 'src';
};

/** Tables and entity classes by owner, from every `*.entity.ts` (`tableName: '…'`, `export class X extends`). */
function ownership(sources: { file: string; text: string }[]) {
  const tables = new Map<string, string>();
  const entities = new Map<string, string>();
  for (const { file, text } of sources.filter((s) => s.file.endsWith('.entity.ts'))) {
    for (const [, table] of text.matchAll(/tableName: '(\w+)'/g)) tables.set(table!, ownerOf(file));
    for (const [, entity] of text.matchAll(/export class (\w+) extends/g)) entities.set(entity!, ownerOf(file));
  }
  return { tables, entities };
}

const ORM_READS = new Set(['find', 'findOne', 'findOneOrFail', 'findAll', 'findAndCount', 'findByCursor', 'count', 'stream', 'createQueryBuilder', 'qb', 'getRepository']);

interface Read {
  file: string;
  line: number;
  what: string;
}

/** Every foreign read in one file: SQL in its string literals, ORM queries of foreign entities. */
function foreignReads(file: string, text: string, own: ReturnType<typeof ownership>): Read[] {
  const owner = ownerOf(file);
  const found: Read[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const sqlIn = (node: ts.Node, literal: string) => {
    for (const [, table] of literal.matchAll(/\b(?:from|join|update|into)\s+"?(\w+)"?/gi)) {
      const tableOwner = own.tables.get(table!.toLowerCase());
      if (tableOwner && tableOwner !== owner) found.push({ file, line: at(node), what: `SQL names ${table} (${tableOwner}'s)` });
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sqlIn(node, node.text);
    else if (ts.isTemplateExpression(node)) sqlIn(node, [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? '));
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ORM_READS.has(node.expression.name.text)) {
      const first = node.arguments[0];
      const entityOwner = first && ts.isIdentifier(first) ? own.entities.get(first.text) : undefined;
      if (entityOwner && entityOwner !== owner) found.push({ file, line: at(node), what: `${node.expression.name.text}(${first!.getText()}) (${entityOwner}'s)` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sources = files(root).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const own = ownership(sources);
const readModel = (file: string) => file.endsWith('-queries.ts');

describe('reads go through the owner', () => {
  it('knows who owns every table (the rule is not vacuous)', () => {
    expect(own.tables.get('streams')).toBe('modules/streams');
    expect(own.tables.get('scene_streams')).toBe('modules/scenes');
    expect(own.entities.get('ScreenGroup')).toBe('modules/programme');
    expect(own.tables.size).toBeGreaterThanOrEqual(30);
  });

  it('finds what it looks for: SQL and ORM reads of a foreign table, but not the owner\'s own', () => {
    const probe = path.join(root, 'modules/alerts/probe.ts');
    const text = [
      "const a = await em.execute(`select count(*) from discovery_jobs j join streams s on s.id = j.id where ${x}`);",
      "const b = await tx.find(Stream, { active: true });",
      "const c = await em.count(AlertRule, {});",
      "const d = 'select * from alert_rules';",
    ].join('\n');
    expect(foreignReads(probe, text, own).map((r) => r.what)).toEqual([
      "SQL names discovery_jobs (modules/discovery's)",
      "SQL names streams (modules/streams's)",
      "find(Stream) (modules/streams's)",
    ]);
  });

  it('no module reads another module\'s tables outside a read model (*-queries.ts)', () => {
    const reads = sources.filter(({ file }) => !readModel(file)).flatMap(({ file, text }) => foreignReads(file, text, own));
    expect(reads.map((r) => `${path.relative(root, r.file)}:${r.line} ${r.what}`)).toEqual([]);
  });

  it('a read model reads for the module that asks (it lives in that module)', () => {
    const models = sources.filter(({ file }) => readModel(file)).map(({ file }) => path.relative(root, file));
    expect(models.every((file) => file.startsWith('modules/'))).toBe(true);
  });
});
