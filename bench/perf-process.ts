/**
 * Measures whole processes for the perf bench: a `sim` run as a user starts it
 * (`node bin/sim.mjs <args> --json` in the checkout measured), with its wall time
 * taken around the process and its peak resident memory and minor page faults from
 * GNU time; `sim --version` and `node -e 0`; the PHOLD kernel child; and what one
 * page fault costs on this machine. Owns the children it starts (killChildren ends
 * them); knows nothing of baselines or tables.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './harness.ts';

/** One `sim` process: what it reported and what was measured around it. */
export interface SimRun {
  /** Wall time of the whole process, start-up included (ms). */
  wallMs: number;
  /** The sim's own `wallMs`: the run of the app, without start-up and module loading (ms). */
  runWallMs: number;
  events: number;
  simulatedCycles: number;
  fingerprint: string;
  verified: boolean;
  verification: string;
  /** Peak resident set size of the process (MB), or null when GNU time is missing. */
  peakRssMB: number | null;
  /** Minor page faults of the process (first touches of fresh memory), or null when GNU time is missing. */
  minorFaults: number | null;
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

const GNU_TIME = '/usr/bin/time';
const running = new Set<ChildProcess>();

/** True when /usr/bin/time is GNU time (which has `-f %M` and `-o`). */
export const hasGnuTime: boolean = existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU') === true;

/** Says where the peak-memory figures come from, for the report. */
export const RSS_SOURCE = hasGnuTime
  ? "GNU time's %M (maximum resident set size of the sim process, from the kernel's rusage)"
  : 'not measured: GNU /usr/bin/time is missing';

/**
 * Ends every child still running, with its own children (GNU time's sim): each
 * child leads a process group of its own, which gets SIGTERM.
 */
/**
 * Set by killChildren: a stop is under way, and run() starts no more children (a stop
 * between two runs went on with the next).
 */
let isStopping = false;

/** The bench was stopped: what is running is ended, and nothing more starts. */
export class BenchStopped extends Error {}

/**
 * Ends the children (their process groups) and starts no more; resolves once every one
 * has exited, so that their folders can be removed (deleting the baseline's worktree
 * while its npm ci still wrote into it failed with ENOTEMPTY and left it behind).
 */
export function killChildren(): Promise<void> {
  isStopping = true;
  const exited = [...running].map((child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('close', () => resolve()))));
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  return Promise.all(exited).then(() => undefined);
}

/** Runs `command` in `cwd` to completion; the wall time spans spawn to exit. */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Finished> {
  return new Promise((resolve, reject) => {
    if (isStopping) {
      reject(new BenchStopped('stopped'));
      return;
    }
    const start = performance.now();
    // detached: a process group of its own, so killChildren reaches the sim under GNU time.
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      running.delete(child);
      reject(e);
    });
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - start;
      running.delete(child);
      resolve({ code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), wallMs });
    });
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

interface SimJson {
  events: number;
  wallMs: number;
  simulatedCycles: number;
  fingerprint: string;
  verified: boolean;
  verification: string;
}

/** Whether `x` is an object whose `keys` are all numbers. */
function hasNumbers(x: unknown, keys: readonly string[]): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && keys.every((k) => typeof (x as Record<string, unknown>)[k] === 'number');
}

/** The first line of a child's output that is a JSON object, parsed; undefined if none. */
function firstJsonLine(stdout: string): unknown {
  const line = stdout.split('\n').find((l) => l.startsWith('{'));
  return line === undefined ? undefined : JSON.parse(line);
}

function isSimJson(x: unknown): x is SimJson {
  return hasNumbers(x, ['events', 'wallMs', 'simulatedCycles']) && typeof x.verified === 'boolean';
}

/**
 * Runs `node bin/sim.mjs <args> --json` in `checkout` under GNU time. A run that
 * prints its summary counts even if it did not verify (the report flags it); one
 * that prints none (bad input, crash) throws with the last line of its stderr.
 */
export async function runSim(checkout: string, simArgs: readonly string[]): Promise<SimRun> {
  const sim = [join(checkout, 'bin', 'sim.mjs'), ...simArgs, '--json'];
  const scratch = hasGnuTime ? mkdtempSync(join(tmpdir(), 'perf-rss-')) : null;
  const rssFile = scratch === null ? '' : join(scratch, 'rss');
  try {
    const done = scratch === null ? await run(process.execPath, sim, checkout) : await run(GNU_TIME, ['-f', '%M %R', '-o', rssFile, process.execPath, ...sim], checkout);
    const parsed = firstJsonLine(done.stdout);
    if (!isSimJson(parsed)) {
      const why = done.signal !== null ? `killed by ${done.signal}` : `exit ${done.code}: ${lastLine(done.stderr) || 'no output'}`;
      throw new Error(`sim ${simArgs.join(' ')} in ${checkout} printed no summary (${why})`);
    }
    // GNU time writes "Command exited with non-zero status N" before the figures when the run fails.
    const [rssKB, faults] = scratch === null ? [Number.NaN, Number.NaN] : lastLine(readFileSync(rssFile, 'utf8')).split(' ').map(Number);
    return {
      wallMs: done.wallMs,
      runWallMs: parsed.wallMs,
      events: parsed.events,
      simulatedCycles: parsed.simulatedCycles,
      fingerprint: parsed.fingerprint,
      verified: parsed.verified,
      verification: parsed.verification,
      peakRssMB: Number.isFinite(rssKB) ? rssKB / 1024 : null,
      minorFaults: Number.isFinite(faults) ? faults : null,
    };
  } finally {
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The in-run wall times (ms) of the same `sim` run made twice in one process
 * (bench/warm-child.mjs in `checkout`): [first, second], the second with V8's code
 * optimized and its heap grown by the first; throws if a run prints no summary.
 */
export async function runSimTwice(checkout: string, simArgs: readonly string[]): Promise<[number, number]> {
  const done = await run(process.execPath, [join(checkout, 'bench', 'warm-child.mjs'), ...simArgs], checkout);
  const runs = done.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l): unknown => JSON.parse(l))
    .filter(isSimJson);
  if (runs.length !== 2) throw new Error(`bench/warm-child.mjs ${simArgs.join(' ')} in ${checkout} printed ${runs.length} of 2 summaries (exit ${done.code}): ${lastLine(done.stderr)}`);
  return [runs[0].wallMs, runs[1].wallMs];
}

/** A run split where it has dispatched its first events (bench/phase-child.mjs): wall ms and events of each part. */
export interface RunPhases {
  buildMs: number;
  firstMs: number;
  firstEvents: number;
  restMs: number;
  restEvents: number;
}

const isRunPhases = (x: unknown): x is RunPhases => hasNumbers(x, ['buildMs', 'firstMs', 'firstEvents', 'restMs', 'restEvents']);

/**
 * The same `sim` run made in one process from `checkout`'s build, split after its first
 * events (bench/phase-child.mjs); throws if the child prints no split.
 */
export async function runSimPhases(checkout: string, simArgs: readonly string[]): Promise<RunPhases> {
  const done = await run(process.execPath, [join(checkout, 'bench', 'phase-child.mjs'), ...simArgs], checkout);
  const parsed = firstJsonLine(done.stdout);
  if (!isRunPhases(parsed)) throw new Error(`bench/phase-child.mjs ${simArgs.join(' ')} in ${checkout} printed no split (exit ${done.code}): ${lastLine(done.stderr)}`);
  return parsed;
}

/** One event kind of a run after its first events (bench/phase-child.mjs --by-kind): its events and their wall time (ms). */
export interface KindTime {
  kind: string;
  events: number;
  ms: number;
}

const isKindTimes = (x: unknown): x is { byKind: KindTime[] } =>
  typeof x === 'object' && x !== null && Array.isArray((x as { byKind?: unknown }).byKind) && (x as { byKind: unknown[] }).byKind.every((k) => hasNumbers(k, ['events', 'ms']) && typeof (k as { kind?: unknown }).kind === 'string');

/**
 * The same `sim` run made in one process from `checkout`'s build, its events after the
 * first ones timed by kind (bench/phase-child.mjs --by-kind); throws if the child prints none.
 */
export async function runSimKinds(checkout: string, simArgs: readonly string[]): Promise<KindTime[]> {
  const done = await run(process.execPath, [join(checkout, 'bench', 'phase-child.mjs'), '--by-kind', ...simArgs], checkout);
  const parsed = firstJsonLine(done.stdout);
  if (!isKindTimes(parsed)) throw new Error(`bench/phase-child.mjs --by-kind ${simArgs.join(' ')} in ${checkout} printed no times by kind (exit ${done.code}): ${lastLine(done.stderr)}`);
  return parsed.byKind;
}

/**
 * What a minor page fault costs here (us): the time to touch each 4 KB page of a fresh
 * 64 MB buffer once, per page, the median of three buffers. Cheap on bare metal (well
 * under a microsecond); some virtual machines charge ten times that and more, which
 * makes a run's memory growth a large part of its time.
 */
export function pageFaultMicros(): number {
  const PAGE = 4096;
  const times: number[] = [];
  for (let k = 0; k < 3; k++) {
    const b = new Uint8Array(64 << 20);
    const t0 = performance.now();
    for (let i = 0; i < b.length; i += PAGE) b[i] = 1;
    times.push(((performance.now() - t0) * 1000) / (b.length / PAGE));
  }
  return median(times);
}

/** Wall time (ms) of `node bin/sim.mjs --version` in `checkout`; throws if it fails. */
export async function timeSimVersion(checkout: string): Promise<number> {
  const done = await run(process.execPath, [join(checkout, 'bin', 'sim.mjs'), '--version'], checkout);
  if (done.code !== 0 || !done.stdout.startsWith('sim ')) throw new Error(`sim --version in ${checkout} failed (exit ${done.code}): ${lastLine(done.stderr)}`);
  return done.wallMs;
}

/** Wall time (ms) of a bare `node -e 0`, the same node binary the sims run on. */
export async function timeBareNode(cwd: string): Promise<number> {
  const done = await run(process.execPath, ['-e', '0'], cwd);
  if (done.code !== 0) throw new Error(`node -e 0 failed (exit ${done.code})`);
  return done.wallMs;
}

/**
 * The PHOLD kernel rate (events/s) of `checkout`: its bench/phold-child.ts in
 * handler mode after two warm-up runs, as `npm run bench kernel` measures it. Null
 * when that checkout has no phold-child.ts.
 */
export async function runPholdKernel(checkout: string): Promise<number | null> {
  const child = join(checkout, 'bench', 'phold-child.ts');
  if (!existsSync(child)) return null;
  const done = await run(process.execPath, ['--import', 'tsx', child, 'handler', '2'], checkout);
  const parsed: unknown = done.code === 0 ? JSON.parse(lastLine(done.stdout)) : undefined;
  const rate = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).eventsPerSec : undefined;
  if (typeof rate !== 'number') throw new Error(`PHOLD kernel child in ${checkout} failed (exit ${done.code}): ${lastLine(done.stderr)}`);
  return rate;
}

/**
 * Runs `npm ci` in `dir` and returns its wall time (ms); throws with the last line
 * of its stderr if it fails. The perf options an outer `npm run bench` turned into
 * npm_config_* variables are left out, so this npm does not take them as its own.
 */
export async function npmCi(dir: string): Promise<number> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_(baseline|runs|only)$/i.test(k)));
  const done = await run('npm', ['ci', '--no-audit', '--no-fund'], dir, env);
  if (done.code !== 0) throw new Error(`npm ci in ${dir} failed (exit ${done.code}): ${lastLine(done.stderr)}`);
  return done.wallMs;
}

/**
 * Makes `checkout`'s JavaScript build current (`scripts/build.mjs`, which checkouts
 * from the start-up work on have), so that its `sim` runs the build and not the
 * sources; a checkout without one runs through tsx as it always did. Returns
 * whether it built.
 */
export async function buildIfAble(checkout: string): Promise<boolean> {
  const script = join(checkout, 'scripts', 'build.mjs');
  if (!existsSync(script)) return false;
  const done = await run(process.execPath, [script], checkout);
  if (done.code !== 0) throw new Error(`the build in ${checkout} failed (exit ${done.code}): ${lastLine(done.stderr)}`);
  return true;
}
