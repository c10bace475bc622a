/**
 * What the architecture tests about tables read: the server's source, who owns each entity and
 * table — from the module declarations (src/modules/index.ts) and the entities' own MikroORM
 * metadata, never from a hand list — and the server program with its type checker, so a check
 * can ask what an expression is (an entity of another module, reached through a relation).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EntitySchema, ReferenceKind } from '@mikro-orm/core';
import ts from 'typescript';
import type { EntityClass } from '../../src/db.ts';
import { MODULES } from '../../src/modules/index.ts';
import type { AnyModule } from '../../src/modules/module.ts';
import { ENTITIES } from '../../src/orm.ts';

export const repo = path.resolve(import.meta.dirname, '../..');
export const root = path.join(repo, 'src');

const tsFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : full.endsWith('.ts') ? [full] : [];
  });

export interface Source {
  /** Absolute path. */
  file: string;
  text: string;
}

/** Every server source file (src/**.ts), test files beside the code included. */
export const serverSources = (): Source[] => tsFiles(root).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

/** The folder a file belongs to: `modules/<name>`, or the top folder of src for the core (`realtime`, `http`…). */
export const folderOf = (file: string) => {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? `modules/${parts[1]}` : parts.length > 1 ? parts[0]! : 'src';
};

export interface Relation {
  kind: string;
  /** The target entity's class name. */
  target: string;
}

export interface EntityInfo {
  name: string;
  table: string;
  /** The folder that owns it: its module's, or (outside the modules) the folder of its file. */
  owner: string;
  /** Where the class is declared (relative to src). */
  file: string;
  primaryKeys: string[];
  properties: string[];
  relations: Map<string, Relation>;
}

/**
 * Tables no entity maps, each with the folder that owns it. The rate limiter's table is written by
 * rate-limiter-flexible (src/http/rate-limit.ts names it); the test checks the owner's folder
 * names each one, and that none of these is also an entity's.
 */
export const TABLES_WITHOUT_ENTITY: Readonly<Record<string, string>> = { rate_limits: 'http' };

export interface Ownership {
  /** Module name → its folder (`modules/<f>`: the folder of the file that declares it). */
  moduleFolders: Map<string, string>;
  /** Entity class name → what the metadata says of it. */
  entities: Map<string, EntityInfo>;
  /** Table (or view) → owning folder. */
  tables: Map<string, string>;
  /** Every relation property name of any entity (a cheap filter before asking the type checker). */
  relationNames: Set<string>;
  /** Every property name of any entity (the same, for writes). */
  propertyNames: Set<string>;
  /** Problems met while deriving it (a module declared twice, an entity in no file…): must be empty. */
  problems: string[];
}

const RELATION_KINDS: ReadonlySet<ReferenceKind> = new Set([ReferenceKind.MANY_TO_ONE, ReferenceKind.ONE_TO_ONE, ReferenceKind.ONE_TO_MANY, ReferenceKind.MANY_TO_MANY]);

const schemaOf = (cls: EntityClass) => EntitySchema.REGISTRY.get(cls);

/** Who owns what, from the module list, the `*.module.ts` files that declare them and the entities' metadata. */
export async function ownership(): Promise<Ownership> {
  const problems: string[] = [];
  const moduleFolders = new Map<string, string>();
  const moduleFiles = tsFiles(path.join(root, 'modules')).filter((f) => f.endsWith('.module.ts'));
  for (const file of moduleFiles) {
    const exported = Object.values(await import(pathToFileURL(file).href)) as unknown[];
    for (const declared of MODULES.filter((m) => exported.includes(m))) {
      if (moduleFolders.has(declared.name)) problems.push(`module ${declared.name} is exported by two files`);
      moduleFolders.set(declared.name, folderOf(file));
    }
  }
  for (const m of MODULES) if (!moduleFolders.has(m.name)) problems.push(`module ${m.name} is declared in no src/modules/<f>/<x>.module.ts`);

  // Where each entity class is declared: every *.entity.ts file's exports.
  const fileOf = new Map<EntityClass, string>();
  for (const file of tsFiles(root).filter((f) => f.endsWith('.entity.ts'))) {
    for (const value of Object.values(await import(pathToFileURL(file).href)) as unknown[]) {
      if (typeof value === 'function' && schemaOf(value as EntityClass)) fileOf.set(value as EntityClass, file);
    }
  }

  const moduleOf = new Map<EntityClass, AnyModule>();
  for (const m of MODULES) {
    for (const cls of m.entities ?? []) {
      if (moduleOf.has(cls)) problems.push(`${cls.name} is declared by modules ${moduleOf.get(cls)!.name} and ${m.name}`);
      moduleOf.set(cls, m);
    }
  }

  const entities = new Map<string, EntityInfo>();
  const tables = new Map<string, string>();
  for (const cls of ENTITIES) {
    const schema = schemaOf(cls);
    const file = fileOf.get(cls);
    if (!schema || !file) {
      problems.push(`${cls.name}: ${schema ? 'declared in no *.entity.ts file' : 'not a defineEntity class'}`);
      continue;
    }
    const module = moduleOf.get(cls);
    const owner = module ? moduleFolders.get(module.name)! : folderOf(file);
    if (folderOf(file) !== owner) problems.push(`${cls.name} is module ${module!.name}'s (${owner}) but declared in ${path.relative(root, file)}`);
    const meta = schema.meta;
    const relations = new Map<string, Relation>();
    const primaryKeys: string[] = [];
    for (const [prop, options] of Object.entries(meta.properties)) {
      if (options.primary) primaryKeys.push(prop);
      if (RELATION_KINDS.has(options.kind) && typeof options.entity === 'function') {
        const target = (options.entity as () => EntityClass)();
        relations.set(prop, { kind: options.kind, target: target.name });
      }
    }
    const table = schema.tableName;
    if (entities.has(cls.name)) problems.push(`two entity classes are named ${cls.name}`);
    if (tables.has(table)) problems.push(`table ${table} is mapped twice`);
    entities.set(cls.name, { name: cls.name, table, owner, file: path.relative(root, file), primaryKeys, properties: Object.keys(meta.properties), relations });
    tables.set(table, owner);
  }
  for (const [cls, file] of fileOf) if (!ENTITIES.includes(cls)) problems.push(`${cls.name} (${path.relative(root, file)}) is not among the ORM's entities`);
  for (const info of entities.values()) {
    for (const [prop, r] of info.relations) if (!entities.has(r.target)) problems.push(`${info.name}.${prop} points at ${r.target}, not an entity of the ORM`);
  }
  for (const [table, owner] of Object.entries(TABLES_WITHOUT_ENTITY)) {
    if (tables.has(table)) problems.push(`${table} is an entity's table and listed without one`);
    tables.set(table, owner);
  }
  const relationNames = new Set([...entities.values()].flatMap((e) => [...e.relations.keys()]));
  const propertyNames = new Set([...entities.values()].flatMap((e) => e.properties));
  return { moduleFolders, entities, tables, relationNames, propertyNames, problems };
}

/** The repository's compiler options (tsconfig.json). */
function compilerSetup(): { options: ts.CompilerOptions; fileNames: string[] } {
  const configFile = path.join(repo, 'tsconfig.json');
  const config = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
  return { options: parsed.options, fileNames: parsed.fileNames.filter((f) => f.startsWith(root + path.sep)) };
}

/**
 * The server program (src files only, the repository's compiler options). `probes` adds files
 * that do not exist (absolute path → text) — planted defects the checks must find; an earlier
 * program given as `old` is reused for the files they share.
 */
export function serverProgram(probes: Record<string, string> = {}, old?: ts.Program): ts.Program {
  const { options, fileNames } = compilerSetup();
  const host = ts.createCompilerHost(options, true);
  const planted = new Map(Object.entries(probes).map(([file, text]) => [path.resolve(file), text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, onError, create) => {
    const text = planted.get(path.resolve(file));
    return text === undefined ? getSourceFile.call(host, file, language, onError, create) : ts.createSourceFile(file, text, language, true);
  };
  host.fileExists = (file) => planted.has(path.resolve(file)) || fileExists.call(host, file);
  host.readFile = (file) => planted.get(path.resolve(file)) ?? readFile.call(host, file);
  return ts.createProgram({ rootNames: [...fileNames, ...planted.keys()], options, host, oldProgram: old });
}

const REF_TYPES = new Set(['Reference', 'ScalarReference', 'Ref', 'Collection']);

/** What the type checker says about entities: which entity class a type or a class expression is. */
export function entityTypes(checker: ts.TypeChecker, own: Ownership) {
  /** The class a symbol names, through import aliases. */
  const resolved = (symbol: ts.Symbol | undefined) => (symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const isEntityClass = (symbol: ts.Symbol | undefined) =>
    !!symbol && own.entities.has(symbol.name) && !!symbol.declarations?.some((d) => ts.isClassDeclaration(d) && d.getSourceFile().fileName.startsWith(root + path.sep));

  /**
   * The entity a value of this type is (`Scene`, a loaded `Scene`, `Scene | null`), or that a
   * reference or collection holds (`via`: 'ref' / 'collection'); undefined for anything else.
   */
  function entityOfType(type: ts.Type, depth = 0): { entity: string; via?: 'ref' | 'collection' } | undefined {
    if (depth > 4) return undefined;
    const parts = type.isUnionOrIntersection() ? type.types : [type];
    for (const part of parts) {
      if (part.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) continue;
      const symbol = part.getSymbol() ?? part.aliasSymbol;
      if (isEntityClass(symbol)) return { entity: symbol!.name };
      const name = part.aliasSymbol?.name ?? symbol?.name;
      if (name && REF_TYPES.has(name)) {
        const args = part.aliasTypeArguments ?? (part.flags & ts.TypeFlags.Object && (part as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference ? checker.getTypeArguments(part as ts.TypeReference) : []);
        const inner = args[0] && entityOfType(args[0], depth + 1);
        if (inner) return { entity: inner.entity, via: name === 'Collection' ? 'collection' : 'ref' };
      }
      if (part.isUnionOrIntersection()) {
        const inner = entityOfType(part, depth + 1);
        if (inner) return inner;
      }
    }
    return undefined;
  }

  /** The entity class an expression names (`Scene`, an alias of it, or the entity's name as a string). */
  function entityOfClass(expr: ts.Expression): string | undefined {
    if (ts.isStringLiteral(expr)) return own.entities.has(expr.text) ? expr.text : undefined;
    if (!ts.isIdentifier(expr) && !ts.isPropertyAccessExpression(expr)) return undefined;
    const symbol = resolved(checker.getSymbolAtLocation(expr));
    if (isEntityClass(symbol)) return symbol!.name;
    // A name the checker cannot resolve (a file with a missing import) still counts by its text.
    return !symbol && ts.isIdentifier(expr) && own.entities.has(expr.text) ? expr.text : undefined;
  }

  /** The entity of an expression's value (an entity, or an array of them: `em.populate(rows, …)`). */
  function entityOfValue(expr: ts.Expression): string | undefined {
    let type = checker.getTypeAtLocation(expr);
    if (checker.isArrayType(type) || checker.isTupleType(type)) type = checker.getTypeArguments(type as ts.TypeReference)[0] ?? type;
    const found = entityOfType(type);
    return found && !found.via ? found.entity : undefined;
  }

  /** The query builder a chained call works on, through a variable too: its entity and alias (`em.createQueryBuilder(Submission, 's')…`). */
  function builderOf(expr: ts.Expression, depth = 0): { entity: string; alias: string | undefined } | undefined {
    const bare = stripped(expr);
    if (depth > 40) return undefined;
    if (ts.isCallExpression(bare) && ts.isPropertyAccessExpression(bare.expression)) {
      const method = bare.expression.name.text;
      if ((method === 'createQueryBuilder' || method === 'qb') && bare.arguments[0]) {
        const entity = entityOfClass(bare.arguments[0]);
        const alias = bare.arguments[1];
        return entity ? { entity, alias: alias && ts.isStringLiteralLike(alias) ? alias.text : undefined } : undefined;
      }
      return builderOf(bare.expression.expression, depth + 1);
    }
    if (ts.isPropertyAccessExpression(bare)) return builderOf(bare.expression, depth + 1);
    if (ts.isIdentifier(bare)) {
      const decl = checker.getSymbolAtLocation(bare)?.valueDeclaration;
      return decl && ts.isVariableDeclaration(decl) && decl.initializer ? builderOf(decl.initializer, depth + 1) : undefined;
    }
    return undefined;
  }

  return { entityOfType, entityOfClass, entityOfValue, builderOf };
}

/** `a`, `(a)`, `a!`, `a as T`, `await a`, `a satisfies T` → `a`. */
export function stripped(expr: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(expr) || ts.isNonNullExpression(expr) || ts.isAsExpression(expr) || ts.isAwaitExpression(expr) || ts.isSatisfiesExpression(expr) || ts.isTypeAssertionExpression(expr)) expr = expr.expression;
  return expr;
}

/** A property's name when it is written literally (`a`, `'a'`, `"a.b"`), else undefined. */
export function propertyName(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return name.expression.text;
  return undefined;
}

/** The line of a node (1-based). */
export const lineOf = (node: ts.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

/** Every string a file spells out — literals, and templates with their holes as `?` — where SQL would be. */
export function stringsIn(source: ts.SourceFile): { node: ts.Node; text: string }[] {
  const found: { node: ts.Node; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push({ node, text: node.text });
    else if (ts.isTemplateExpression(node)) found.push({ node, text: [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? ') });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
