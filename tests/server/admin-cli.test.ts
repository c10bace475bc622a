import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const root = path.resolve(import.meta.dirname, '../..');
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

/** Runs the CLI with no stdin (so it generates passwords); rejects on a non-zero exit. */
function admin(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/admin.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: app.db.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(Object.assign(new Error(stderr), { code, stderr }))));
  });
}

const loginStatus = async (username: string, password: string) =>
  (await app.anonymous('POST', '/api/auth/login', { username, password })).status;

describe('npm run admin', () => {
  it('creates an admin with a printed password, resets it, lists and deletes', async () => {
    const created = await admin('create', 'Night-Guard');
    const password = /password: (\S+)/.exec(created.stdout)?.[1];
    expect(password).toBeDefined();
    expect(await loginStatus('night-guard', password!)).toBe(200);

    const reset = await admin('passwd', 'night-guard');
    const next = /password: (\S+)/.exec(reset.stdout)![1]!;
    expect(await loginStatus('night-guard', password!)).toBe(401);
    expect(await loginStatus('night-guard', next)).toBe(200);

    expect((await admin('list')).stdout).toMatch(/^night-guard\t/m);
    await admin('delete', 'night-guard');
    expect((await admin('list')).stdout).not.toMatch(/night-guard/);
  }, 90_000); // six starts of the CLI, about 4 s each here (more on a busy machine)

  it('fails with a message and a non-zero exit for an unknown admin or bad usage', async () => {
    await expect(admin('passwd', 'ghost')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No admin named ghost') });
    await expect(admin('frobnicate')).rejects.toMatchObject({ code: 2 });
  });
});
