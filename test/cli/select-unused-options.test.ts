/**
 * sim select refuses an option that would change nothing where it is given: the seed
 * of runs when nothing runs. Given where it acts, it is taken.
 */
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const SORT = ['select', '--platform', 'cm5', '--nodes', '16', 'sort', '--param', 'keys=100', '--param', 'keyBits=16'];

describe.concurrent('sim select: options that change nothing', () => {
  it.each([
    ['--seed without --run or --all printed the predictions, which depend on no seed', [...SORT, '--seed', '5'], 'sim select: --seed 5 is the seed of the variants\' runs; expected --run or --all with it (the predictions depend on no seed)'],
  ])('%s: one line, exit 2 (it was exit 0)', async (_what, args, line) => {
    const r = await sim(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
  });

  it('--seed with --run runs with that seed', async () => {
    const run = await sim([...SORT, '--seed', '5', '--run', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ seed: 5, measured: [{ variant: 'radix' }] });
  });
});
