/**
 * One owner per row: the module that owns a table is the only one that writes it; others ask it
 * (`streams.recordAnalysis(...)`). Who owns a table is derived, never listed: each module's
 * entities (src/modules/index.ts) belong to the folder of the file that declares the module, an
 * entity outside the modules to its own folder, and each entity's table comes from its MikroORM
 * metadata (./support.ts). Every table of the migrated database has exactly one owner.
 * A write is:
 * - SQL naming the table after `insert into`, `update`, `delete from`, `truncate`, `merge into`;
 * - an ORM write of its entity class: `create`, `nativeUpdate`, `nativeDelete`, `upsert(Many)`,
 *   `insert(Many)`, `merge`, a query builder's `insert`/`update`/`delete`/`truncate`;
 * - a write of an instance of its entity, known from the type checker: a field assigned
 *   (`stream.name = …`, `++`, `Object.assign`, `em.assign`, `wrap(x).assign`), `em.persist`/`em.remove`.
 */
import path from 'node:path';
import pg from 'pg';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/db.ts';
import { TABLES_WITHOUT_ENTITY, entityTypes, folderOf, lineOf, ownership, root, serverProgram, serverSources, stringsIn, stripped } from './support.ts';

const own = await ownership();
/** MikroORM's bookkeeping of applied migrations (its default name; src/db.ts keeps it). */
const MIGRATIONS_TABLE = 'mikro_orm_migrations';

interface Write {
  file: string;
  line: number;
  table: string;
  how: string;
}

const SQL_WRITE = /\b(insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?(?:"?public"?\.)?"?(\w+)"?/gi;
/** Calls whose first argument is the entity class written. */
const CLASS_WRITES = new Set(['create', 'nativeUpdate', 'nativeDelete', 'upsert', 'upsertMany', 'insert', 'insertMany', 'merge']);
/** A query builder's writes. */
const BUILDER_WRITES = new Set(['insert', 'update', 'delete', 'truncate']);
/** Calls whose first argument is an instance (or instances) written on flush. */
const INSTANCE_WRITES = new Set(['persist', 'remove', 'assign', 'persistAndFlush', 'removeAndFlush']);

/** Every write to a table in one file of a program — the owner's own included (the tests pick the others). */
function writesIn(program: ts.Program, file: string): Write[] {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`not in the program: ${file}`);
  const types = entityTypes(program.getTypeChecker(), own);
  const found: Write[] = [];
  const tableOf = (entity: string | undefined) => (entity ? own.entities.get(entity)?.table : undefined);
  const record = (node: ts.Node, table: string | undefined, how: string) => {
    if (table) found.push({ file, line: lineOf(node), table, how });
  };

  for (const { node, text } of stringsIn(source)) {
    for (const [, verb, table] of text.matchAll(SQL_WRITE)) {
      if (own.tables.has(table!.toLowerCase())) record(node, table!.toLowerCase(), `SQL ${verb!.toLowerCase().replace(/\s+/g, ' ')}`);
    }
  }

  /** An instance's entity, when the expression is one (or an array of them). */
  const instance = (expr: ts.Expression) => types.entityOfValue(expr);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const [first] = node.arguments;
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      if (method && first && CLASS_WRITES.has(method)) {
        const entity = types.entityOfClass(first);
        record(node, tableOf(entity), `${method}(${entity})`);
      }
      if (method && ts.isPropertyAccessExpression(callee) && BUILDER_WRITES.has(method)) {
        const builder = types.builderOf(callee.expression);
        if (builder) record(node, tableOf(builder.entity), `query builder ${method} (${builder.entity})`);
      }
      if (method && first && INSTANCE_WRITES.has(method)) {
        const entity = instance(first);
        record(node, tableOf(entity), `${method}(${entity} instance)`);
      }
      // wrap(entity).assign(…) (em.assign and Object.assign name the entity first: above)
      const wrapped = method === 'assign' && ts.isPropertyAccessExpression(callee) ? stripped(callee.expression) : undefined;
      if (wrapped && ts.isCallExpression(wrapped) && ts.isIdentifier(wrapped.expression) && wrapped.expression.text === 'wrap' && wrapped.arguments[0]) {
        const entity = instance(wrapped.arguments[0]);
        record(node, tableOf(entity), `assign(${entity} instance)`);
      }
    }
    // A field of an instance assigned: written by the next flush.
    const assignedTo =
      ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
        ? node.left
        : (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(node.operator)
          ? node.operand
          : ts.isDeleteExpression(node)
            ? node.expression
            : undefined;
    const target = assignedTo && stripped(assignedTo);
    const field = target && (ts.isPropertyAccessExpression(target) ? target.name.text : ts.isElementAccessExpression(target) && ts.isStringLiteralLike(target.argumentExpression) ? target.argumentExpression.text : undefined);
    // Only a name some entity has can be an entity's field: the checker is asked about those alone.
    if (target && field && own.propertyNames.has(field) && (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) && target.expression.kind !== ts.SyntaxKind.ThisKeyword) {
      const entity = instance(target.expression);
      record(node, tableOf(entity), `sets ${entity}.${field}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort((a, b) => a.line - b.line);
}

/** The planted defects (files that do not exist on disk), in the program beside the real ones. */
const PROBES: Record<string, string> = {
  'modules/alerts/probe.ts': [
    "import { wrap } from '@mikro-orm/core';",
    "import type { EntityManager } from '../../db.ts';",
    "import { PlayDay as PlayRow } from '../plays/play.entity.ts';",
    "import { streamById } from '../streams/stream-reads.ts';",
    "import { AlertRule } from './alerts.entity.ts';",
    'export async function probe(em: EntityManager) {',
    "  await em.execute('insert into play_days (day) values (?)', ['x']);", // 7
    "  await em.execute(`update \"public\".\"streams\" set name = ? where id = ${1}`, ['x']);", // 8
    '  em.create(PlayRow, {} as never);', // 9
    '  await em.nativeDelete(PlayRow, {});', // 10
    "  await em.createQueryBuilder(PlayRow).update({ streamName: 'x' }).execute();", // 11
    '  const stream = await streamById(em, 1);',
    '  if (!stream) return;',
    "  stream.name = 'renamed';", // 14
    '  stream.failedChecks++;', // 15
    "  wrap(stream).assign({ name: 'x' });", // 16
    '  em.remove(stream);', // 17
    "  em.create(AlertRule, {} as never);", // 18: its own
    "  await em.execute('delete from alert_rules');", // 19: its own
    '}',
  ].join('\n'),
};
const program = serverProgram(Object.fromEntries(Object.entries(PROBES).map(([name, text]) => [path.join(root, name), text])));
const listed = (writes: Write[]) => writes.map((w) => `${path.relative(root, w.file)}:${w.line} ${w.how} → ${w.table} (${own.tables.get(w.table)}'s)`);
const foreign = (w: Write) => own.tables.get(w.table) !== folderOf(w.file);

const sources = serverSources();
const writes = sources.flatMap(({ file }) => writesIn(program, file));

describe('one owner per row', () => {
  it('every table of the migrated database has exactly one owner, and every owned table exists', async () => {
    expect(own.problems).toEqual([]);
    const db = await createTestDatabase();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' order by table_name");
      const tables = rows.map((r) => r.table_name);
      expect(tables).toContain(MIGRATIONS_TABLE);
      expect(tables.filter((t) => t !== MIGRATIONS_TABLE)).toEqual([...own.tables.keys()].sort());
    } finally {
      await client.end();
      await db.drop();
    }
  });

  it('a table no entity maps is named in its owner\'s folder', () => {
    for (const [table, owner] of Object.entries(TABLES_WITHOUT_ENTITY)) {
      expect(sources.some(({ file, text }) => folderOf(file) === owner && text.includes(`'${table}'`)), `${table} in ${owner}`).toBe(true);
    }
  });

  it.each([...own.tables.keys()].sort().map((table) => [table, own.tables.get(table)!]))('only %s\'s owner (%s) writes it', (table) => {
    expect(listed(writes.filter((w) => w.table === table && foreign(w)))).toEqual([]);
  });

  it('finds the writes it looks for: planted SQL, ORM and instance writes from another module', () => {
    const planted = writesIn(program, path.join(root, 'modules/alerts/probe.ts'));
    expect(listed(planted.filter(foreign))).toEqual([
      "modules/alerts/probe.ts:7 SQL insert into → play_days (modules/plays's)",
      "modules/alerts/probe.ts:8 SQL update → streams (modules/streams's)",
      "modules/alerts/probe.ts:9 create(PlayDay) → play_days (modules/plays's)",
      "modules/alerts/probe.ts:10 nativeDelete(PlayDay) → play_days (modules/plays's)",
      "modules/alerts/probe.ts:11 query builder update (PlayDay) → play_days (modules/plays's)",
      "modules/alerts/probe.ts:14 sets Stream.name → streams (modules/streams's)",
      "modules/alerts/probe.ts:15 sets Stream.failedChecks → streams (modules/streams's)",
      "modules/alerts/probe.ts:16 assign(Stream instance) → streams (modules/streams's)",
      "modules/alerts/probe.ts:17 remove(Stream instance) → streams (modules/streams's)",
    ]);
    expect(listed(planted.filter((w) => !foreign(w)))).toEqual([
      "modules/alerts/probe.ts:18 create(AlertRule) → alert_rules (modules/alerts's)",
      "modules/alerts/probe.ts:19 SQL delete from → alert_rules (modules/alerts's)",
    ]);
  });

  it('finds the owners\' own writes (the rule is not vacuous)', () => {
    const by = (table: string) => [...new Set(writes.filter((w) => w.table === table).map((w) => path.relative(root, w.file)))];
    expect(by('streams')).toContain('modules/streams/stream-intake.ts');
    expect(by('play_days')).toContain('modules/plays/play-rollups.ts');
    expect(by('evaluation_queue').length).toBeGreaterThan(0);
    expect(by('quality_analyses').length).toBeGreaterThan(0);
    // Most tables are written somewhere in the server (the rest: written by a library, or a view).
    expect(new Set(writes.map((w) => w.table)).size).toBeGreaterThanOrEqual(own.tables.size - 5);
  });
});
