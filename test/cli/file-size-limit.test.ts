/**
 * Output files on a disk that fills, here a file size limit (`ulimit -f`, RLIMIT_FSIZE):
 * a write then writes what fits and says how much, and only the next write fails.
 * `sim ... --record r.json` wrote its repro in one write: under a 100 kB limit it left
 * a 100,000-byte r.json, cut mid-digest, and exited 0. A sweep's results part stopped
 * with "internal error: EFBIG: file too large, write" and a stack trace. Now both are
 * one line naming the file, exit 2, and no output file is left half-written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, sim, type CliResult } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-fsize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `sim args` in `dir` with files limited to 64 blocks (32 or 64 kB: sh counts 512-byte blocks, bash 1024). */
function simLimited(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath, join(ROOT, 'bin/sim.mjs'), ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe.concurrent('an output file larger than the disk takes', () => {
  it('--record: one line, exit 2, no repro file (it was cut short, exit 0)', async () => {
    // About 3.4 million events: 9 MB of digests.
    const r = await simLimited(['--platform', 'cm5', '-n', '256', 'apps/ping-pong', '--param', 'rounds=300', '--record', 'big-repro.json']);
    expect(r.stderr).toBe('sim: repro file big-repro.json: cannot write the file (EFBIG)\n');
    expect(r.code).toBe(2);
    expect(readdirSync(dir).filter((f) => f.startsWith('big-repro'))).toEqual([]);
  }, 20_000);

  it('sim export: one line, exit 2, neither the export nor its temporary file left', async () => {
    // A 9 kB trace of 400 messages exports to more than the limit.
    const made = await sim(['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--param', 'rounds=200', '--trace', join(dir, 'pp.trace'), '--trace-messages']);
    expect(made.code).toBe(0);
    const r = await simLimited(['export', '--format', 'perfetto', 'pp.trace', '-o', 'pp.json']);
    expect(r.stderr).toBe('sim: -o pp.json: cannot write the file (EFBIG)\n');
    expect(r.code).toBe(2);
    expect(readdirSync(dir).filter((f) => f.includes('pp.json'))).toEqual([]);
  }, 20_000);

  it('a sweep: one line naming the part, exit 2; without the limit the sweep resumes and completes', async () => {
    const file = join(dir, 'fill.json');
    writeFileSync(file, JSON.stringify({ name: 'fill', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: [4], params: { rounds: 1 }, seeds: { from: 1, count: 60 } }] }));
    const out = join(dir, 'fill.jsonl');
    const r = await simLimited(['sweep', file, '--out', out, '--workers', '2']);
    expect(r.stderr).toBe(`sim: ${out}.part-1-of-1: cannot write the results part (EFBIG)\n`);
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    const again = await sim(['sweep', file, '--out', out, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ runs: 60, verified: 60, missing: 0, wrote: out });
  }, 20_000);
});
