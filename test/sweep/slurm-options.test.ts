/**
 * `sim sweep slurm`'s --tasks and --max-running: a value out of range, not an integer,
 * or more tasks running at once than there are tasks is one line, exit 2, no script;
 * neither is taken by an executor it does not apply to. The edges are taken: as many
 * tasks as runs, and --max-running equal to --tasks. (That Slurm keeps to --max-running
 * is test/sweep/sweep-slurm.test.ts's.)
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
  ])('refuses %j with one line, exit 2, and writes nothing', async (args, message) => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-slurm-options-'));
    const r = await simHere(args.map((a) => (a === 'OUT' ? join(outDir, 'OUT') : a)));
    expect(r.stderr).toBe(`${message}\n`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(readdirSync(outDir)).toEqual([]);
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
