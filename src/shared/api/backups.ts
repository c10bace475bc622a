/** Backups (issue 42): the database dumped on a schedule and on demand, the last ones kept. */
import { z } from 'zod';
import { endpoint } from './contract.ts';
import { ROUTES } from './routes.ts';
import { IsoDate } from './common.ts';

export const BACKUP_TRIGGERS = ['schedule', 'console', 'command'] as const;

export const BackupDto = z.strictObject({
  id: z.number().int(),
  file: z.string().describe('Its file name in BACKUP_DIR (names sort by time)'),
  trigger: z.enum(BACKUP_TRIGGERS).describe('The schedule, an admin in the console, or `npm run backup`'),
  started_at: IsoDate,
  finished_at: IsoDate.nullable(),
  ok: z.boolean().nullable().describe('Null while it runs'),
  bytes: z.number().int().nullable(),
  tables: z.number().int().nullable(),
  rows: z.number().int().nullable(),
  error: z.string().nullable().describe("Why it failed, in the server's words"),
  node: z.string().describe('The host that took it (its BACKUP_DIR holds the file)'),
});
export type BackupDto = z.output<typeof BackupDto>;

export const BackupsDto = z.strictObject({
  dir: z.string().describe('BACKUP_DIR on this node, resolved'),
  schedule: z.string().nullable().describe('BACKUP_CRON (null: off)'),
  keep: z.number().int().describe('BACKUP_KEEP: backups kept, the oldest deleted after each good one'),
  period_seconds: z.number().nullable().describe('The time between two scheduled backups (null: no schedule)'),
  next_at: IsoDate.nullable(),
  newest_ok: BackupDto.nullable().describe('The newest good backup'),
  stale: z.boolean().describe('The newest good backup is older than two periods (or there is none while a schedule is set and a period has passed since the first start)'),
  recent: z.array(BackupDto).describe('The last 30 attempts, newest first'),
});
export type BackupsDto = z.output<typeof BackupsDto>;

export const backupsEndpoints = {
  list: endpoint({ ...ROUTES['backup.list'], summary: 'The backup schedule, the newest good backup and the last attempts', access: 'admin', responses: { 200: BackupsDto } }),
  create: endpoint({
    ...ROUTES['backup.create'],
    summary: 'Take a backup now and answer the attempt, good or failed (`ok`, `error`); 409 while another one runs',
    access: 'admin',
    responses: { 201: BackupDto },
    errors: [409],
  }),
};
