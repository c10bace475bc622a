/**
 * Upgrades keep data (issue 42). `tests/fixtures/release-455756a/` holds a backup of a database
 * made by release 455756a (the end of the wave before last; there are no release tags): its own
 * server migrated an empty database and seeded its demo, `fill.sql` put rows in every other table,
 * and this release's `npm run backup` dumped it as it was (20 migrations; a backup never migrates
 * what it backs up). Restored here, it is migrated forward, every row is still there, and the
 * API reads them. And a migration that fails leaves the database as it was, and says which.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createGunzip } from 'node:zlib';
import { MikroORM } from '@mikro-orm/postgresql';
import { Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsList } from '../../migrations/index.ts';
import { ormConfig } from '../../src/db.ts';
import { createLogger } from '../../src/logger.ts';
import { ENTITIES, migrate } from '../../src/orm.ts';
import { restoreBackup, type RestoreReport } from '../../src/restore.ts';
import type { StreamDto } from '../../src/shared/api/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createEmptyDatabase } from '../support/db.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/release-455756a/nature-wall-455756a.backup.gz');
const logger = createLogger('silent');


/** The rows per table the fixture says it holds (its last line). */
async function fixtureRows(): Promise<Record<string, number>> {
  let last = '';
  for await (const line of readline.createInterface({ input: createReadStream(FIXTURE).pipe(createGunzip()), crlfDelay: Infinity })) last = line;
  return (JSON.parse(last.replace(/^-- end /, '')) as { rows: Record<string, number> }).rows;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

let url: string;
let report: RestoreReport;
let app: TestApp;

beforeAll(async () => {
  url = await createEmptyDatabase('nw_upgrade');
  report = await restoreBackup({ url, file: FIXTURE, logger });
  app = await startTestApp({ database: { url, name: 'upgraded', drop: async () => undefined } });
}, 120_000);
afterAll(async () => app?.close());

describe('a database made by release 455756a', () => {
  it('is migrated forward, and every row of every table is still there', async () => {
    expect(report.header.migrations).toHaveLength(20);
    expect(report.migrated).toEqual(migrationsList.slice(20).map((m) => m.name));
    const before = await fixtureRows();
    expect(Object.values(before).every((n) => n > 0)).toBe(true); // the fixture has rows in every table
    for (const [table, rows] of Object.entries(before)) expect(report.tables[table], table).toBeGreaterThanOrEqual(rows);
    // Tables the later migrations did not touch hold exactly what the old release wrote.
    for (const table of ['streams', 'scenes', 'scene_streams', 'screen_groups', 'schedule_entries', 'submissions', 'discovery_sources', 'api_tokens', 'admin_users']) {
      expect(report.tables[table], table).toBe(before[table]);
    }
    // Tables that came later exist (empty, or filled by their migration).
    expect(Object.keys(report.tables)).toEqual(expect.arrayContaining(['play_quarters', 'play_days', 'enrolled_screens', 'backups', 'play_assignments']));
    expect(report.admins).toBe(1); // the old release's admin (the invited operator has no password yet)
  });

  it('reads through the API: streams, scenes, the programme, alerts, discovery, submissions, team, tokens, activity, analyses', async () => {
    const streams = (await app.request<StreamDto[]>('GET', '/api/streams')).body;
    expect(streams).toHaveLength(19);
    const scenes = await app.request<{ id: number }[]>('GET', '/api/scenes');
    expect(scenes.status).toBe(200);
    expect(scenes.body).toHaveLength(4);
    const schedules = (await app.request<{ name: string; target: unknown }[]>('GET', '/api/schedules')).body;
    expect(schedules).toEqual([expect.objectContaining({ name: 'Mornings', target: { kind: 'groups', group_ids: [expect.any(Number)] } })]);
    expect((await app.request<{ name: string; devices: string[] }[]>('GET', '/api/screen-groups')).body).toEqual([expect.objectContaining({ name: 'Lobby', devices: ['lobby-wall-0001'] })]);
    expect((await app.request<{ takeover: { banner: string } | null }>('GET', '/api/takeover')).body.takeover).toMatchObject({ banner: 'Closing in 15 minutes' });
    const alerts = (await app.request<{ rules: { kind: string }[]; destinations: { name: string }[] }>('GET', '/api/alerts')).body;
    expect(alerts.destinations.map((d) => d.name)).toEqual(['Duty webhook']);
    expect(alerts.rules.map((r) => r.kind)).toEqual(expect.arrayContaining(['screen_offline', 'login_failures', 'backup_stale']));
    expect((await app.request<{ name: string }[]>('GET', '/api/discovery/sources')).body.map((s) => s.name)).toEqual(['Ocean channel']);
    expect((await app.request<{ streams_added: number }[]>('GET', '/api/discovery/jobs')).body).toEqual([expect.objectContaining({ streams_added: 3 })]);
    expect((await app.request<{ submissions: { title: string }[] }>('GET', '/api/submissions')).body.submissions.map((s) => s.title)).toEqual(['Upgrade falls']);
    expect((await app.request<{ username: string }[]>('GET', '/api/team')).body.map((a) => a.username).sort()).toEqual(['admin', 'night-operator']);
    expect((await app.request<{ name: string }[]>('GET', '/api/auth/tokens')).body.map((t) => t.name)).toEqual(['deploy-bot']);
    expect((await app.request<{ subject_name: string }[]>('GET', '/api/activity')).body.some((a) => a.subject_name === 'Upgrade cam')).toBe(true);
    expect((await app.request<{ score: number }[]>('GET', `/api/quality/analyses?streamId=${Math.min(...streams.map((s) => s.id))}`)).body.length).toBeGreaterThanOrEqual(1);
    // The screen the old release saw an hour before it was backed up: approved by the enrolment migration.
    const enrolled = (await app.request<{ screens: { device: string; name: string }[] }>('GET', '/api/screens/enrolled')).body.screens;
    expect(enrolled).toEqual([expect.objectContaining({ device: 'lobby-wall-0001', name: 'Lobby wall' })]);
  });
});

describe('a migration that fails', () => {
  it('leaves the database as it was, and the message names it', async () => {
    const target = await createEmptyDatabase('nw_upgrade');
    class Migration29990101000000_breaks extends Migration {
      override name = 'Migration29990101000000_breaks';
      override up(): void {
        this.addSql('create table "half_done" ("id" int primary key);');
        this.addSql('alter table "streams" add column "broken" int not null default 1;');
        this.addSql('select * from "a_table_that_is_not_there";');
      }
    }
    const base = ormConfig({ url: target, entities: ENTITIES });
    const orm = await MikroORM.init({ ...base, migrations: { ...base.migrations, migrationsList: [...migrationsList, { name: 'Migration29990101000000_breaks', class: Migration29990101000000_breaks }] } });
    try {
      // From empty: every migration runs in one transaction with the broken one, so none is kept.
      await expect(migrate(orm)).rejects.toThrow(/Migration29990101000000_breaks/);
      // Only MikroORM's bookkeeping table, which it makes before it starts, is there — empty.
      expect(await query(target, `select tablename from pg_tables where schemaname = 'public'`)).toEqual([{ tablename: 'mikro_orm_migrations' }]);
      expect(await query(target, 'select name from mikro_orm_migrations')).toEqual([]);
    } finally {
      await orm.close();
    }
    // From this release's schema with data: the broken one alone, rolled back, the rows as they were.
    const good = await MikroORM.init(ormConfig({ url: target, entities: ENTITIES }));
    await migrate(good);
    await good.close();
    const before = await query<{ n: string }>(target, 'select count(*)::text as n from alert_rules');
    const again = await MikroORM.init({ ...base, migrations: { ...base.migrations, migrationsList: [...migrationsList, { name: 'Migration29990101000000_breaks', class: Migration29990101000000_breaks }] } });
    try {
      const error = await migrate(again).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/Migration29990101000000_breaks/);
      expect(error?.message).toMatch(/a_table_that_is_not_there/);
    } finally {
      await again.close();
    }
    expect(await query(target, `select 1 from pg_tables where tablename = 'half_done'`)).toEqual([]);
    expect(await query(target, `select 1 from information_schema.columns where table_name = 'streams' and column_name = 'broken'`)).toEqual([]);
    expect(await query<{ n: string }>(target, 'select count(*)::text as n from alert_rules')).toEqual(before);
    expect((await query<{ name: string }>(target, 'select name from mikro_orm_migrations order by id')).map((m) => m.name)).toEqual(migrationsList.map((m) => m.name));
  });
});
