import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { declaredVariables, loadConfig, readModuleSettings, settingsOf } from '../../src/config.ts';
import { MODULES } from '../../src/modules/index.ts';
import { defineModule } from '../../src/modules/module.ts';
import { qualityModule } from '../../src/modules/quality/quality.module.ts';
import { programmeModule } from '../../src/modules/programme/programme.module.ts';

describe('loadConfig', () => {
  it('defaults to port 3000, the embedded database in ./.data and demo data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, seedDemo: true, logLevel: 'info' });
    expect(config.dataDir.endsWith('.data')).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/wall',
      DATA_DIR: '/var/lib/wall',
      EMBEDDED_PG_PORT: '55432',
      LOG_LEVEL: 'debug',
      SEED_DEMO: 'false',
      DB_POOL_MAX: '20',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/wall',
      dataDir: '/var/lib/wall',
      embeddedPgPort: 55432,
      logLevel: 'debug',
      seedDemo: false,
      dbPoolMax: 20,
    });
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it.each([
    ['a port out of range', { PORT: '70000' }, /PORT/],
    ['a non-postgres database URL', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must be a postgres/],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('refuses %s with a readable message', (_rule, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("reads each module's settings from the variables it declares, and its defaults when absent", () => {
    const config = loadConfig({ QUALITY_CONCURRENCY: '5', QUALITY_SWEEP_CRON: 'off', SCENE_FLIP_LEAD_MS: '900' }, MODULES);
    expect(settingsOf(config, qualityModule)).toMatchObject({ concurrency: 5, sweepCron: null, reanalyzeHours: 6 });
    expect(settingsOf(config, programmeModule)).toEqual({ flipLeadMs: 900 });
    expect(readModuleSettings(programmeModule)).toEqual({ flipLeadMs: settingsOf(loadConfig({}, MODULES), programmeModule).flipLeadMs });
  });

  it("names a module's bad variable with the core's in one message", () => {
    expect(() => loadConfig({ PORT: 'x', QUALITY_CONCURRENCY: '99', ALERT_CHECK_SECONDS: '0' }, MODULES)).toThrow(/PORT: .*QUALITY_CONCURRENCY: .*ALERT_CHECK_SECONDS: /);
  });

  it('refuses two modules that declare the same variable', () => {
    const twin = defineModule({ name: 'twin', settings: { env: { QUALITY_CONCURRENCY: z.string().optional() }, read: () => undefined } });
    expect(() => loadConfig({}, [...MODULES, twin])).toThrow('QUALITY_CONCURRENCY is declared twice (module twin)');
  });

  it('reads no module variable without the module list (config.ts knows no feature)', () => {
    expect(loadConfig({ QUALITY_CONCURRENCY: 'not a number' }).settings).toEqual({});
  });

  it("lists every variable the process and the modules read in the README's Configuration table", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const variables = declaredVariables(MODULES).filter((name) => name !== 'NODE_ENV');
    expect(variables.length).toBeGreaterThan(40);
    expect(variables.filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});
