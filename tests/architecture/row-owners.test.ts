/**
 * One owner per row: the module that owns a table is the only one that writes it, by ORM or by
 * SQL. Scans the server's source for writes to each owned table outside its module.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });

/** Table → [owning folder, entity classes]. */
const OWNERS: Record<string, [string, string[]]> = {
  streams: ['modules/streams', ['Stream']],
  stream_stills: ['modules/streams', ['StreamStill']],
  stream_health_changes: ['modules/streams', ['StreamHealthChange']],
  submissions: ['modules/submissions', ['Submission']],
  scene_streams: ['modules/scenes', ['SceneStream']],
  scenes: ['modules/scenes', ['Scene']],
  screen_groups: ['modules/programme', ['ScreenGroup']],
  screen_placements: ['modules/programme', ['ScreenPlacement']],
  schedule_entries: ['modules/programme', ['ScheduleEntry']],
  takeovers: ['modules/programme', ['Takeover']],
  programme_boundaries: ['modules/programme', ['ProgrammeBoundary']],
  screen_sessions: ['modules/screens', ['ScreenSession']],
  admin_users: ['modules/auth', ['AdminUser']],
  admin_sessions: ['modules/auth', ['AdminSession']],
  api_tokens: ['modules/auth', ['ApiToken']],
  account_links: ['modules/auth', ['AccountLink']],
};

describe('one owner per row', () => {
  const sources = files(root).map((file) => ({ file: path.relative(root, file), text: readFileSync(file, 'utf8') }));

  it.each(Object.entries(OWNERS))('only %s\'s module writes it', (table, [owner, entities]) => {
    const sql = new RegExp(`(insert\\s+into|update|delete\\s+from)\\s+"?${table}"?\\b`, 'i');
    const orm = new RegExp(`\\b(create|nativeUpdate|nativeDelete|upsert|upsertMany|insert|insertMany)\\(\\s*(${entities.join('|')})\\b`);
    const writers = sources.filter(({ file, text }) => !file.startsWith(`${owner}/`) && (sql.test(text) || orm.test(text))).map(({ file }) => file);
    expect(writers).toEqual([]);
  });

  it('finds the writers it looks for (the rule is not vacuous)', () => {
    const streamsWriters = sources.filter(({ text }) => /insert\s+into\s+streams\b/i.test(text)).map(({ file }) => file);
    expect(streamsWriters).toEqual(['modules/streams/stream-intake.ts']);
  });
});
