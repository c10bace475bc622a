import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

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
});
