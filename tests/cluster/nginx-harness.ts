/**
 * Debian's nginx in front of test nodes, with the shipped deploy/nginx/nature-wall.conf: only
 * the upstream addresses (`appN:3000`) and `listen 80` are replaced, every other line runs as
 * shipped. The file is included from a minimal nginx.conf whose pid, logs and temp folders live
 * in a throw-away prefix folder, so nothing of the machine's own nginx is touched; its connection
 * budget is the shipped deploy/nginx/nginx.conf's.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/free-port.ts';

const SHIPPED = path.resolve(import.meta.dirname, '../../deploy/nginx/nature-wall.conf');
const SHIPPED_MAIN = path.resolve(import.meta.dirname, '../../deploy/nginx/nginx.conf');

/**
 * The shipped main file's connection budget (a worker's connections, its open files), run as
 * shipped — but for the open files, capped at this process's hard limit: compose raises the
 * container's, a test machine may not let nginx go past its own (setrlimit refused, an alert).
 */
function shippedLimits(main: string): { workerConnections: number; rlimitNofile: number } {
  const figure = (directive: string) => {
    const found = new RegExp(`^\\s*${directive}\\s+(\\d+);`, 'm').exec(main);
    if (!found) throw new Error(`deploy/nginx/nginx.conf has no \`${directive} N;\` line`);
    return Number(found[1]);
  };
  const hard = spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim();
  const rlimit = figure('worker_rlimit_nofile');
  return { workerConnections: figure('worker_connections'), rlimitNofile: /^\d+$/.test(hard) ? Math.min(rlimit, Number(hard)) : rlimit };
}

/** Debian's nginx (apt-get install nginx; .ci/run does it on a fresh machine), else one on PATH. */
export function nginxBinary(): string {
  if (existsSync('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('nginx not found: install it (apt-get install -y nginx), as .ci/run does');
  return found;
}

/**
 * The shipped file with every `appN:3000` pointing at `nodes[N-1]` (a `host:port`) and `listen
 * 80;` replaced by `listen`; a line that names a node not given (`appN`: its upstream server,
 * its per-node upstream, its line in the session map) is removed. Throws when the file no longer
 * has those lines, so a changed file cannot pass untested. Node N must run with NODE_NAME=appN.
 */
export function renderShippedConf(shipped: string, nodes: readonly string[], listen: string): string {
  const servers = [...shipped.matchAll(/^\s*server app(\d+):3000\b.*$/gm)];
  if (servers.length < nodes.length) throw new Error(`the shipped conf has ${servers.length} upstream servers, ${nodes.length} nodes given`);
  if (nodes.length === 0) throw new Error('at least one node is needed');
  if (!/^\s*listen 80;/m.test(shipped)) throw new Error('the shipped conf has no `listen 80;` line');
  const named = /(?<![\w.])app(\d+)(?![\w])/g;
  return shipped
    .split('\n')
    .filter((line) => line.trimStart().startsWith('#') || [...line.matchAll(named)].every((m) => nodes[Number(m[1]) - 1] !== undefined))
    .join('\n')
    .replace(/(?<![\w.])app(\d+):3000\b/g, (name: string, n: string) => nodes[Number(n) - 1] ?? name)
    .replace(/^(\s*)listen 80;/m, `$1listen ${listen};`);
}

/** The NODE_NAME node `i` (from 0) runs with behind the harness's nginx: its cookie names the upstream the shipped file gives it. */
export const nodeName = (i: number): string => `app${i + 1}`;

export interface Nginx {
  /** http://127.0.0.1:<port>, the one address clients use. */
  base: string;
  port: number;
  /** The rendered copy of the shipped file (for a failure message). */
  rendered: string;
  /** Its access log so far: `remote_addr "request" status upstream_addr upstream_status`. */
  accessLog(): Promise<string>;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts nginx (master in the foreground, a child of this process) and waits for /nginx-health. */
export async function startNginx(nodes: readonly string[], options: { workers?: number | 'auto' } = {}): Promise<Nginx> {
  const binary = nginxBinary();
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'nw-nginx-'));
  await chmod(prefix, 0o755);
  const port = await freePort();
  const rendered = renderShippedConf(await readFile(SHIPPED, 'utf8'), nodes, `127.0.0.1:${port}`);
  const site = path.join(prefix, 'nature-wall.conf');
  await writeFile(site, rendered);
  const at = (name: string) => path.join(prefix, name);
  const limits = shippedLimits(await readFile(SHIPPED_MAIN, 'utf8'));
  const main = [
    // As root nginx would hand its workers to `nobody`, who cannot write into the prefix folder.
    process.getuid?.() === 0 ? 'user root;' : '',
    `worker_processes ${options.workers ?? 1};`,
    `worker_rlimit_nofile ${limits.rlimitNofile};`,
    `pid ${at('nginx.pid')};`,
    `error_log ${at('error.log')} warn;`,
    `events { worker_connections ${limits.workerConnections}; }`,
    'http {',
    `  log_format cluster '$remote_addr "$request" $status $upstream_addr $upstream_status';`,
    `  access_log ${at('access.log')} cluster;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${at(kind)};`),
    `  include ${site};`,
    '}',
    '',
  ].join('\n');
  const conf = at('nginx.conf');
  await writeFile(conf, main);
  // -e: Debian's build would otherwise open /var/log/nginx/error.log before reading the conf.
  const args = ['-p', prefix, '-e', at('error.log'), '-c', conf];

  const test = spawnSync(binary, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}${test.stdout}\n--- rendered conf ---\n${rendered}`);

  const child: ChildProcess = spawn(binary, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never left behind by a test process that ends abruptly.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const errorLog = () => readFile(at('error.log'), 'utf8').catch(() => '');

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await fetch(`${base}/nginx-health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start (exit ${child.exitCode}):\n${stderr}\n${await errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    base,
    port,
    rendered,
    accessLog: () => readFile(at('access.log'), 'utf8').catch(() => ''),
    errorLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM'); // fast shutdown: open connections are closed
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
