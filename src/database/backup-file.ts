/**
 * A Nature Wall backup file (issue 42): the app's own tables, dumped with COPY inside one
 * REPEATABLE READ snapshot, gzip-compressed, in the shape of a plain SQL dump a person can read:
 *
 *   -- Nature Wall backup
 *   -- {"format":"nature-wall-backup","version":1,"created_at":…,"migrations":[…],"sequences":{…}}
 *   COPY "streams" ("id", "name", …) FROM stdin;
 *   …rows in COPY's text format…
 *   \.
 *   …every other table…
 *   -- end {"rows":{"streams":123,…}}
 *
 * No pg_dump is needed (the embedded PostgreSQL package ships none, and another major version's
 * refuses the server), and a dump is independent of the server's version. The migrations
 * applied when it was taken say which schema its rows fit: a restore migrates an empty database
 * to exactly that point, loads the rows, and then migrates forward (restore.ts). The trailer is
 * written last: a file without it is truncated. The `pgboss` schema (queued jobs, which nodes
 * re-create) and the migrations table are not part of a backup.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

export const BACKUP_FORMAT = 'nature-wall-backup';
export const BACKUP_VERSION = 1;
const FIRST_LINE = '-- Nature Wall backup';
const END_PREFIX = '-- end ';
/** MikroORM's bookkeeping of applied migrations (src/db.ts keeps its default name). */
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  /** The migrations applied when it was taken, in order: the schema its rows fit. */
  migrations: string[];
  /** Every sequence's value then (the screens' push version among them: restored, screens never see it go back). */
  sequences: Record<string, { value: string; called: boolean }>;
  /** The partitions of partitioned tables (proof of play's days): made before the rows are loaded into their table. */
  partitions?: Partition[];
}

export interface Partition {
  table: string;
  name: string;
  /** As PostgreSQL prints it: `FOR VALUES FROM ('…') TO ('…')`. */
  bound: string;
}

/** A range partition's bound as PostgreSQL prints it, with literals only (a restore runs it as SQL). */
const RANGE_BOUND = /^FOR VALUES FROM \('[0-9 :.+-]+'\) TO \('[0-9 :.+-]+'\)$/;

/** The partitions of the app's partitioned tables. */
export async function appPartitions(client: pg.ClientBase): Promise<Partition[]> {
  const { rows } = await client.query<Partition>(
    `select p.relname as table, c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = p.relnamespace
      where n.nspname = 'public' and p.relkind = 'p' order by 1, 2`,
  );
  return rows;
}

/** Makes the partitions a backup's rows need that the database lacks (by name: the migrations name them the same way). */
export async function makePartitions(client: pg.ClientBase, partitions: unknown): Promise<void> {
  const valid = (p: unknown): p is Partition => typeof p === 'object' && p !== null && ['table', 'name', 'bound'].every((k) => typeof (p as Record<string, unknown>)[k] === 'string');
  if (!Array.isArray(partitions) || !partitions.every(valid)) throw new BackupError('The backup\'s list of partitions is damaged: it cannot be restored');
  for (const p of partitions) {
    if (!RANGE_BOUND.test(p.bound)) throw new BackupError(`The backup names a partition ${p.name} of ${p.table} with a bound this release does not make (${p.bound.slice(0, 80)}): it cannot be restored here`);
    await client.query(`create table if not exists ${ident(p.name)} partition of ${ident(p.table)} ${p.bound}`);
  }
}

export interface BackupSummary {
  header: BackupHeader;
  /** Rows per table, in the order they were written. */
  rows: Record<string, number>;
}

export class BackupError extends Error {}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface TableInfo {
  name: string;
  columns: string[];
}

/** The app's tables in `public` (not the migrations' bookkeeping), each with its stored columns in order. */
export async function appTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ table: string; columns: string[] }>(
    `select c.relname as table, array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> $1 and not c.relispartition
      group by c.relname order by c.relname`,
    [MIGRATIONS_TABLE],
  );
  return rows.map((r) => ({ name: r.table, columns: r.columns }));
}

/** A backup file's name: sorts by the time it was taken, to the millisecond (two in one second are two files). */
export function backupName(at: Date): string {
  return `nature-wall-${at.toISOString().replace(/[:.]/g, '-')}.backup.gz`;
}
export const BACKUP_NAME = /^nature-wall-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.backup\.gz$/;

/**
 * Writes a backup of the database `client` is connected to into `file`, through a `.partial`
 * file renamed only once complete and on disk (a failed dump leaves no file that looks like a
 * backup). Returns its summary and size.
 */
export async function writeBackup(client: pg.ClientBase, file: string, now = new Date()): Promise<BackupSummary & { bytes: number }> {
  const partial = `${file}.partial`;
  const rows: Record<string, number> = {};
  let header: BackupHeader | undefined;
  await client.query('begin isolation level repeatable read read only');
  try {
    const tables = await appTables(client);
    const migrations = (await client.query<{ name: string }>(`select name from ${ident(MIGRATIONS_TABLE)} order by id`)).rows.map((r) => r.name);
    const sequences: BackupHeader['sequences'] = {};
    const names = (await client.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S' order by 1`)).rows;
    for (const { name } of names) {
      const { rows: [s] } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value::text, is_called from ${ident(name)}`);
      sequences[name] = { value: s!.last_value, called: s!.is_called };
    }
    header = { format: BACKUP_FORMAT, version: BACKUP_VERSION, created_at: now.toISOString(), migrations, sequences, partitions: await appPartitions(client) };
    const theHeader = header;
    async function* content(): AsyncGenerator<Buffer | string> {
      yield `${FIRST_LINE}\n-- ${JSON.stringify(theHeader)}\n`;
      for (const table of tables) {
        const columns = table.columns.map(ident).join(', ');
        yield `COPY ${ident(table.name)} (${columns}) FROM stdin;\n`;
        // A query, not the table: COPY refuses a partitioned table by name.
        const stream = client.query(copyTo(`COPY (select ${columns} from ${ident(table.name)}) TO STDOUT`));
        for await (const chunk of stream) yield chunk as Buffer;
        rows[table.name] = stream.rowCount ?? 0;
        yield '\\.\n';
      }
      yield `${END_PREFIX}${JSON.stringify({ rows })}\n`;
    }
    // Readable by its owner only: it holds password and token hashes, and alert secrets.
    await pipeline(Readable.from(content()), createGzip(), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    await client.query('commit');
  } catch (error) {
    // A COPY abandoned midway (a full disk) leaves the connection in copy mode, where a rollback
    // would wait for ever: the connection is cut instead (the server rolls back and lets go of
    // the session's locks). The caller ends the client.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  const handle = await open(partial, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(partial, file);
  return { header, rows, bytes: (await stat(file)).size };
}

/** What a backup holds, read as it is restored: each table's section handed to `load`, the summary at the end. */
export async function readBackup(
  file: string,
  handlers: { header(header: BackupHeader): Promise<void>; table(name: string, columns: string[], lines: AsyncIterable<string>): Promise<void> },
): Promise<BackupSummary> {
  const magic = Buffer.alloc(2);
  try {
    const handle = await open(file, 'r');
    try {
      await handle.read(magic, 0, 2, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(code === 'ENOENT' ? `There is no file ${file}` : code === 'EISDIR' ? `${file} is a folder, not a backup file` : `${file} could not be read: ${(error as Error).message}`);
  }
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) throw new BackupError(`${file} is not a Nature Wall backup (it is not gzip-compressed, as every backup is)`);
  const input = createReadStream(file).pipe(createGunzip());
  const unreadable = (err: NodeJS.ErrnoException) =>
    err instanceof BackupError
      ? err
      : new BackupError(err.code === 'Z_BUF_ERROR' || err.code === 'Z_DATA_ERROR' ? `${file} is not a complete Nature Wall backup (the file is cut short or damaged: ${err.message})` : `${file} could not be read: ${err.message}`);
  const failed = new Promise<never>((_, reject) => input.once('error', (err: NodeJS.ErrnoException) => reject(unreadable(err))));
  failed.catch(() => undefined);
  const lines = readline.createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async () => {
    try {
      return (await Promise.race([lines.next(), failed])) as IteratorResult<string>;
    } catch (error) {
      throw unreadable(error as NodeJS.ErrnoException);
    }
  };
  const notOurs = () => new BackupError(`${file} is not a Nature Wall backup (it does not start with "${FIRST_LINE}")`);

  const first = await next();
  if (first.done || first.value !== FIRST_LINE) throw notOurs();
  const second = await next();
  let header: BackupHeader;
  try {
    header = JSON.parse(second.done ? '' : second.value.replace(/^-- /, '')) as BackupHeader;
  } catch {
    throw notOurs();
  }
  if (header.format !== BACKUP_FORMAT) throw notOurs();
  if (header.version !== BACKUP_VERSION) throw new BackupError(`${file} is a backup of format version ${header.version}; this release reads version ${BACKUP_VERSION}`);
  await handlers.header(header);

  for (;;) {
    const line = await next();
    if (line.done) throw new BackupError(`${file} is not a complete Nature Wall backup (it ends before its last line: cut short?)`);
    if (line.value.startsWith(END_PREFIX)) {
      let rows: Record<string, number>;
      try {
        ({ rows } = JSON.parse(line.value.slice(END_PREFIX.length)) as { rows: Record<string, number> });
      } catch {
        throw new BackupError(`${file} is damaged: its last line is not readable`);
      }
      return { header, rows };
    }
    const copy = /^COPY "((?:[^"]|"")+)" \((.*)\) FROM stdin;$/.exec(line.value);
    if (!copy) throw new BackupError(`${file} is damaged: unexpected line "${line.value.slice(0, 80)}"`);
    const columns = [...copy[2]!.matchAll(/"((?:[^"]|"")+)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
    let ended = false;
    const section: AsyncIterable<string> = {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const row = await next();
          if (row.done) throw new BackupError(`${file} is not a complete Nature Wall backup (it ends inside the table ${copy[1]})`);
          if (row.value === '\\.') {
            ended = true;
            return;
          }
          yield row.value;
        }
      },
    };
    await handlers.table(copy[1]!.replace(/""/g, '"'), columns, section);
    if (!ended) throw new BackupError(`${file} is damaged: the table ${copy[1]} was not read to its end`);
  }
}

/** Reads a whole backup without a database: its header once it is known to be complete and well formed (a restore checks before it touches anything). */
export async function checkBackup(file: string): Promise<BackupSummary> {
  const counted: Record<string, number> = {};
  const summary = await readBackup(file, {
    header: async () => undefined,
    async table(name, _columns, lines) {
      let n = 0;
      for await (const _line of lines) n++;
      counted[name] = n;
    },
  });
  for (const [table, rows] of Object.entries(summary.rows)) {
    if (counted[table] !== rows) throw new BackupError(`${file} is damaged: the table ${table} has ${counted[table] ?? 0} rows where the backup says ${rows}`);
  }
  return summary;
}

/** Copies `lines` (COPY text rows) into `table` through `client`; the rows loaded. */
export async function copyInto(client: pg.ClientBase, table: string, columns: string[], lines: AsyncIterable<string>): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${ident(table)} (${columns.map(ident).join(', ')}) FROM STDIN`));
  // The server's refusal of a row, once it comes: nothing more is written after it, and it is what is thrown.
  let refused: Error | undefined;
  const done = Promise.race([once(stream, 'finish'), once(stream, 'error').then(([err]) => Promise.reject((refused = err as Error)))]);
  done.catch(() => undefined);
  try {
    for await (const line of lines) {
      if (refused) throw refused;
      if (!stream.write(`${line}\n`)) await Promise.race([once(stream, 'drain'), done]);
    }
    if (refused) throw refused;
  } catch (error) {
    if (error === refused) throw error;
    // The file ended early or could not be read: the COPY is abandoned (CopyFail), the connection usable again.
    stream.destroy(error as Error);
    await once(stream, 'close').catch(() => undefined);
    throw error;
  }
  stream.end();
  await done;
  return stream.rowCount ?? 0;
}

export { ident as quoteIdent };
