/**
 * Ctrl-C or SIGTERM during a local sweep. The signals killed `sim sweep` (exit status
 * 130 / 143 only as a shell reports a death by signal): it said nothing, `--json` gave
 * no object, and on a terminal the progress bar's hidden cursor stayed hidden. Now the
 * sweep stops cleanly: the runs under way are given up, what finished stays recorded,
 * it reports and exits 130 / 143 — at once, even in a long run in the main thread.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, type CliResult } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-sweep-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two short runs, then one of minutes (4095 partners x 100,000 round trips). */
const SWEEP = join(dir, 'stop.json');
writeFileSync(
  SWEEP,
  JSON.stringify({
    name: 'stop',
    runs: [
      { app: 'apps/ping-pong', platform: 'cm5', nodes: [4], params: { rounds: 1 }, seeds: [1, 2] },
      { app: 'apps/ping-pong', platform: 'cm5', nodes: [4096], params: { rounds: 100000 } },
    ],
  }),
);

const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);

/** Starts the sweep, sends `signal` once its part holds both short runs, and resolves with how it ended and how long it took to. */
function stopped(out: string, extra: string[], signal: 'SIGINT' | 'SIGTERM'): Promise<CliResult & { afterSignalMs: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'sweep', SWEEP, '--out', out, ...extra], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let sentAt = 0;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const poll = setInterval(() => {
      if (lines(`${out}.part-1-of-1`).length >= 3) {
        clearInterval(poll);
        // The long run is under way by then (its inputs checked, its machine built).
        setTimeout(() => {
          sentAt = performance.now();
          child.kill(signal);
        }, 300);
      }
    }, 20);
    child.on('close', (code, killedBy) => {
      clearInterval(poll);
      resolve({ code: code ?? (killedBy === null ? -1 : -2), stdout, stderr, afterSignalMs: performance.now() - sentAt });
    });
  });
}

describe.concurrent('a sweep stopped by a signal', () => {
  it('with --workers 2 --json: SIGTERM gives the object, says so, keeps the finished runs, exit 143', async () => {
    const out = join(dir, 'two.jsonl');
    const r = await stopped(out, ['--workers', '2', '--json'], 'SIGTERM');
    expect(r.code).toBe(143);
    expect(JSON.parse(r.stdout)).toEqual({ sweep: 'stop', runs: 3, shard: '1/1', ran: 2, verified: 2, unverified: 0, failed: 0, missing: 1, wrote: null, refused: [], interrupted: 'SIGTERM' });
    expect(r.stderr).toBe('sim sweep: stopped by SIGTERM; what finished is recorded: run the same command again to run the 1 missing runs\n');
    expect(lines(`${out}.part-1-of-1`)).toHaveLength(3);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 20_000);

  it('in the main thread (--workers 1): Ctrl-C stops the long run part-way, exit 130', async () => {
    const out = join(dir, 'one.jsonl');
    const r = await stopped(out, [], 'SIGINT');
    expect(r.code).toBe(130);
    // Long before the run's minutes are up (it stops between chunks of events; a bound far
    // from both, as the machine's load moves the time from signal to exit).
    expect(r.afterSignalMs).toBeLessThan(15_000);
    expect(r.stdout).toBe('sim sweep stop: 3 runs: 2 verified, 0 unverified, 0 failed, 1 missing; ran 2, 0 already recorded; not all runs recorded yet\n');
    expect(r.stderr).toBe('sim sweep: stopped by SIGINT; what finished is recorded: run the same command again to run the 1 missing runs\n');
    expect(lines(`${out}.part-1-of-1`)).toHaveLength(3);
  }, 20_000);

  // Runs shorter than a stop point's chunk of events never let the event loop turn: a study
  // of small runs (one worker, the default) ran every run to the end and exited 0.
  it('in the main thread, of many short runs: Ctrl-C stops between runs, exit 130', async () => {
    const sweep = join(dir, 'short.json');
    writeFileSync(sweep, JSON.stringify({ name: 'short', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: [4], params: { rounds: 1 }, seeds: { from: 1, count: 5000 } }] }));
    const out = join(dir, 'short.jsonl');
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'sweep', sweep, '--out', out], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (lines(`${out}.part-1-of-1`).length < 20) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr).toMatch(/^sim sweep: stopped by SIGINT; what finished is recorded: run the same command again to run the \d+ missing runs\n$/);
    expect(lines(`${out}.part-1-of-1`).length).toBeLessThan(5001);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
