/**
 * Reads go through the owner: a module reads another module's tables through that module's
 * exported functions. A read that must join two modules' tables for speed lives in a declared
 * read model (`*-queries.ts`) of the module that asks. Anywhere else, these fail here:
 * - SQL text naming another module's table;
 * - an EntityManager query (`find`, `findOne`, `count`, a query builder…) of another module's entity;
 * - a relation into another module's entity that loads or filters it: a `populate` (or `fields`)
 *   path, `em.populate(rows, [...])`, a query builder join, a filter or an ordering with conditions
 *   on the target's fields (`{ scene: { active: true } }`; a bare id or `{ $in: [...] }` is a key);
 * - reading a field other than the primary key of another module's entity reached through a
 *   relation (`entry.scene.name`, also through an alias, a destructuring or `ref.$`/`unwrap()`),
 *   or loading it (`entry.scene.load()`) — known from the type checker over the server program.
 * The relations themselves stay declared in the entities (`p.manyToOne(Scene)`): they are the
 * database's foreign keys, and writing a reference by id is not a read.
 * Who owns what comes from the module declarations and the entities' metadata (./support.ts).
 */
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entityTypes, folderOf, lineOf, ownership, propertyName, root, serverProgram, serverSources, stringsIn, stripped } from './support.ts';

const own = await ownership();

interface Read {
  file: string;
  line: number;
  what: string;
}

/** Calls whose first argument names an entity class. */
const ORM_READS = new Set(['find', 'findOne', 'findOneOrFail', 'findAll', 'findAndCount', 'findByCursor', 'count', 'stream', 'createQueryBuilder', 'qb', 'getRepository']);
/** Of those (and the writes that take a filter), the ones whose second argument is the filter; the rest take it in their options. */
const FILTER_SECOND = new Set(['find', 'findOne', 'findOneOrFail', 'findAndCount', 'count', 'nativeUpdate', 'nativeDelete']);
const OPTIONS_SECOND = new Set(['findAll', 'findByCursor', 'stream']);
const ENTITY_FIRST = new Set([...ORM_READS, ...FILTER_SECOND]);
const JOIN = /^(left|inner|right|full)?join(Lateral)?(AndSelect)?$/i;
/** What a reference or collection answers without reading its row: its key, or the entity itself (checked where it is read). */
const HANDS_ON = new Set(['$', 'unwrap', 'getEntity', 'isInitialized', 'getIdentifiers', 'toReference']);
/** Calls that give a reference's entity (what is read of it is checked where it is read). */
const UNWRAPS = new Set(['unwrap', 'getEntity', 'load', 'loadOrFail']);

/** Every foreign read in one file of a program. */
function foreignReads(program: ts.Program, file: string): Read[] {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`not in the program: ${file}`);
  const checker = program.getTypeChecker();
  const types = entityTypes(checker, own);
  const owner = folderOf(file);
  const found: Read[] = [];
  const report = (node: ts.Node, what: string) => found.push({ file, line: lineOf(node), what });
  /** The owner of an entity when it is not this file's folder. */
  const foreign = (entity: string) => {
    const o = own.entities.get(entity)?.owner;
    return o && o !== owner ? o : undefined;
  };
  const isKey = (entity: string, field: string) => own.entities.get(entity)?.primaryKeys.includes(field) ?? false;
  const relation = (entity: string, prop: string) => own.entities.get(entity)?.relations.get(prop);

  /** A const's object or array literal in place of its name (`const options = { populate: [...] }`). */
  const literal = (expr: ts.Expression): ts.Expression => {
    const bare = stripped(expr);
    if (!ts.isIdentifier(bare)) return bare;
    const decl = checker.getSymbolAtLocation(bare)?.valueDeclaration;
    return decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const ? stripped(decl.initializer) : bare;
  };

  /** A `populate`, `fields` or join path from `entity`: reported once it enters another module's entity. */
  function walkPath(node: ts.Node, how: 'populate' | 'fields' | 'join', entity: string, text: string) {
    const segments = text.replace(/:ref$/, '').split('.');
    let at = entity;
    for (const [i, segment] of segments.entries()) {
      const targets = segment === '*' ? [...(own.entities.get(at)?.relations.entries() ?? [])] : [[segment, relation(at, segment)] as const];
      for (const [prop, rel] of targets) {
        const o = rel && foreign(rel.target);
        if (!rel || !o) continue;
        const rest = segments.slice(i + 1);
        // `fields: ['scene']` is this row's key column; `fields: ['scene.name']` reads the scene.
        const reads = how !== 'fields' || (rest.length > 0 && !(rest.length === 1 && isKey(rel.target, rest[0]!)));
        if (reads) report(node, `${how} ${entity}.${[...segments.slice(0, i), prop, ...rest].join('.')} (${rel.target}, ${o}'s)`);
      }
      const next = segment === '*' ? undefined : relation(at, segment);
      if (!next || foreign(next.target)) return;
      at = next.target;
    }
  }

  /** The first condition (or ordering) on a foreign entity's own fields in a relation's value, if any. */
  function fieldOf(target: string, value: ts.Expression): string | undefined {
    const expr = literal(value);
    if (ts.isArrayLiteralExpression(expr)) {
      for (const element of expr.elements) {
        const field = ts.isObjectLiteralExpression(stripped(element)) ? fieldOf(target, element) : undefined;
        if (field) return field;
      }
      return undefined;
    }
    if (ts.isConditionalExpression(expr)) return fieldOf(target, expr.whenTrue) ?? fieldOf(target, expr.whenFalse);
    if (!ts.isObjectLiteralExpression(expr)) return undefined;
    for (const prop of expr.properties) {
      if (ts.isSpreadAssignment(prop)) {
        const field = fieldOf(target, prop.expression);
        if (field) return field;
        continue;
      }
      const key = propertyName(prop.name);
      if (key === undefined) continue;
      if (['$and', '$or', '$not'].includes(key) && ts.isPropertyAssignment(prop)) {
        const field = fieldOf(target, prop.initializer);
        if (field) return field;
      } else if (!key.startsWith('$') && !isKey(target, key)) return key;
    }
    return undefined;
  }

  /** A filter (or an ordering) on `entity`: fails on conditions on another module's entity's fields through a relation. */
  function walkFilter(how: 'filter' | 'orderBy', entity: string, value: ts.Expression, trail = `${entity}.`) {
    const expr = literal(value);
    if (ts.isConditionalExpression(expr)) return [expr.whenTrue, expr.whenFalse].forEach((e) => walkFilter(how, entity, e, trail));
    if (ts.isBinaryExpression(expr)) return [expr.left, expr.right].forEach((e) => walkFilter(how, entity, e, trail));
    if (ts.isArrayLiteralExpression(expr)) return expr.elements.forEach((e) => walkFilter(how, entity, e, trail));
    if (!ts.isObjectLiteralExpression(expr)) return;
    for (const prop of expr.properties) {
      if (ts.isSpreadAssignment(prop)) {
        walkFilter(how, entity, prop.expression, trail);
        continue;
      }
      const key = propertyName(prop.name);
      if (key === undefined || !ts.isPropertyAssignment(prop)) continue;
      if (key.startsWith('$')) {
        walkFilter(how, entity, prop.initializer, trail);
        continue;
      }
      // A dotted key (`'group.scene.active'`) walks its relations like a path.
      const segments = key.split('.');
      let at = entity;
      for (const [i, segment] of segments.entries()) {
        const rel = relation(at, segment);
        if (!rel) break;
        const here = `${trail}${segments.slice(0, i + 1).join('.')}`;
        const o = foreign(rel.target);
        const rest = segments.slice(i + 1);
        if (o) {
          const field = rest.length ? (rest.length === 1 && isKey(rel.target, rest[0]!) ? undefined : rest.join('.')) : fieldOf(rel.target, prop.initializer);
          if (field) report(prop, `${how} ${here}.${field} (${rel.target}, ${o}'s)`);
          break;
        }
        if (!rest.length) walkFilter(how, rel.target, prop.initializer, `${here}.`);
        at = rel.target;
      }
    }
  }

  function walkPopulate(entity: string, value: ts.Expression) {
    const expr = literal(value);
    const paths = ts.isArrayLiteralExpression(expr) ? expr.elements : [expr];
    for (const p of paths) if (ts.isStringLiteralLike(p)) walkPath(p, 'populate', entity, p.text);
  }

  /** find/findOne/… options: what they populate, select, order by and filter. */
  function walkOptions(entity: string, value: ts.Expression) {
    const expr = literal(value);
    if (!ts.isObjectLiteralExpression(expr)) return;
    for (const prop of expr.properties) {
      if (!ts.isPropertyAssignment(prop)) continue;
      const key = propertyName(prop.name);
      if (key === 'populate') walkPopulate(entity, prop.initializer);
      else if (key === 'fields') {
        const fields = literal(prop.initializer);
        if (ts.isArrayLiteralExpression(fields)) for (const f of fields.elements) if (ts.isStringLiteralLike(f)) walkPath(f, 'fields', entity, f.text);
      } else if (key === 'orderBy') walkFilter('orderBy', entity, prop.initializer);
      else if (key === 'where' || key === 'populateWhere' || key === 'populateFilter') walkFilter('filter', entity, prop.initializer);
    }
  }

  /**
   * The relation a value was reached through — `entry.scene`, `entry.scene.$`, `entry.scene.unwrap()`,
   * a variable holding one, or a destructured relation (`const { scene } = entry`) — if any.
   */
  function throughRelation(value: ts.Expression, depth = 0): { from: string; prop: string; target: string } | undefined {
    const expr = stripped(value);
    if (depth > 3) return undefined;
    if (ts.isPropertyAccessExpression(expr)) {
      const name = expr.name.text;
      if (name === '$') return throughRelation(expr.expression, depth + 1);
      if (!own.relationNames.has(name)) return undefined;
      const holder = types.entityOfType(checker.getTypeAtLocation(expr.expression));
      const rel = holder && !holder.via ? relation(holder.entity, name) : undefined;
      return rel && { from: holder!.entity, prop: name, target: rel.target };
    }
    if (ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression) && UNWRAPS.has(expr.expression.name.text)) return throughRelation(expr.expression.expression, depth + 1);
    if (ts.isIdentifier(expr)) {
      const decl = checker.getSymbolAtLocation(expr)?.valueDeclaration;
      if (decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) && decl.initializer) return throughRelation(decl.initializer, depth + 1);
      if (decl && ts.isBindingElement(decl) && ts.isObjectBindingPattern(decl.parent)) {
        const prop = propertyName(decl.propertyName ?? decl.name);
        if (!prop || !own.relationNames.has(prop)) return undefined;
        const holder = types.entityOfType(checker.getTypeAtLocation(decl.parent));
        const rel = holder && !holder.via ? relation(holder.entity, prop) : undefined;
        return rel && { from: holder!.entity, prop, target: rel.target };
      }
    }
    return undefined;
  }

  /** Whether `throughRelation` could answer for this expression, judged from its shape alone (the checker is asked only then). */
  const mayBeRelation = (value: ts.Expression): boolean => {
    const expr = stripped(value);
    if (ts.isPropertyAccessExpression(expr)) return expr.name.text === '$' || own.relationNames.has(expr.name.text);
    if (ts.isCallExpression(expr)) return ts.isPropertyAccessExpression(expr.expression) && UNWRAPS.has(expr.expression.name.text);
    return ts.isIdentifier(expr);
  };

  const sqlIn = (node: ts.Node, literalText: string) => {
    for (const [, table] of literalText.matchAll(/\b(?:from|join|update|into)\s+(?:"?public"?\.)?"?(\w+)"?/gi)) {
      const tableOwner = own.tables.get(table!.toLowerCase());
      if (tableOwner && tableOwner !== owner) report(node, `SQL names ${table} (${tableOwner}'s)`);
    }
  };

  for (const { node, text } of stringsIn(source)) sqlIn(node, text);
  const visit = (node: ts.Node) => {

    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first, second, third] = node.arguments;
      const entity = first && ENTITY_FIRST.has(method) ? types.entityOfClass(first) : undefined;
      const entityOwner = entity && foreign(entity);
      if (entity && entityOwner) {
        if (ORM_READS.has(method)) report(node, `${method}(${entity}) (${entityOwner}'s)`);
      } else if (entity) {
        if (FILTER_SECOND.has(method) && second) walkFilter('filter', entity, second);
        const options = FILTER_SECOND.has(method) ? third : OPTIONS_SECOND.has(method) ? second : undefined;
        if (options) walkOptions(entity, options);
      }
      if (method === 'populate' && first && second) {
        const populated = types.entityOfValue(first);
        if (populated) {
          walkPopulate(populated, second);
          if (third) walkOptions(populated, third);
        }
      }
      if ((JOIN.test(method) || ['where', 'andWhere', 'orWhere', 'orderBy'].includes(method)) && first) {
        const builder = types.builderOf(node.expression.expression);
        if (builder && !foreign(builder.entity)) {
          const join = stripped(first);
          if (JOIN.test(method) && ts.isStringLiteralLike(join) && builder.alias && join.text.startsWith(`${builder.alias}.`)) walkPath(join, 'join', builder.entity, join.text.slice(builder.alias.length + 1));
          else if (!JOIN.test(method)) walkFilter(method === 'orderBy' ? 'orderBy' : 'filter', builder.entity, first);
        }
      }
    }

    // A field of another module's entity, reached through a relation (not written: row-owners.test.ts checks writes).
    const member = ts.isPropertyAccessExpression(node) ? { object: node.expression, name: node.name.text } : ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) ? { object: node.expression, name: node.argumentExpression.text } : undefined;
    const written = !!node.parent && ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
    if (member && !written && mayBeRelation(member.object)) {
      const via = throughRelation(member.object);
      const o = via && foreign(via.target);
      if (via && o && !HANDS_ON.has(member.name) && !isKey(via.target, member.name)) report(node, `reads ${via.from}.${via.prop}.${member.name} (${via.target}, ${o}'s)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort((a, b) => a.line - b.line);
}

const sources = serverSources();
const readModel = (file: string) => file.endsWith('-queries.ts');
const listed = (reads: Read[]) => reads.map((r) => `${path.relative(root, r.file)}:${r.line} ${r.what}`);

/** The planted defects: probe files added to the program (they do not exist on disk), one program for all. */
const PROBES: Record<string, string> = {
  'modules/alerts/probe.ts': [
    "import type { EntityManager } from '../../db.ts';",
    "import { Stream } from '../streams/stream.entity.ts';",
    "import { AlertRule } from './alerts.entity.ts';",
    'export async function probe(em: EntityManager, tx: EntityManager, x: string) {',
    "  const a = await em.execute(`select count(*) from discovery_jobs j join streams s on s.id = j.id where ${x}`);",
    '  const b = await tx.find(Stream, { active: true });',
    '  const c = await em.count(AlertRule, {});',
    "  const d = 'select * from alert_rules';",
    '  return [a, b, c, d];',
    '}',
  ].join('\n'),
  'modules/programme/probe.ts': [
    "import type { EntityManager } from '../../db.ts';",
    "import { Scene as SceneRow } from '../scenes/scene.entity.ts';",
    "import { ScheduleEntry, ScreenGroup, ScreenPlacement, Takeover } from './programme.entity.ts';",
    'export async function probe(em: EntityManager, ids: number[]) {',
    "  const entries = await em.find(ScheduleEntry, {}, { populate: ['scene'] });", // 5: populate
    '  const active = await em.find(ScheduleEntry, { scene: { active: true } });', // 6: a nested filter
    '  const keyed = await em.find(ScheduleEntry, { scene: { $in: ids }, priority: 1 });', // fine: the key
    '  const one = await em.findOne(Takeover, { scene: 3 });', // fine: the key
    "  const sorted = await em.find(ScreenPlacement, { group: { scene: { name: 'Ocean' } } }, { orderBy: { scene: { name: 'asc' } } });", // 9: through an own relation; an ordering
    "  const slim = await em.find(ScreenGroup, {}, { fields: ['id', 'scene', 'scene.slug'] });", // 10: fields
    "  await em.populate(active, ['scene']);", // 11: em.populate
    '  await em.find(SceneRow, {});', // 12: an aliased foreign entity
    '  const names = entries.map((entry) => entry.scene.name);', // 13: a field read through the relation
    '  const keys = entries.map((entry) => entry.scene.id);', // fine: the key
    '  const scene = active[0]!.scene;',
    '  const { scene: shown } = keyed[0]!;',
    '  const groupScene = sorted[0]?.scene;',
    '  const qb = em.createQueryBuilder(ScheduleEntry, \'e\').leftJoinAndSelect(\'e.scene\', \'s\');', // 18: a query builder's join
    "  await qb.where({ priority: 1, scene: { slug: 'ocean' } }).getResult();", // 19: its filter
    '  return [names, keys, scene.slug, shown.description, groupScene?.active, one?.scene.id, slim];', // 20: an alias, a destructuring, optional
    '}',
  ].join('\n'),
  'modules/scenes/probe.ts': [
    "import type { EntityManager } from '../../db.ts';",
    "import { SceneStream } from './scene.entity.ts';",
    'export async function probe(em: EntityManager) {',
    "  const slots = await em.find(SceneStream, { scene: { active: true } }, { populate: ['scene'] });",
    '  return slots.map((s) => [s.scene.name, s.stream.id, s.stream.name]);',
    '}',
  ].join('\n'),
};
/** One program (one type checker) for the real files and the probes: a probe changes no real file's types. */
const program = serverProgram(Object.fromEntries(Object.entries(PROBES).map(([name, text]) => [path.join(root, name), text])));
const probeReads = (file: string) => listed(foreignReads(program, path.join(root, file)));
// The type checker's work happens here, while the file loads (outside any test's timeout).
const reads = sources.filter(({ file }) => !readModel(file)).flatMap(({ file }) => foreignReads(program, file));

describe('reads go through the owner', () => {
  it('knows who owns every table and relation (the rule is not vacuous)', () => {
    expect(own.problems).toEqual([]);
    expect(own.tables.get('streams')).toBe('modules/streams');
    expect(own.tables.get('scene_streams')).toBe('modules/scenes');
    expect(own.tables.get('socket_io_attachments')).toBe('realtime');
    expect(own.entities.get('ScreenGroup')?.owner).toBe('modules/programme');
    expect(own.entities.get('ScheduleEntry')?.relations.get('scene')).toEqual({ kind: 'm:1', target: 'Scene' });
    expect(own.entities.get('StreamStill')?.relations.get('stream')).toEqual({ kind: '1:1', target: 'Stream' });
    expect(own.tables.size).toBeGreaterThanOrEqual(30);
  });

  it('finds what it looks for: SQL and ORM reads of a foreign table, but not the owner\'s own', () => {
    expect(probeReads('modules/alerts/probe.ts')).toEqual([
      "modules/alerts/probe.ts:5 SQL names discovery_jobs (modules/discovery's)",
      "modules/alerts/probe.ts:5 SQL names streams (modules/streams's)",
      "modules/alerts/probe.ts:6 find(Stream) (modules/streams's)",
    ]);
  });

  it('finds reads through relations: populate, filters, orderings, fields, joins and fields read off a related entity', () => {
    expect(probeReads('modules/programme/probe.ts')).toEqual([
      "modules/programme/probe.ts:5 populate ScheduleEntry.scene (Scene, modules/scenes's)",
      "modules/programme/probe.ts:6 filter ScheduleEntry.scene.active (Scene, modules/scenes's)",
      "modules/programme/probe.ts:9 filter ScreenPlacement.group.scene.name (Scene, modules/scenes's)",
      "modules/programme/probe.ts:9 orderBy ScreenPlacement.scene.name (Scene, modules/scenes's)",
      "modules/programme/probe.ts:10 fields ScreenGroup.scene.slug (Scene, modules/scenes's)",
      "modules/programme/probe.ts:11 populate ScheduleEntry.scene (Scene, modules/scenes's)",
      "modules/programme/probe.ts:12 find(Scene) (modules/scenes's)",
      "modules/programme/probe.ts:13 reads ScheduleEntry.scene.name (Scene, modules/scenes's)",
      "modules/programme/probe.ts:18 join ScheduleEntry.scene (Scene, modules/scenes's)",
      "modules/programme/probe.ts:19 filter ScheduleEntry.scene.slug (Scene, modules/scenes's)",
      "modules/programme/probe.ts:20 reads ScheduleEntry.scene.slug (Scene, modules/scenes's)",
      "modules/programme/probe.ts:20 reads ScheduleEntry.scene.description (Scene, modules/scenes's)",
      "modules/programme/probe.ts:20 reads ScreenPlacement.scene.active (Scene, modules/scenes's)",
    ]);
  });

  it('a module\'s own relations are its business; the same file reading through a relation into another module is not', () => {
    expect(probeReads('modules/scenes/probe.ts')).toEqual(["modules/scenes/probe.ts:5 reads SceneStream.stream.name (Stream, modules/streams's)"]);
  });

  it('no module reads another module\'s tables outside a read model (*-queries.ts)', () => {
    expect(listed(reads)).toEqual([]);
  });

  it('a read model reads for the module that asks (it lives in that module)', () => {
    const models = sources.filter(({ file }) => readModel(file)).map(({ file }) => path.relative(root, file));
    expect(models.every((file) => file.startsWith('modules/'))).toBe(true);
  });
});
