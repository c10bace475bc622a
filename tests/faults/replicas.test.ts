/**
 * A fresh deployment of replicas: three nodes started at the same moment on an empty database
 * all become ready, and the first-start data exists exactly once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startNode, type ServerNode } from './support.ts';

const database = `nw_test_replicas_${randomBytes(4).toString('hex')}`;
let nodes: ServerNode[] = [];

function urlFor(name: string): string {
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: urlFor(database) });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
}, 60_000);

describe('three replicas started together on an empty database', () => {
  it('all come up, with one Default scene, one default_scene_id, one demo pool and one admin', async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();

    const env = { DATABASE_URL: urlFor(database), SEED_DEMO: 'true', ADMIN_PASSWORD: 'replica-password-123' };
    nodes = await Promise.all([0, 1, 2].map(() => startNode(env, { waitReady: false })));
    await Promise.all(nodes.map((n) => n.waitReady(90_000)));
    expect(nodes.map((n) => n.exitCode())).toEqual([null, null, null]);

    expect(await query(`select count(*)::int as n from scenes where name = 'Default'`)).toEqual([{ n: 1 }]);
    expect(await query(`select count(*)::int as n from system_config where key = 'default_scene_id'`)).toEqual([{ n: 1 }]);
    expect(await query(`select count(*)::int as n from admin_users`)).toEqual([{ n: 1 }]);
    const [streams] = await query<{ n: number; distinct: number }>(`select count(*)::int as n, count(distinct normalized_url)::int as distinct from streams`);
    expect(streams!.n).toBeGreaterThan(0);
    expect(streams!.n).toBe(streams!.distinct);
    const [scenes] = await query<{ n: number; distinct: number }>(`select count(*)::int as n, count(distinct name)::int as distinct from scenes`);
    expect(scenes!.n).toBe(scenes!.distinct);
  }, 150_000);
});
