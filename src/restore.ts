/**
 * Restoring a backup (backup-file.ts) into a database (issue 42): an empty one, or — told so —
 * one whose data it replaces. The database is migrated to exactly the schema the backup was taken
 * at, its rows are loaded in one transaction (foreign keys dropped for the load and added back,
 * so they are checked once, whatever the order; every sequence set as it was), the counts are
 * checked against the backup's own, and then the database is migrated to this release. Replacing
 * keeps the old data aside (its schemas renamed) until the restore has succeeded; a restore that
 * fails puts it back as it was.
 */
import pg from 'pg';
import { migrationsList } from '../migrations/index.ts';
import type { Logger } from './logger.ts';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { accountsThatCanSignIn } from './modules/auth/admins.service.ts';
import { markRestoredFrom } from './modules/backups/backups.service.ts';
import { initORM, migrate } from './orm.ts';
import { appTables, BackupError, checkBackup, copyInto, makePartitions, MIGRATIONS_TABLE, quoteIdent as ident, readBackup, type BackupHeader } from './database/backup-file.ts';

export interface RestoreReport {
  header: BackupHeader;
  /** Rows per table after the restore and the migrations after it. */
  tables: Record<string, number>;
  /** Migrations this release applied after the backup's. */
  migrated: string[];
  /** Enabled administrators with a password (someone can sign in). */
  admins: number;
}

const ASIDE = '_before_restore';

async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const result = await work();
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  }
}

/** The extensions whose objects are in `schema`. */
async function extensionsIn(client: pg.ClientBase, schema: string): Promise<string[]> {
  return (await client.query<{ name: string }>('select e.extname as name from pg_extension e join pg_namespace n on n.oid = e.extnamespace where n.nspname = $1', [schema])).rows.map((r) => r.name);
}

/** Restores `file` into the database at `url`. `replace`: it may hold data, which the backup's replaces. */
export async function restoreBackup(options: { url: string; file: string; replace?: boolean; logger: Logger }): Promise<RestoreReport> {
  const { url, file, logger } = options;
  const known = migrationsList.map((m) => m.name);
  const client = new pg.Client({ connectionString: url });
  client.on('error', (err) => logger.debug({ err }, 'restore: connection dropped'));
  await client.connect();
  let aside = false;
  /** The database was empty and this restore has written to it: a failure empties it again. */
  let started = false;
  try {
    // The whole file first: a damaged, foreign or newer one is refused before anything is touched.
    const checked = await checkBackup(file);
    const unknown = checked.header.migrations.find((name) => !known.includes(name));
    if (unknown) throw new BackupError(`${file} was taken by a newer release (its database has the migration ${unknown}, which this release does not know): restore it with that release or a later one`);
    if (checked.header.migrations.some((name, i) => known[i] !== name)) throw new BackupError(`${file} was taken by a release whose migrations are not this release's in the same order: it cannot be restored here`);
    const { rows: [others] } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    if (others!.n > 0) throw new BackupError(`${others!.n} other connection(s) are open to this database (a running server?): stop them before restoring, or their writes would be lost`);
    const left = await client.query('select nspname from pg_namespace where nspname like $1', [`%${ASIDE}`]);
    if (left.rowCount) {
      throw new BackupError(
        `A restore that did not finish left the earlier data in the schema ${left.rows.map((r: { nspname: string }) => r.nspname).join(' and ')}: look at it, then drop it (or rename it back to public) before restoring again`,
      );
    }
    const existing = await appTables(client);
    if (existing.length > 0 && !options.replace) {
      throw new BackupError(
        `The database already has ${existing.length} tables (${existing
          .slice(0, 3)
          .map((t) => t.name)
          .join(', ')}…): a backup is restored into an empty one. To replace what it holds, run the restore again with --replace`,
      );
    }
    if (options.replace) {
      // Kept aside until the restore succeeded; put back if it fails.
      await inTransaction(client, async () => {
        for (const schema of ['public', 'pgboss']) {
          const { rowCount } = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
          if (rowCount) await client.query(`alter schema ${ident(schema)} rename to ${ident(schema + ASIDE)}`);
        }
        await client.query('create schema public');
        // Extensions (pg_trgm) went aside with the schema their objects are in: they come back to the new one.
        for (const name of await extensionsIn(client, 'public' + ASIDE)) await client.query(`alter extension ${ident(name)} set schema public`);
      });
      aside = true;
    }

    started = true;
    const loaded: Record<string, number> = {};
    let foreignKeys: { table: string; name: string; definition: string }[] = [];
    const summary = await readBackup(file, {
      async header(header) {
        // The schema the rows fit: this release's migrations up to the backup's last.
        const orm = await initORM({ url, poolMax: 2 });
        try {
          if (header.migrations.length > 0) await orm.migrator.up({ to: header.migrations.at(-1)! });
        } finally {
          await orm.close();
        }
        await client.query('begin');
        foreignKeys = (
          await client.query<{ table: string; name: string; definition: string }>(
            `select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
              from pg_constraint c join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and n.nspname = 'public'`,
          )
        ).rows;
        for (const fk of foreignKeys) await client.query(`alter table ${fk.table} drop constraint ${ident(fk.name)}`);
        // What the migrations wrote themselves (default rules, settings) is in the backup as it was then.
        const tables = await appTables(client);
        if (tables.length > 0) await client.query(`truncate ${tables.map((t) => ident(t.name)).join(', ')}`);
        await makePartitions(client, header.partitions ?? []);
      },
      async table(name, columns, lines) {
        loaded[name] = await copyInto(client, name, columns, lines);
      },
    });
    try {
      for (const [table, rows] of Object.entries(summary.rows)) {
        if (loaded[table] !== rows) throw new BackupError(`${file} is damaged: the table ${table} has ${loaded[table] ?? 0} rows where the backup says ${rows}`);
      }
      for (const [name, { value, called }] of Object.entries(summary.header.sequences)) {
        await client.query(`select setval($1::regclass, $2::bigint, $3)`, [ident(name), value, called]);
      }
      for (const fk of foreignKeys) await client.query(`alter table ${fk.table} add constraint ${ident(fk.name)} ${fk.definition}`);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }

    // This release's migrations after the backup's.
    const orm = await initORM({ url, poolMax: 2 });
    let migrated: string[];
    let admins: number;
    try {
      migrated = await migrate(orm);
      await markRestoredFrom(orm.em.fork(), path.basename(file), (await stat(file)).size, new Date(summary.header.created_at));
      admins = await accountsThatCanSignIn(orm.em.fork());
    } finally {
      await orm.close();
    }
    // Restored: whatever fails from here on is reported, never undone.
    started = false;
    if (aside) {
      aside = false;
      for (const schema of ['public', 'pgboss']) {
        await client.query(`drop schema if exists ${ident(schema + ASIDE)} cascade`).catch((err: unknown) => logger.warn({ err }, `restore: done, but the earlier data in ${schema + ASIDE} could not be dropped; drop it yourself`));
      }
    }
    const tables: Record<string, number> = {};
    for (const table of await appTables(client)) tables[table.name] = Number((await client.query<{ n: string }>(`select count(*)::text as n from ${ident(table.name)}`)).rows[0]!.n);
    return { header: summary.header, tables, migrated, admins };
  } catch (error) {
    // A load cut short leaves its transaction open on this connection.
    await client.query('rollback').catch(() => undefined);
    if (aside) {
      // What was there before, back as it was.
      await inTransaction(client, async () => {
        for (const name of await extensionsIn(client, 'public')) await client.query(`alter extension ${ident(name)} set schema ${ident('public' + ASIDE)}`);
        for (const schema of ['public', 'pgboss']) {
          const { rowCount } = await client.query('select 1 from pg_namespace where nspname = $1', [schema + ASIDE]);
          if (!rowCount) continue;
          await client.query(`drop schema if exists ${ident(schema)} cascade`);
          await client.query(`alter schema ${ident(schema + ASIDE)} rename to ${ident(schema)}`);
        }
      }).catch((err: unknown) => logger.error({ err }, `restore: could not put the data back; it is in the schemas public${ASIDE} and pgboss${ASIDE}`));
    } else if (started) {
      // It was empty: empty again (its tables and sequences; an extension someone installed stays).
      const tables = [...(await appTables(client).catch(() => [])).map((t) => t.name), MIGRATIONS_TABLE];
      await client.query(`drop table if exists ${tables.map(ident).join(', ')} cascade`).catch(() => undefined);
      const sequences = (await client.query<{ name: string }>(`select relname as name from pg_class where relkind = 'S' and relnamespace = 'public'::regnamespace`).catch(() => ({ rows: [] }))).rows;
      if (sequences.length > 0) await client.query(`drop sequence if exists ${sequences.map((q) => ident(q.name)).join(', ')} cascade`).catch(() => undefined);
    }
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
