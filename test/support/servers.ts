/**
 * Test helpers for real servers (redis-server, slurmctld, slurmd, munged) on
 * 127.0.0.1: find a binary, pick a free port, wait for a condition, and start and stop
 * processes by PID. A missing server skips its tests visibly, except under CI=true,
 * where `.ci/run` installs them and a missing one fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const DIRS = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];

/** The path of `name` on PATH (or in /usr/sbin), or null. */
export function findBinary(name: string): string | null {
  for (const dir of DIRS) if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  return null;
}

/** The binaries among `names` that are missing; prints why tests skip (or throws under CI). */
export function missingServers(names: readonly string[], what: string): string[] {
  const missing = names.filter((n) => findBinary(n) === null);
  if (missing.length > 0) {
    const message = `${what}: ${missing.join(', ')} not installed (Debian: apt-get install redis-server slurmctld slurmd slurm-client munge; .ci/run does)`;
    if (process.env.CI === 'true') throw new Error(`${message}; CI=true requires them`);
    console.warn(`SKIPPED ${message}`);
  }
  return missing;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * Polls `check` every 100 ms until it holds, or fails after `ms` naming `what` and, with
 * `shown`, what the process under test had said by then (a timeout that named only what
 * it waited for left nothing to diagnose a failure seen once).
 */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000, shown?: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const said = shown === undefined ? '' : `; it had said: ${JSON.stringify(shown())}`;
      throw new Error(`timed out after ${ms} ms waiting for ${what}${said}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A started process with its output collected. */
export interface Started {
  child: ChildProcess;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Its stdout and stderr have ended too: everything it wrote has been read ('exit' can come first). */
  closed: Promise<void>;
}

export function start(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Started {
  const child = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  if (child.pid === undefined) throw new Error(`cannot start ${command}`);
  return { child, pid: child.pid, stdout: () => out, stderr: () => err, exited, closed };
}

/**
 * A real redis-server on 127.0.0.1:`port`, keeping nothing on disk beyond `dir`
 * (extra arguments after the defaults), once it accepts connections.
 */
export async function startRedis(port: number, dir: string, extra: readonly string[] = []): Promise<Started> {
  const redis = start(findBinary('redis-server') as string, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra, '--dir', dir]);
  await waitFor('redis-server to listen', () => redis.stdout().includes('Ready to accept connections'), 10_000);
  return redis;
}

/** Stops a process by its PID (SIGTERM, then SIGKILL after `graceMs`) and waits for it. */
export async function stop(p: Started | undefined, graceMs = 5000): Promise<void> {
  if (p === undefined || p.child.exitCode !== null || p.child.signalCode !== null) return;
  process.kill(p.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (p.child.exitCode === null && p.child.signalCode === null) process.kill(p.pid, 'SIGKILL');
  }, graceMs);
  await p.exited;
  clearTimeout(timer);
}
