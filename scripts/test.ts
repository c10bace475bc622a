/**
 * `npm test`: every suite, on a fresh machine too. What the suites need beside Node — Debian's
 * chromium, ffmpeg and nginx, iproute2 and util-linux for the SSRF namespace, a Redis for the
 * Redis-adapter suites — is looked for first; what is missing is installed with apt-get when this
 * runs as root on Debian (as `.ci/run` does), else named and the run stops before any suite
 * starts (none is skipped for want of it). A Redis that does not answer on 127.0.0.1:6379 (or
 * TEST_REDIS_URL) is started for the run on a free port and stopped after. Then `vitest run`
 * and `playwright test`, as before. `--prepare-only` stops after the preparation (it says what
 * it found and did).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { freePort } from '../src/free-port.ts';

/** Command → the Debian package that brings it. */
const NEEDED: Record<string, string> = {
  chromium: 'chromium',
  ffmpeg: 'ffmpeg',
  nginx: 'nginx',
  'redis-server': 'redis-server',
  ip: 'iproute2',
  unshare: 'util-linux',
};

const has = (command: string) => existsSync(`/usr/sbin/${command}`) || spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const log = (line: string) => console.log(`[test] ${line}`);

function install(packages: string[]): void {
  const root = process.getuid?.() === 0;
  if (!root || !has('apt-get')) {
    console.error(`[test] missing: ${packages.join(', ')} — install them (Debian: apt-get install -y ${packages.join(' ')}) or run .ci/run`);
    process.exit(1);
  }
  log(`installing ${packages.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...packages]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

/** Whether a Redis answers PING at `url` within a second. */
function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function startRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await redisAnswers(url)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await redisAnswers(url))) throw new Error('the Redis started for the tests does not answer');
  return { url, child };
}

const missing = [...new Set(Object.keys(NEEDED).filter((command) => !has(command)).map((command) => NEEDED[command]!))];
if (missing.length > 0) install(missing);
else log('chromium, ffmpeg, nginx, redis-server, ip and unshare are here');

const env = { ...process.env };
let redis: ChildProcess | undefined;
const configured = env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
if (await redisAnswers(configured)) {
  env.TEST_REDIS_URL = configured;
  log(`Redis at ${configured}`);
} else {
  const started = await startRedis();
  redis = started.child;
  env.TEST_REDIS_URL = started.url;
  log(`no Redis at ${configured}: started one at ${started.url} for this run`);
}

let status = 0;
try {
  if (!process.argv.includes('--prepare-only')) {
    for (const [command, args] of [['vitest', ['run']], ['playwright', ['test']]] as const) {
      const result = spawnSync('npx', ['--no-install', command, ...args], { stdio: 'inherit', env });
      status = result.status ?? 1;
      if (status !== 0) break;
    }
  }
} finally {
  redis?.kill();
}
process.exit(status);
