/**
 * The library's options where they would change nothing: sim select refuses the seed of
 * runs when nothing runs, and the stencil's extra-lines choice (--communication) on the
 * sort module; a run whose auto values are a sort's says in a note that it is unused.
 * Given where they act, they are taken.
 */
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const SORT = ['select', '--platform', 'cm5', '--nodes', '16', 'sort', '--param', 'keys=100', '--param', 'keyBits=16'];

describe.concurrent('options of the library that change nothing', () => {
  it.each([
    ['--seed without --run or --all printed the predictions, which depend on no seed', [...SORT, '--seed', '5'], 'sim select: --seed 5 is the seed of the variants\' runs; expected --run or --all with it (the predictions depend on no seed)'],
    ['--communication on the sort module', [...SORT, '--communication', 'factored'], 'sim select: --communication factored chooses the stencil\'s extra rows and columns; module sort has none (leave it out)'],
    ['--communication hybrid on an app of the sort module', ['select', '--platform', 'cm5', '--nodes', '16', 'apps/radix-sort', '--param', 'keys=100', '--param', 'keyBits=16', '--communication', 'hybrid'], 'sim select: --communication hybrid chooses the stencil\'s extra rows and columns; module sort has none (leave it out)'],
  ])('%s: one line, exit 2 (it was exit 0)', async (_what, args, line) => {
    const r = await sim(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
  });

  it('--seed with --run runs with that seed; --communication on the stencil module tunes its square', async () => {
    const run = await sim([...SORT, '--seed', '5', '--run', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ seed: 5, measured: [{ variant: 'radix' }] });
    const stencil = await sim(['select', '--platform', 'cm5', '--nodes', '16', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--communication', 'factored']);
    expect(stencil.code).toBe(0);
    expect(stencil.stdout).toMatch(/^tuned {6}square: extraRows \d+: IntegerRoot over/m);
  });

  it('a run whose auto values are a sort\'s took --communication silently; now a note says it is unused, and the run is as without it', async () => {
    const run = ['--platform', 'cm5', '--nodes', '16', 'apps/radix-sort', '--param', 'digitBits=auto', '--param', 'keys=100', '--json'];
    const plain = await sim(run);
    const noted = await sim([...run, '--communication', 'factored']);
    expect(noted.code).toBe(0);
    expect(noted.stderr).toBe("sim: note: --communication factored chooses the stencil's extra rows and columns; the auto values of module sort do not use it\n");
    const fingerprint = (out: string) => (JSON.parse(out) as { fingerprint: string }).fingerprint;
    expect(fingerprint(noted.stdout)).toBe(fingerprint(plain.stdout));
  });

  it('bad input found after the note was two lines, the note first; now the one line alone', async () => {
    for (const [extra, line] of [
      [['--param', 'iters=2'], 'sim: --param iters=2: app radix-sort has no parameter "iters" (expected one of: keys, keyBits, digitBits, dist)'],
      [['--param', 'keys=1', '--param', 'digitBits=17'], expect.stringMatching(/^sim: --param digitBits=17: /)],
    ] as const) {
      const r = await sim(['--platform', 'cm5', '--nodes', '4', 'apps/radix-sort', '--models', 'elsewhere', ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toEqual([line]);
    }
  });

  it('sim explore took --models and --communication with no auto value silently; now the note a run gives', async () => {
    const r = await sim(['explore', 'apps/ping-pong', '--runs', '2', '--platform', 'cm5', '--nodes', '4', '--param', 'rounds=1', '--models', 'elsewhere', '--communication', 'hybrid']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('sim explore: 2 perturbed runs of ping-pong on cm5, 0 failed\n');
    expect(r.stderr).toBe('sim: note: --models elsewhere and --communication hybrid are used only to resolve auto parameters (e.g. --param layout=auto), and this run has none\n');
  });

  it("a parameter an auto value of another key sets: apps/sort's sampleDigitBits=5 ran as the resolved 4; now refused, and taken when nothing sets it", async () => {
    const sort = ['--platform', 'cm5', '--nodes', '16', 'apps/sort', '--param', 'keys=100', '--param', 'digitBits=auto', '--param', 'sampleDigitBits=5'];
    const r = await sim([...sort, '--param', 'algorithm=sample']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('sim: --param sampleDigitBits=5: digitBits=auto sets sampleDigitBits (to 4) on this run; give sampleDigitBits or the auto value, not both\n');
    // Two auto values that set it together: "digitBits=auto and algorithm=auto sets".
    const both = await sim([...sort.map((a) => (a === 'keys=100' ? 'keys=3000' : a)), '--param', 'algorithm=auto']);
    expect(both.stderr).toBe('sim: --param sampleDigitBits=5: digitBits=auto and algorithm=auto set sampleDigitBits (to 4) on this run; give sampleDigitBits or the auto value, not both\n');
    // Under radix sort digitBits=auto sets digitBits alone: the sample sort's width is the user's, unused by a radix sort.
    const radix = await sim([...sort, '--param', 'algorithm=radix', '--json']);
    expect(radix.code).toBe(0);
    expect(JSON.parse(radix.stdout)).toMatchObject({ params: { sampleDigitBits: 5, digitBits: 5 }, auto: { resolved: { digitBits: 5 } } });
  });
});

