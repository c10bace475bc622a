/**
 * Backups and restore (issue 42), on real databases: a running instance is backed up from the
 * console while it serves, the file is restored into a fresh embedded PostgreSQL on another
 * port, and every table's contents (and every sequence) are the same; the restored database
 * serves the API and its admin signs in. What goes wrong says so and changes nothing: a
 * database with data (refused, or replaced only when told, and put back when the replacing
 * fails), a truncated file, another application's file, a missing one, a folder that cannot
 * take a backup, a backup already running. The last BACKUP_KEEP are kept; `npm run backup` and
 * `npm run restore` do the same from the shell.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import parsePrometheus from 'parse-prometheus-text-format';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTables, BACKUP_NAME } from '../../src/database/backup-file.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/embedded-postgres.ts';
import { createLogger } from '../../src/logger.ts';
import { createAdmin } from '../../src/modules/auth/admins.service.ts';
import { isStale, schedulePeriod, takeBackup } from '../../src/modules/backups/backups.service.ts';
import { AlertRule } from '../../src/modules/alerts/alerts.entity.ts';
import { gather } from '../../src/modules/alerts/alerts.rules.ts';
import { recordPlays } from '../../src/modules/plays/plays.service.ts';
import { writeAssignments } from '../../src/modules/plays/play-assignments.ts';
import { seed } from '../../src/modules/seed/seed.ts';
import { restoreBackup } from '../../src/restore.ts';
import type { BackupDto, BackupsDto, StreamDto } from '../../src/shared/api/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createEmptyDatabase } from '../support/db.ts';
import { buildScene, buildStream } from '../support/factories.ts';

const root = path.resolve(import.meta.dirname, '../..');
const logger = createLogger('silent');
const METRICS_TOKEN = 'backup-metrics-token-0123456789';
let app: TestApp;
let work: string;
let backups: string;
let embedded: EmbeddedDatabase | undefined;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'nw-backup-'));
  await chmod(work, 0o755); // as root, the embedded cluster runs as the postgres user, who must reach it
  backups = path.join(work, 'backups');
  app = await startTestApp({ hub: true, settings: { backups: { dir: backups, keep: 2 } }, appOptions: { metricsToken: METRICS_TOKEN } });
  // Something in the tables: the demo's streams and scenes, an admin, proof of play and its history.
  const em = app.orm.em.fork();
  await seed(em, { demo: true, logger });
  await createAdmin(app.orm.em.fork(), 'restorer', 'a long password for the restore');
  const stream = await buildStream(app.orm.em.fork(), { name: 'Backed-up cam — "quoted", tab\there, new\nline' });
  await buildScene(app.orm.em.fork(), { name: 'Backed-up scene', streams: [stream] });
  const now = Date.now();
  await writeAssignments(app.orm.em.fork(), [{ screen: 'backup-wall', at: now - 120_000, sceneId: null, streams: [stream.id, null, null, null, null] }]);
  await recordPlays(app.orm.em.fork(), { device: 'backup-wall', name: 'Backup wall', kind: 'wall', position: null }, [{ stream_id: stream.id, position: 1, scene_id: null, from: now - 90_000, to: now - 30_000, playing_ms: 60_000 }], { retentionDays: 90, timeZone: 'UTC' }, now, 800);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await embedded?.stop();
  await rm(work, { recursive: true, force: true });
});

/** Every table's rows as text, sorted, and every sequence's value: what two databases must share. */
async function contents(url: string): Promise<{ tables: Record<string, string[]>; sequences: Record<string, string> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables: Record<string, string[]> = {};
    for (const { name } of await appTables(client)) {
      tables[name] = (await client.query<{ row: string }>(`select t::text as row from "${name}" t order by 1`)).rows.map((r) => r.row);
    }
    const sequences: Record<string, string> = {};
    for (const { name } of (await client.query<{ name: string }>(`select relname as name from pg_class where relkind = 'S' and relnamespace = 'public'::regnamespace`)).rows) {
      sequences[name] = (await client.query<{ v: string }>(`select last_value::text as v from "${name}"`)).rows[0]!.v;
    }
    return { tables, sequences };
  } finally {
    await client.end();
  }
}

async function count(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(`select count(*)::text as n from "${table}"`)).rows[0]!.n);
  } finally {
    await client.end();
  }
}


function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let good: string;

describe('backup and restore', () => {
  it('backs up a running instance from the console, restores it into a fresh embedded database on another port, every table the same', async () => {
    // Screens stay connected while it runs.
    const answer = await app.request<BackupDto>('POST', '/api/backups');
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ ok: true, trigger: 'console', error: null, file: expect.stringMatching(BACKUP_NAME) });
    expect(answer.body.rows!).toBeGreaterThan(20);
    good = path.join(backups, answer.body.file);
    expect(await readdir(backups)).toEqual([answer.body.file]);
    expect((await stat(good)).mode & 0o777).toBe(0o600); // it holds password hashes: its owner's alone

    embedded = await startEmbeddedPostgres({ dataDir: path.join(work, 'restored'), logger });
    expect(embedded.url).not.toBe(app.db.url);
    const report = await restoreBackup({ url: embedded.url, file: good, logger });
    expect(report.migrated).toEqual([]); // the same release
    expect(report.admins).toBeGreaterThanOrEqual(1);
    const [before, after] = [await contents(app.db.url), await contents(embedded.url)];
    expect(Object.keys(after.tables)).toEqual(Object.keys(before.tables));
    for (const table of Object.keys(before.tables)) if (table !== 'backups') expect(after.tables[table], table).toEqual(before.tables[table]);
    // The backup's own attempt was running in its snapshot: restored from it, it is marked good.
    const attempt = new pg.Client({ connectionString: embedded.url });
    await attempt.connect();
    expect((await attempt.query('select id, ok, bytes::int as bytes from backups')).rows).toEqual([{ id: answer.body.id, ok: true, bytes: answer.body.bytes }]);
    await attempt.end();
    expect(after.sequences).toEqual(before.sequences);
    expect(report.tables.streams).toBe(before.tables.streams!.length);

    // The restored database serves: its streams read through the API, and its admin signs in.
    const restored = await startTestApp({ database: { url: embedded.url, name: 'restored', drop: async () => undefined } });
    try {
      const streams = (await restored.request<StreamDto[]>('GET', '/api/streams')).body;
      expect(streams.some((s) => s.name.startsWith('Backed-up cam'))).toBe(true);
      expect((await restored.anonymous('POST', '/api/auth/login', { username: 'restorer', password: 'a long password for the restore' })).status).toBe(200);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('refuses a database with data, replaces it only when told, and puts it back when the replacing fails', async () => {
    const url = embedded!.url;
    const streams = await count(url, 'streams');
    await expect(restoreBackup({ url, file: good, logger })).rejects.toThrow(/already has \d+ tables .*restore into an empty one|a backup is restored into an empty one.*--replace/);
    expect(await count(url, 'streams')).toBe(streams);

    // A truncated file: it fails, and what was there is there again.
    const bytes = await readFile(good);
    const truncated = path.join(work, 'truncated.backup.gz');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(restoreBackup({ url, file: truncated, replace: true, logger })).rejects.toThrow(/is not a complete Nature Wall backup/);
    expect(await count(url, 'streams')).toBe(streams);

    const other = path.join(work, 'other.sql.gz');
    await writeFile(other, gzipSync('-- PostgreSQL database dump\nSET statement_timeout = 0;\n'));
    await expect(restoreBackup({ url, file: other, replace: true, logger })).rejects.toThrow(/is not a Nature Wall backup/);
    const plain = path.join(work, 'notes.txt');
    await writeFile(plain, 'not a backup at all\n');
    await expect(restoreBackup({ url, file: plain, replace: true, logger })).rejects.toThrow(/is not a Nature Wall backup/);
    await expect(restoreBackup({ url, file: path.join(work, 'missing.backup.gz'), replace: true, logger })).rejects.toThrow(/There is no file/);
    expect(await count(url, 'streams')).toBe(streams);
    // A partition list that is not what this release writes (its bounds are run as SQL): refused, nothing run.
    const lines = gunzipSync(bytes).toString('utf8').split('\n');
    const header = JSON.parse(lines[1]!.slice(3)) as { partitions: { table: string; name: string; bound: string }[] };
    expect(header.partitions.map((p) => p.table)).toContain('play_quarters');
    for (const [bound, partitions] of [
      ["FOR VALUES FROM ('2026-01-01') TO ('2026-01-02'); drop table streams; --", header.partitions],
      [null, 'not a list'],
    ] as const) {
      const forged = path.join(work, 'forged-partitions.backup.gz');
      const edited = bound === null ? { ...header, partitions } : { ...header, partitions: header.partitions.map((p) => ({ ...p, bound })) };
      await writeFile(forged, gzipSync([lines[0], `-- ${JSON.stringify(edited)}`, ...lines.slice(2)].join('\n')));
      await expect(restoreBackup({ url, file: forged, replace: true, logger })).rejects.toThrow(/partition.* cannot be restored/);
      expect(await count(url, 'streams')).toBe(streams);
    }

    // Not while something else is connected to it (a running server's writes would be lost).
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await expect(restoreBackup({ url, file: good, replace: true, logger })).rejects.toThrow(/1 other connection\(s\) are open to this database \(a running server\?\): stop them before restoring/);
    } finally {
      await holder.end();
    }
    // Nor over the earlier data a restore that did not finish left aside.
    const aside = new pg.Client({ connectionString: url });
    await aside.connect();
    await aside.query('create schema public_before_restore');
    await aside.end();
    await expect(restoreBackup({ url, file: good, replace: true, logger })).rejects.toThrow(/left the earlier data in the schema public_before_restore: look at it, then drop it/);
    const dropper = new pg.Client({ connectionString: url });
    await dropper.connect();
    await dropper.query('drop schema public_before_restore');
    await dropper.end();
    expect(await count(url, 'streams')).toBe(streams);

    // Told to replace, with a good file: done, and nothing of the old data is left aside.
    await restoreBackup({ url, file: good, replace: true, logger });
    expect(await count(url, 'streams')).toBe(streams);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect((await client.query(`select 1 from pg_namespace where nspname like '%_before_restore'`)).rowCount).toBe(0);
    await client.end();
  }, 120_000);

  it('keeps the last BACKUP_KEEP, never loses a good one to a failed dump, takes one at a time, and shows it all', async () => {
    const settings = { dir: backups, cron: '0 3 * * *', keep: 2, timeZone: 'UTC' };
    const at = (s: number) => () => new Date(Date.UTC(2026, 0, 1, 3, 0, s));
    for (const s of [1, 2, 3]) expect((await takeBackup({ em: app.orm.em.fork(), url: app.db.url, settings, trigger: 'schedule', logger, now: at(s) })).ok).toBe(true);
    const kept = (await readdir(backups)).sort();
    // The newest two by name (the console's of the first test, taken today, and the last of these).
    expect(kept).toEqual(['nature-wall-2026-01-01T03-00-03-000Z.backup.gz', path.basename(good)]);

    // A folder that cannot take it (a file in its way): recorded with a sentence, the good ones untouched.
    const blocked = path.join(work, 'a-file');
    await writeFile(blocked, 'in the way');
    const failed = await takeBackup({ em: app.orm.em.fork(), url: app.db.url, settings: { ...settings, dir: path.join(blocked, 'backups') }, trigger: 'schedule', logger, now: at(4) });
    expect(failed).toMatchObject({ ok: false, error: expect.stringMatching(/^The backup folder .* cannot be used: a file is in the way/) });
    expect((await readdir(backups)).sort()).toEqual(kept);

    // One at a time: while another holds the lock, the console is told so.
    const other = new pg.Client({ connectionString: app.db.url });
    await other.connect();
    await other.query(`select pg_advisory_lock(hashtext('nature-wall:backup'))`);
    try {
      const busy = await app.request<{ error: string }>('POST', '/api/backups');
      expect(busy.status).toBe(409);
      expect(busy.body.error).toMatch(/^A backup is already running/);
    } finally {
      await other.end();
    }

    const status = (await app.request<BackupsDto>('GET', '/api/backups')).body;
    expect(status).toMatchObject({ dir: backups, schedule: '0 3 * * *', keep: 2, period_seconds: 86_400, stale: false });
    // The console's backup of the first test finished last.
    expect(status.newest_ok).toMatchObject({ ok: true, trigger: 'console' });
    expect(status.recent.find((b) => b.ok === false)).toMatchObject({ trigger: 'schedule', error: expect.stringContaining('a file is in the way') });
    const scrape = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const family = (parsePrometheus(await scrape.text()) as { name: string; metrics: { value?: string }[] }[]).find((f) => f.name === 'nw_backup_newest_age_seconds');
    expect(family?.metrics[0]?.value).toBeDefined();
    expect(await app.anonymous('GET', '/api/backups').then((r) => r.status)).toBe(401);
  }, 120_000);

  it('an alert fires when the newest good backup is older than two periods', async () => {
    const day = 86_400_000;
    const now = Date.UTC(2026, 10, 27, 12);
    expect(isStale(new Date(now - 1.5 * day), day, new Date(now), new Date(0))).toBe(false);
    expect(isStale(new Date(now - 2.5 * day), day, new Date(now), new Date(0))).toBe(true);
    expect(isStale(null, day, new Date(now), new Date(now - day))).toBe(false); // none yet, but the first attempt is a day old
    expect(isStale(null, day, new Date(now), new Date(now - 3 * day))).toBe(true);
    expect(isStale(new Date(0), null, new Date(now), new Date(0))).toBe(false); // no schedule: nothing is due
    expect(schedulePeriod('0 3 * * *', 'UTC', new Date(now))).toEqual({ periodMs: day, next: new Date(Date.UTC(2026, 10, 28, 3)) });

    const rules = await app.orm.em.fork().find(AlertRule, { kind: 'backup_stale' });
    expect(rules).toHaveLength(1); // the migration adds it, enabled
    const sources = (stale: boolean) => ({
      listScreens: async () => ({ screens: [], partial: false }),
      onScreens: async () => new Set<number>(),
      backupStaleness: async () => ({ stale, newestAt: new Date(now - 3 * day), periodMs: day }),
      now: () => now,
    });
    expect((await gather(app.orm.em.fork(), rules, sources(false))).conditions).toEqual([]);
    const fired = (await gather(app.orm.em.fork(), rules, sources(true))).conditions;
    expect(fired.map((c) => [c.subject, c.title, c.since])).toEqual([['backup', 'The newest good backup is 72 h old', now - day]]);
  });

  it('npm run backup and npm run restore work from the shell, and say what is wrong', async () => {
    const dir = path.join(work, 'from-the-shell');
    const backup = await run('scripts/backup.ts', [], { DATABASE_URL: app.db.url, BACKUP_DIR: dir });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written: .*nature-wall-.*\.backup\.gz \(\d+ tables, \d+ rows, [\d.]+ KB\)/);
    const [file] = await readdir(dir);

    const empty = await createEmptyDatabase('nw_empty');
    const restored = await run('scripts/restore.ts', [path.join(dir, file!)], { DATABASE_URL: empty });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^Restored .* in [\d.]+ s\./);
    expect(restored.stdout).toMatch(/^ {2}streams +\d+$/m);
    expect(restored.stdout).toMatch(/\d+ administrator\(s\) can sign in\./);

    const refused = await run('scripts/restore.ts', [path.join(dir, file!)], { DATABASE_URL: empty });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/a backup is restored into an empty one\. To replace what it holds, run the restore again with --replace/);
    const usage = await run('scripts/restore.ts', [], { DATABASE_URL: empty });
    expect(usage.code).toBe(2);
    const blocked = await run('scripts/backup.ts', [], { DATABASE_URL: app.db.url, BACKUP_DIR: path.join(work, 'a-file', 'inside') });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/cannot be used: a file is in the way/);
  }, 180_000);
});
