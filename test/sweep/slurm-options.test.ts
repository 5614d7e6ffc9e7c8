/**
 * `sim sweep slurm`'s --tasks and --max-running: a value out of range, not an integer,
 * or more tasks running at once than there are tasks is one line, exit 2, no script;
 * neither is taken by an executor it does not apply to. The edges are taken: as many
 * tasks as runs, and --max-running equal to --tasks. (That Slurm keeps to --max-running
 * is test/sweep/sweep-slurm.test.ts's.)
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';
import { simHere } from '../support/sim-here.ts';

// 24 runs.
const SMALL = 'test/fixtures/sweeps/small.json';
const slurm = (...options: string[]) => ['sweep', 'slurm', SMALL, '--out', 'OUT', ...options];

describe('sim sweep slurm --tasks and --max-running', () => {
  it.each([
    [slurm('--tasks', '0'), 'sim: --tasks 0: expected an integer from 1 to 1000'],
    [slurm('--tasks', '-3'), 'sim: --tasks -3: expected an integer from 1 to 1000'],
    [slurm('--tasks', '2.5'), 'sim: --tasks 2.5: expected an integer from 1 to 1000'],
    [slurm('--tasks', '1001'), 'sim: --tasks 1001: expected an integer from 1 to 1000'],
    [slurm('--tasks', '25'), 'sim: --tasks 25: more array tasks than the sweep has runs (24); each task is a shard of at least one run'],
    [slurm('--max-running', '2'), 'sim sweep slurm: missing --tasks <N>'],
    [slurm('--tasks', '4', '--max-running', '0'), 'sim: --max-running 0: expected an integer from 1 to 1000'],
    [slurm('--tasks', '4', '--max-running', '-1'), 'sim: --max-running -1: expected an integer from 1 to 1000'],
    [slurm('--tasks', '4', '--max-running', '1.5'), 'sim: --max-running 1.5: expected an integer from 1 to 1000'],
    [slurm('--tasks', '4', '--max-running', 'two'), 'sim: --max-running two: expected an integer from 1 to 1000'],
    [slurm('--tasks', '4', '--max-running', '1001'), 'sim: --max-running 1001: expected an integer from 1 to 1000'],
    [slurm('--tasks', '4', '--max-running', '5'), 'sim: --max-running 5: more than --tasks 4'],
    [['sweep', SMALL, '--out', 'OUT', '--max-running', '2'], 'sim sweep: unknown option --max-running (see sim help sweep)'],
    [['sweep', SMALL, '--out', 'OUT', '--tasks', '2'], 'sim sweep: unknown option --tasks (see sim help sweep)'],
    [['sweep', 'status', SMALL, '--out', 'OUT', '--max-running', '2'], 'sim sweep status: unknown option --max-running (see sim help sweep status)'],
    [['worker', '--queue', 'redis://127.0.0.1:1/0', '--max-running', '2'], 'sim worker: unknown option --max-running (see sim help worker)'],
    [slurm('--tasks', '4', '--time', '1:2:3:4'), 'sim: --time 1:2:3:4: expected a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH or D-HH:MM:SS)'],
    [slurm('--tasks', '4', '--time', '1-'), 'sim: --time 1-: expected a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH or D-HH:MM:SS)'],
    [slurm('--tasks', '4', '--partition', 'a b'), 'sim: --partition a b: expected a partition name (letters, digits, . _ -)'],
    [slurm('--tasks', '4', '--partition', 'a,'), 'sim: --partition a,: expected a partition name (letters, digits, . _ -)'],
    [slurm('--tasks', '4', '--cpus', '0'), 'sim: --cpus 0: expected an integer from 1 to 256'],
    // Taken, and every task of the script failed on --workers 300 (at most 256).
    [slurm('--tasks', '4', '--cpus', '300'), 'sim: --cpus 300: expected an integer from 1 to 256'],
  ])('refuses %j with one line, exit 2, and writes nothing', async (args, message) => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-slurm-options-'));
    const r = await simHere(args.map((a) => (a === 'OUT' ? join(outDir, 'OUT') : a)));
    expect(r.stderr).toBe(`${message}\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(readdirSync(outDir)).toEqual([]);
  });

  it.each(['90', '30:00', '01:00:00', '2-12', '2-12:30', '1-00:00:00'])('takes --time %s (a form sbatch takes) into the script', async (time) => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-slurm-options-'));
    const r = await simHere(slurm('--tasks', '4', '--time', time).map((a) => (a === 'OUT' ? join(outDir, 'r.jsonl') : a)));
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`\n#SBATCH --time=${time}\n`);
  });

  it("writes README's example options into the script: CPUs, time, partitions and the running limit", async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-slurm-options-'));
    const r = await simHere(['sweep', 'slurm', SMALL, '--out', join(outDir, 'r.jsonl'), '--tasks', '8', '--cpus', '4', '--time', '01:00:00', '--partition', 'short,long', '--max-running', '2']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('\n#SBATCH --array=1-8%2\n#SBATCH --cpus-per-task=4\n#SBATCH --time=01:00:00\n#SBATCH --partition=short,long\n#SBATCH --requeue\n');
  });

  it("writes the whole script: README's example options, the shard of each task, paths quoted for bash and sbatch", async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sim-slurm-script-'));
    mkdirSync(join(cwd, 'a dir'));
    const sweepFile = join(ROOT, SMALL);
    // Bash quoting as a reader would write it: a word of safe characters as it is, any other in single quotes.
    const q = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
    const r = await sim(['sweep', 'slurm', sweepFile, '--out', 'a dir/r.jsonl', '--tasks', '8', '--cpus', '4', '--time', '01:00:00', '--partition', 'short,long', '--max-running', '2'], cwd);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        '#!/bin/bash',
        '# sim sweep "small": 24 runs in 8 shards (run i goes to shard i mod 8 + 1).',
        '# Generated by `sim sweep slurm`. Submit with sbatch; resubmitting it (or only the',
        '# tasks `sim sweep merge --missing` lists, sbatch --array=...) redoes only missing runs.',
        '#SBATCH --job-name=sim-sweep-small',
        '#SBATCH --array=1-8%2',
        '#SBATCH --cpus-per-task=4',
        '#SBATCH --time=01:00:00',
        '#SBATCH --partition=short,long',
        '#SBATCH --requeue',
        `#SBATCH --output="${join(cwd, 'a dir', 'r.jsonl')}.slurm-%A_%a.out"`,
        'set -euo pipefail',
        `cd ${q(cwd)}`,
        `node ${q(join(ROOT, 'bin', 'sim.mjs'))} sweep ${q(sweepFile)} --out 'a dir/r.jsonl' \\`,
        '  --shard "${SLURM_ARRAY_TASK_ID}/8" --workers "${SLURM_CPUS_PER_TASK:-1}" --progress 60',
        '',
      ].join('\n'),
    );
  });

  it('names the job from the sweep with what sbatch takes in a word, at most 64 characters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-slurm-name-'));
    const named = async (name: string): Promise<string | undefined> => {
      writeFileSync(join(dir, 's.json'), JSON.stringify({ name, runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: [1, 2] } }] }));
      const r = await simHere(['sweep', 'slurm', join(dir, 's.json'), '--out', join(dir, 'r.jsonl'), '--tasks', '2']);
      expect(r.stderr).toBe('');
      return /^#SBATCH --job-name=(.*)$/m.exec(r.stdout)?.[1];
    };
    expect(await named(`my "big" sweep, it's 2.0`)).toBe('sim-sweep-my_big_sweep_it_s_2.0');
    expect(await named('n'.repeat(200))).toBe(`sim-sweep-${'n'.repeat(54)}`);
  });

  it('takes as many tasks as runs, and --max-running equal to --tasks', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-slurm-options-'));
    const all = await simHere(['sweep', 'slurm', SMALL, '--out', join(outDir, 'r.jsonl'), '--tasks', '24', '--max-running', '24']);
    expect(all.stderr).toBe('');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('\n#SBATCH --array=1-24%24\n');
    expect(all.stdout).toContain('--shard "${SLURM_ARRAY_TASK_ID}/24"');
    const unlimited = await simHere(['sweep', 'slurm', SMALL, '--out', join(outDir, 'r.jsonl'), '--tasks', '1']);
    expect(unlimited.stdout).toContain('\n#SBATCH --array=1-1\n');
    expect(readdirSync(outDir)).toEqual([]);
  });
});
