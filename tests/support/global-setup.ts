/**
 * One PostgreSQL for the whole run: the embedded cluster in a temp folder (the product's
 * default), or the server of DATABASE_URL when set. Migrations run once into a template
 * database; every test file then gets its own copy (CREATE DATABASE ... TEMPLATE), which
 * takes milliseconds and keeps files independent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { initORM, migrate } from '../../src/orm.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/embedded-postgres.ts';
import { createLogger } from '../../src/logger.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL to a maintenance database on the test server (used to create per-file databases). */
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

export const TEMPLATE = 'nw_test_template';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const logger = createLogger('warn');
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nw-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir, logger });
    adminUrl = withDatabase(embedded.url, 'postgres');
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  const orm = await initORM({ url: withDatabase(adminUrl, TEMPLATE), logger });
  await migrate(orm);
  await orm.close();
  await admin.end();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);

  return async () => {
    if (embedded) {
      await embedded.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    } else {
      // A shared server: remove what this run created.
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      const { rows } = await cleanup.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'nw_test_%'`,
      );
      for (const row of rows) await cleanup.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await cleanup.end();
    }
  };
}
