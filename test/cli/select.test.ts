/** `sim select` and `auto` parameters on the shipped models (thesis ch. 4-5). */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

describe('sim select', () => {
  it('prints every variant with its prediction and marks the choice', async () => {
    const r = await sim(['select', '--platform', 'paragon', 'apps/stencil', '--param', 'width=1024', '--param', 'height=32', '--param', 'iters=3']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const v of ['square', 'vstrips', 'hstrips', 'rect', 'uni']) expect(r.stdout).toMatch(new RegExp(`^${v}`, 'm'));
    // 32 rows cannot go to 64 horizontal strips: that variant predicts nothing.
    expect(r.stdout).toMatch(/^hstrips +cannot: layout hstrips puts 64 processors down 32 rows/m);
    // Rect 32 x 2 over vertical strips, as measured (61,560 against 62,960 cycles): its
    // row edges carry one colour of 32 points.
    expect(r.stdout).toMatch(/^choice +rect: width=1024 height=32 iters=3 layout=rect aspect=16$/m);
  });

  it('gives the same choice in any process (--json, twice)', async () => {
    // 100 keys per node: small enough for radix sort to win, so the choice carries its tuned digit width.
    const args = ['select', '--platform', 'alewife', 'sort', '--param', 'keys=100', '--param', 'keyBits=28', '--json'];
    const [a, b] = await Promise.all([sim(args), sim(args)]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const j = JSON.parse(a.stdout);
    expect(j.predictions.map((p: { variant: string }) => p.variant)).toEqual(['radix', 'sample']);
    expect(j.choice.params.digitBits).toBe(j.predictions[0].params.digitBits);
    expect(j.predictions[0].notes[0]).toMatch(/^digitBits \d+: \d+ passes, IntegerMinimum of g\(i\)/);
  });

  it('tunes the digit width of short keys over widths no wider than the key', async () => {
    const r = await sim(['select', '--platform', 'alewife', 'sort', '--param', 'keys=100', '--param', 'keyBits=6', '--json']);
    expect(r.code).toBe(0);
    const radix = JSON.parse(r.stdout).predictions[0];
    expect(radix.variant).toBe('radix');
    expect(radix.params.digitBits).toBeLessThanOrEqual(6);
    expect(radix.notes[0]).toMatch(/\(eq\. 44, digits 2-6\)/);
  });

  it('--run runs the choice and compares it with the prediction', async () => {
    const r = await sim(['select', '--platform', 'alewife', 'stencil', '--nodes', '64', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--run']);
    expect(r.code).toBe(0);
    const m = /^measured +(\w+): ([\d,]+) cycles = [\d,.]+ us; predicted ([\d,]+) \(([-+][\d.]+)%\)$/m.exec(r.stdout);
    expect(m).not.toBeNull();
    expect(Math.abs(Number(m![4]))).toBeLessThan(10);
    // A variant that did not run shows '-' under "meas. cycles" (its parameters slid under that column).
    expect(r.stdout).toMatch(/^uni +[\d,.]+ +[\d,]+ +- +layout=uni$/m);
    const j = await sim(['select', '--platform', 'alewife', 'stencil', '--nodes', '16', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--run', '--seed', '3', '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ seed: 3, measured: [expect.objectContaining({ variant: expect.any(String) })] });
  });

  it('--map draws the winner map and the digit-width curve as SVG', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-select-'));
    const a = await sim(['select', '--map', '--platform', 'atm', 'stencil', '--param', 'iters=20', '-o', join(dir, 'map.svg')]);
    expect(a.code).toBe(0);
    const map = readFileSync(join(dir, 'map.svg'), 'utf8');
    expect(map).toMatch(/^<svg /);
    expect(map).toContain('<title>4096 x 8: ');
    const b = await sim(['select', '--map', '--platform', 'cm5', 'sort', '--param', 'keys=1000', '--param', 'keyBits=28', '-o', join(dir, 'digits.svg'), '--json']);
    expect(b.code).toBe(0);
    // --json: one object (it printed the text line).
    expect(JSON.parse(b.stdout)).toEqual({ wrote: join(dir, 'digits.svg') });
    expect(readFileSync(join(dir, 'digits.svg'), 'utf8')).toContain('g(i) over the viable pass counts');
  });
});

describe('auto parameters', () => {
  it('never choose a sample sort the app refuses: 1-bit keys in less than 2 n/p of room (it chose it, and the run failed)', async () => {
    const r = await sim(['--platform', 'cm5', '--nodes', '16', 'apps/sort', '--param', 'algorithm=auto', '--param', 'keys=100', '--param', 'keyBits=1', '--param', 'memory=1.5', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: true, params: { algorithm: 'radix' } });
  });

  it('resolve before the run to the values the app takes, shown in the summary; the run is the explicit one', async () => {
    const auto = await sim(['--platform', 'paragon', 'apps/sort', '--param', 'algorithm=auto', '--param', 'digitBits=auto', '--param', 'keys=300', '--param', 'keyBits=16', '--json']);
    expect(auto.code).toBe(0);
    const j = JSON.parse(auto.stdout);
    expect(j.auto.module).toBe('sort');
    // Sample sort wins at 300 keys on the Paragon; digitBits=auto is then its samples' radix
    // sort's digit width, which sample sort reads as sampleDigitBits (it went into digitBits,
    // which sample sort ignores, while the auto line claimed it).
    expect(Object.keys(j.auto.resolved).sort()).toEqual(['algorithm', 'sampleDigitBits']);
    expect(j.params.algorithm).toBe(j.auto.resolved.algorithm);
    expect(j.params.algorithm).toBe('sample');
    expect(j.params.sampleDigitBits).toBe(j.auto.resolved.sampleDigitBits);
    const run = async (...params: string[]) => JSON.parse((await sim(['--platform', 'paragon', 'apps/sort', ...params.flatMap((p) => ['--param', p]), '--param', 'keys=300', '--param', 'keyBits=16', '--json'])).stdout).fingerprint;
    expect(await run('algorithm=sample', `sampleDigitBits=${j.params.sampleDigitBits}`)).toBe(j.fingerprint);
    // The width is used: another one runs differently.
    expect(await run('algorithm=sample', `sampleDigitBits=${j.params.sampleDigitBits === 4 ? 5 : 4}`)).not.toBe(j.fingerprint);
    // algorithm=sample with digitBits=auto tunes the samples' width too (it was refused: "no model for digitBits").
    const pinned = JSON.parse((await sim(['--platform', 'paragon', 'apps/sort', '--param', 'algorithm=sample', '--param', 'digitBits=auto', '--param', 'keys=300', '--param', 'keyBits=16', '--json'])).stdout);
    expect(pinned.auto.resolved).toEqual({ sampleDigitBits: j.params.sampleDigitBits });
  });

  it("on apps/sample-sort says its prediction is of the samples' radix sort (it read as the run's: 53,504 predicted, 283,960 run)", async () => {
    const r = await sim(['--platform', 'alewife', '--nodes', '16', 'apps/sample-sort', '--param', 'digitBits=auto', '--param', 'keys=2000', '--param', 'keyBits=16']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^auto +digitBits=\d+ \(module sort: radix sort of the samples \(\d+ keys per node\) predicted [\d,]+ cycles/m);
  });

  it('layout=auto passes over rect when the default aspect does not fit the grid (it crashed: "a 3 x 16 grid does not split over 8 x 2 processors")', async () => {
    const r = await sim(['--platform', 'cm5', '--nodes', '16', 'apps/stencil', '--param', 'width=3', '--param', 'height=16', '--param', 'iters=2', '--param', 'layout=auto', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout);
    expect(run.verified).toBe(true);
    expect(run.auto.variant).toBe('uni');
  });

  it('layout=auto weighs every layout at the extra lines the run gives, as the app gives them to every layout: vstrips is predicted with its 20 extra columns, and passed over where it cannot take 50', async () => {
    const run = async (extraCols: number) => {
      const r = await sim(['--platform', 'cm5', '--nodes', '64', 'apps/stencil', '--param', 'layout=auto', '--param', `extraCols=${extraCols}`, '--param', 'width=150', '--param', 'height=8', '--param', 'iters=4', '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    // Only the square's prediction counted them: vstrips was predicted at 13,192 cycles, the even split's, and ran 22,010.
    const twenty = await run(20);
    expect(twenty.auto.variant).toBe('vstrips');
    expect(twenty.params).toMatchObject({ layout: 'vstrips', extraCols: 20 });
    expect(Math.abs(twenty.auto.predictedCycles / twenty.metrics.cycles - 1)).toBeLessThan(0.1);
    // The notes said "given" for the square's extra lines alone, and nothing where vstrips was weighed with them.
    expect(twenty.auto.notes).toEqual(['extraCols 20: given']);
    // 64 strips of 150 columns cannot give the edge ones 50 more: vstrips was chosen, and its run refused.
    const fifty = await run(50);
    expect(fifty.auto.variant).toBe('square');
    expect(fifty.params).toMatchObject({ layout: 'square', extraCols: 50 });
    expect(fifty.verified).toBe(true);
  });

  it('aspect=auto with extra lines given tunes rect among the factorizations that take them: the best rect the run can be', async () => {
    // Alewife, 64 nodes, 64 x 16 with 20 extra columns on each edge: rect's best split without them, 32 x 2 processors,
    // cannot take them (32 strips of 64 columns), so rect was passed over (layout=rect refused, "no variant covers") and
    // layout=auto chose the square, predicted 17,655 cycles, which runs 17,480; 4 x 16 takes them and runs 16,200.
    const run = async (layout: string) => {
      const r = await sim(['--platform', 'alewife', '--nodes', '64', 'apps/stencil', '--param', `layout=${layout}`, '--param', 'aspect=auto', '--param', 'extraCols=20', '--param', 'width=64', '--param', 'height=16', '--param', 'iters=4', '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    for (const layout of ['auto', 'rect']) {
      const j = await run(layout);
      expect(j.auto.variant).toBe('rect');
      expect(j.params).toMatchObject({ layout: 'rect', aspect: 0.25, extraCols: 20 });
      expect(j.verified).toBe(true);
      expect(j.metrics.cycles).toBeLessThan(17_480);
      expect(Math.abs(j.auto.predictedCycles / j.metrics.cycles - 1)).toBeLessThan(0.05);
      expect(j.auto.notes).toEqual(['aspect 4/16: 4 x 16 processors, the best of 2 rectangular factorizations that take extraRows=0 extraCols=20 by enumeration, each by its own model, less what its critical chain says they save', 'extraCols 20: given']);
    }
  });

  it('layout=auto with extraRows=auto tunes the square layout (the shortest critical chain)', async () => {
    const r = await sim(['--platform', 'alewife', 'apps/stencil', '--param', 'layout=auto', '--param', 'extraRows=auto', '--param', 'extraCols=auto', '--param', 'width=200', '--param', 'height=200', '--param', 'iters=2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^auto +layout=\w+ extraCols=\d+ extraRows=\d+ \(module stencil: \w+ predicted [\d,]+ cycles = [\d,.]+ us\)$/m);
    // With the layout pinned to square, the rows and columns are the tuner's advice.
    const square = await sim(['select', '--platform', 'alewife', 'stencil', '--param', 'width=200', '--param', 'height=200', '--param', 'iters=2', '--json']);
    const advice = JSON.parse(square.stdout).predictions[0].notes as string[];
    const rows = Number(/^extraRows (\d+):/.exec(advice[0])![1]);
    const pinned = await sim(['--platform', 'alewife', 'apps/stencil', '--param', 'layout=square', '--param', 'extraRows=auto', '--param', 'width=200', '--param', 'height=200', '--param', 'iters=2']);
    expect(pinned.stdout).toMatch(new RegExp(`^auto +extraRows=${rows} \\(module stencil: square predicted`, 'm'));
  });

  it('--communication factored or hybrid balances the extra lines against eq. 38 or 54, on sim select and on a run; the default is the chain', async () => {
    const base = ['--platform', 'atm', '--nodes', '64', '--param', 'width=50', '--param', 'height=50', '--param', 'iters=2'];
    const advice = async (extra: string[]) => {
      const r = await sim(['select', 'stencil', ...base, '--json', ...extra]);
      expect(r.code).toBe(0);
      const notes = JSON.parse(r.stdout).predictions[0].notes as string[];
      return { rows: Number(/^extraRows (\d+):/.exec(notes[0])![1]), note: notes[0] };
    };
    const factored = await advice(['--communication', 'factored']);
    const hybrid = await advice(['--communication', 'hybrid']);
    const chain = await advice(['--communication', 'chain']);
    expect(await advice([])).toEqual(chain);
    expect(chain.note).toMatch(/^extraRows \d+: the shortest critical chain over \[0, 21\] \(-?\d+ cycles an iteration shorter than with none\)$/);
    expect(factored.note).toMatch(/\(eqs\. 38-40: factored Communication \d+ cycles per iteration\)$/);
    expect(hybrid.note).toMatch(/\(eqs\. 54, 39-40: hybrid Communication \d+ cycles per iteration\)$/);
    // On the ATM the factored model charges a whole BlockTransfer, start-up and all, for
    // work an edge node is spared at a fraction of that (platforms/models/hybrid/README.md):
    // 6,554 cycles an iteration against the hybrid's 3,371.
    const communication = (note: string) => Number(/(\d+) cycles per iteration\)$/.exec(note)![1]);
    expect(communication(hybrid.note)).toBeLessThan(communication(factored.note));
    const run = await sim([...base, 'apps/stencil', '--param', 'layout=square', '--param', 'extraRows=auto', '--communication', 'hybrid', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).params.extraRows).toBe(hybrid.rows);
  });

  it('chooses by the chain by default on an edited platform file too, which the shipped hybrid models do not describe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-select-edited-'));
    const platform = JSON.parse(readFileSync(join(ROOT, 'platforms/atm.json'), 'utf8'));
    platform.title = `${platform.title} (edited)`;
    const text = JSON.stringify(platform);
    writeFileSync(join(dir, 'atm.json'), text);
    mkdirSync(join(dir, 'models'));
    const args = ['select', 'stencil', '--platform', join(dir, 'atm.json'), '--nodes', '64', '--models', join(dir, 'models'), '--param', 'width=50', '--param', 'height=50', '--param', 'iters=2', '--json'];
    // The shipped app models, copied, describe the shipped file: refused (they were used, silently).
    const shipped = readFileSync(join(ROOT, 'platforms/models/apps/n64/atm.json'), 'utf8');
    writeFileSync(join(dir, 'models/atm.json'), shipped);
    const stale = await sim(args);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toMatch(/models\/atm\.json was fitted on platform atm with content hash \w+, this platform file has \w+; calibrate the app models for it with sim calibrate --platform .+\/atm\.json'? apps\/calibration\/apps\.spec -o <samples> --nodes 64 --fit <dir>, then pass --models <dir>\n$/);
    expect(stale.stderr).toMatch(/ --platform .*sim-select-edited-\w+\/atm\.json'? apps\/calibration/);
    // Its own app models (here the shipped ones, fitted on this file), as after sim calibrate --fit.
    const own = JSON.parse(shipped);
    own.provenance.platformHashes.atm = createHash('sha256').update(text).digest('hex');
    writeFileSync(join(dir, 'models/atm.json'), JSON.stringify(own));
    const r = await sim(args);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).predictions[0].notes[0]).toMatch(/^extraRows \d+: the shortest critical chain over /);
    const insisted = await sim([...args, '--communication', 'hybrid']);
    expect(insisted.code).toBe(2);
    expect(insisted.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^sim: --communication hybrid: platforms\/models\/hybrid\/n64\/atm\.json was fitted on platform atm with content hash \w+, this platform file has \w+; calibrate the hybrid models for it with sim calibrate/)]);
  });
});

describe('a suggested calibrate command', () => {
  it('names a platform file in a folder with blanks and quotes so that a shell reads the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-select-quoted-'));
    const folder = join(dir, `my platforms 'q'`);
    mkdirSync(folder);
    const platform = JSON.parse(readFileSync(join(ROOT, 'platforms/atm.json'), 'utf8'));
    writeFileSync(join(folder, 'atm.json'), JSON.stringify({ ...platform, title: `${platform.title} (edited)` }));
    const r = await sim(['select', 'stencil', '--platform', join(folder, 'atm.json'), '--nodes', '64', '--models', join(ROOT, 'platforms/models/apps/n64'), '--param', 'width=50', '--param', 'height=50', '--param', 'iters=2']);
    expect(r.code).toBe(2);
    const suggested = /with (sim calibrate .*?), then pass --models/.exec(r.stderr)?.[1];
    expect(suggested).toBeDefined();
    // The words bash makes of it, placeholders such as <samples> made plain words first.
    // The path was unquoted: bash split it into "/tmp/.../my", "platforms" and "q/atm.json".
    const words = execFileSync('bash', ['-c', `set -- ${suggested!.replace(/<(\w+)>/g, '$1')}; printf '%s\\n' "$@"`], { encoding: 'utf8' }).split('\n');
    expect(words.slice(0, 5)).toEqual(['sim', 'calibrate', '--platform', join(folder, 'atm.json'), 'apps/calibration/apps.spec']);
  });
});

describe('bad input to the library gives one line and exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
  const shipped = JSON.parse(readFileSync(join(ROOT, 'platforms/models/apps/n64/cm5.json'), 'utf8'));
  writeFileSync(join(dir, 'cm5.json'), JSON.stringify({ ...shipped, models: shipped.models.filter((m: { name: string }) => m.name !== 'StencilUni') }));
  const twice = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
  const square = shipped.models.find((m: { name: string }) => m.name === 'StencilSquare');
  writeFileSync(join(twice, 'cm5.json'), JSON.stringify({ ...shipped, models: [...shipped.models, { ...square, coefficients: square.coefficients.map(() => 0) }] }));
  // App models that record no machine size (written before sizes were recorded) are taken at any.
  const anySize = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
  writeFileSync(join(anySize, 'cm5.json'), JSON.stringify({ ...shipped, provenance: { ...shipped.provenance, machineSizes: undefined } }));
  // The shipped models with every model's coefficients changed, as a hand edit or a bad fit leaves them.
  const withCoefficients = (f: (c: number, k: number) => number) => {
    const d = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
    writeFileSync(join(d, 'cm5.json'), JSON.stringify({ ...shipped, models: shipped.models.map((m: { coefficients: number[] }) => ({ ...m, coefficients: m.coefficients.map(f) })) }));
    return d;
  };
  const withTerm = (name: string) => {
    const d = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
    writeFileSync(join(d, 'cm5.json'), JSON.stringify({ ...shipped, models: shipped.models.map((m: { terms: string[]; relevant: boolean[] }) => ({ ...m, terms: ['1', name, ...m.terms.slice(2)], relevant: m.relevant.map(() => true) })) }));
    return d;
  };
  // StencilSquare's coefficients written twice, the second time all zero.
  const keyTwice = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
  writeFileSync(join(keyTwice, 'cm5.json'), JSON.stringify(shipped, null, 2).replace(/("coefficients": \[[^\]]*\],)/, (c) => `${c}\n"coefficients": [${square.coefficients.map(() => 0).join(', ')}],`));
  const withProvenance = (provenance: object) => {
    const d = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
    writeFileSync(join(d, 'cm5.json'), JSON.stringify({ ...shipped, provenance: { ...shipped.provenance, ...provenance } }));
    return d;
  };
  const withConstant = (c: number) => withCoefficients((old, k) => (k === 0 ? c : old));
  // The Paragon's app models saved as cm5.json.
  const otherPlatform = mkdtempSync(join(tmpdir(), 'sim-select-models-'));
  writeFileSync(join(otherPlatform, 'cm5.json'), readFileSync(join(ROOT, 'platforms/models/apps/n64/paragon.json')));
  // The shipped 64-node hybrid models with every coefficient negated: a Communication below 0 cycles.
  const negatedHybrid = mkdtempSync(join(tmpdir(), 'sim-select-hybrid-'));
  const hybrid = JSON.parse(readFileSync(join(ROOT, 'platforms/models/hybrid/n64/cm5.json'), 'utf8'));
  writeFileSync(join(negatedHybrid, 'cm5.json'), JSON.stringify({ ...hybrid, models: hybrid.models.map((m: { coefficients: number[] }) => ({ ...m, coefficients: m.coefficients.map((c) => -c) })) }));
  const CASES: [string, string[], RegExp][] = [
    // Square was printed as predicting "∞" (not covering the input), with "predicted benefit NaN%".
    ['models whose prediction overflows', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', withCoefficients(() => Number.MAX_VALUE)], /^sim: model StencilSquare in .*cm5\.json predicts Infinity cycles at iter=2 iter_w=128 .*; expected a finite time \(its coefficients are too large: refit it\)$/],
    // Read as Object's own function: a NaN prediction ("square  NaN  NaN" before predictions had to be finite).
    ['a model with a term named as an object property', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', withTerm('constructor')], /^sim: model StencilSquare in .*cm5\.json has a term "constructor" the library does not know \(it gives width, height, /],
    // Chosen for its negative time: "sample *  -295,887.6  -9,764,292", and a run with algorithm=auto ran it.
    ['models that predict a negative time', ['select', '--platform', 'cm5', 'sort', '--param', 'keys=1000', '--param', 'keyBits=28', '--models', withConstant(-1e7)], /^sim: module sort: variant sample is predicted -97\d{5} cycles for keys=1000 keyBits=28 by the models in platforms\/models\/cm5\.json, .*cm5\.json; expected a time of 0 or more/],
    ['auto from models that predict a negative time', ['--platform', 'cm5', 'apps/stencil', '--param', 'layout=auto', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', withConstant(-1e7)], /^sim: module stencil: variant square is predicted -9987945 cycles for width=64 height=64 iters=2 by the models in /],
    // Used as they were: the 16-node models chose rect for 64 nodes, where the 64-node ones
    // choose square. (The shipped files record their size since the models were refitted.)
    ['models fitted at another machine size', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=100', '--param', 'height=100', '--param', 'iters=2', '--nodes', '64', '--models', 'platforms/models/apps/n16'], /^sim: platforms\/models\/apps\/n16\/cm5\.json was fitted on 16 nodes only, and this is 64; calibrate the app models at 64 nodes \(sim calibrate --platform cm5 apps\/calibration\/apps\.spec -o <samples> --nodes 64 --fit <dir>\) and pass --models <dir>$/],
    ['hybrid models fitted at another machine size', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=100', '--param', 'height=100', '--param', 'iters=2', '--nodes', '16', '--communication', 'hybrid', '--hybrid-models', 'platforms/models/hybrid/n64'], /^sim: --communication hybrid: platforms\/models\/hybrid\/n64\/cm5\.json was fitted on 64 nodes only, and this is 16; calibrate the hybrid models at 16 nodes with sim calibrate --platform cm5 apps\/calibration\/hybrid\.spec/],
    // The second entry silently won (here predicting 0 cycles, and chosen).
    ['a models file that gives a model twice', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', twice], /^sim: .*cm5\.json: model StencilSquare on cm5 is given twice; expected each model once$/],
    // The newline split "has a term ... the library does not know" over two lines.
    ['a model term of two lines', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', withTerm('bad\nline')], /^sim: .*cm5\.json: not a models file as sim fit writes it \(models\.0\.terms\.1: expected one line of text, without control characters/],
    // "internal error (a bug in the simulator): TypeError: Cannot read properties of null (reading 'length')".
    ['models whose provenance gives no list of sizes', ['select', '--platform', 'cm5', 'sort', '--param', 'keys=1000', '--param', 'keyBits=28', '--models', withProvenance({ machineSizes: { cm5: null } })], /^sim: .*cm5\.json: provenance\.machineSizes\.cm5: expected a list of the machine sizes sampled \(positive integers, as sim fit writes it\), got null$/],
    // What sim fit records of hand-written samples whose "# platform" line gives no hash.
    ['models whose provenance records an empty hash', ['select', '--platform', 'cm5', 'sort', '--param', 'keys=1000', '--param', 'keyBits=28', '--models', withProvenance({ platformHashes: { cm5: '' } })], /^sim: .*cm5\.json was fitted on platform cm5 with content hash \(none recorded\), this platform file has \w+; calibrate the app models/],
    // Said to be "fitted on platform cm5 with content hash (none recorded)", which they were not: they are the Paragon's.
    ['a models file of another platform', ['select', '--platform', 'cm5', 'sort', '--param', 'keys=1000', '--param', 'keyBits=28', '--models', otherPlatform], /^sim: .*cm5\.json holds no models of platform cm5 \(its models are of paragon\); calibrate the app models for it with sim calibrate --platform cm5 apps\/calibration\/apps\.spec -o <samples> --nodes 64 --fit <dir>, then pass --models <dir>$/],
    // Its newline split the "fitted on another platform file" message in two.
    ['models whose provenance gives no hash', ['select', '--platform', 'cm5', 'sort', '--param', 'keys=1000', '--param', 'keyBits=28', '--models', withProvenance({ platformHashes: { cm5: 'bad\nline' } })], /^sim: .*cm5\.json: provenance\.platformHashes\.cm5: expected the sha256 of the platform file the models were fitted on \(64 hex digits, as sim fit writes it\), got "bad\\nline"$/],
    // JSON.parse kept the second: square predicted 0 cycles and was chosen.
    ['a models file that gives a key twice', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', keyTwice], /^sim: .*cm5\.json: key "models\.0\.coefficients" is given twice \(lines \d+ and \d+\); expected each key once$/],
    // It wrote SVG into map.png.
    ['a map named other than .svg', ['select', '--map', '--platform', 'cm5', 'stencil', '--param', 'iters=1', '-o', 'map.png'], /^sim: -o map\.png: expected a file name ending in \.svg \(the map is SVG\)$/],
    // Taken silently: the map runs nothing.
    ['a map asked to run', ['select', '--map', '--platform', 'cm5', 'stencil', '--param', 'iters=1', '-o', 'map.svg', '--run', '--seed', '3'], /^sim select --map: --run, --seed are for runs of the variants; the map predicts only \(draw it, or run without --map\)$/],
    // Taken, and the same picture drawn; --hybrid-models of a missing folder refused the map.
    ['a map given the extra lines\' options', ['select', '--map', '--platform', 'cm5', 'stencil', '--param', 'iters=1', '-o', 'map.svg', '--communication', 'hybrid', '--hybrid-models', 'nowhere'], /^sim select --map: --communication, --hybrid-models choose the square's extra rows and columns, which the map does not weigh \(it leaves the square's extra lines out, as advice nobody asked for\); leave them out$/],
    ['unknown module', ['select', '--platform', 'cm5', 'fft', '--param', 'n=4'], /^sim: unknown module fft: expected stencil or sort, or an app folder of one/],
    ['input no variant takes', ['select', '--platform', 'cm5', 'sort', '--param', 'keys=10', '--param', 'keyBits=40'], /^sim: --param keyBits=40: expected an integer from 1 to 32$/],
    ['unknown input', ['select', '--platform', 'cm5', 'stencil', '--param', 'depth=3'], /^sim: --param depth=3: module stencil has no input depth/],
    ['missing input', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=30'], /^sim select: missing --param height=<grid rows> for module stencil$/],
    ['a model file missing a variant', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--models', dir], /^sim: no model StencilUni for cm5 \(needed by variant uni\) in /],
    ['no models for the machine size', ['select', '--platform', 'atm', 'sort', '--nodes', '12', '--param', 'keys=10', '--param', 'keyBits=8'], /^sim: no app models for atm on 12 nodes.*calibrate them with sim calibrate --platform atm apps\/calibration\/apps\.spec -o <samples> --nodes 12 --fit <dir>, then pass --models <dir>$/],
    // It said to calibrate apps.spec at 8 nodes, and that command refused the spec ("input height is NaN at sample a=6 b=6 t=1").
    ['no models for a size the shipped spec cannot sample', ['select', '--platform', 'cm5', 'sort', '--nodes', '8', '--param', 'keys=10', '--param', 'keyBits=8'], /^sim: no app models for cm5 on 8 nodes \(expected platforms\/models\/apps\/n8\/cm5\.json; shipped sizes are 16, 32 and 64 nodes\), and apps\/calibration\/apps\.spec, which makes the models of every library module, cannot sample this size \(apps\/calibration\/apps\.spec:\d+: model Stencil\w+ on cm5 with 8 nodes: .*\); calibrate a spec of your own whose grids 8 nodes can split, then pass --models <dir>$/],
    // The suggestion said --platform mycm, which is no shipped platform ("unknown platform").
    ['no models for a platform file of another name', ['select', '--platform', 'test/fixtures/mycm-platform.json', 'sort', '--nodes', '16', '--param', 'keys=10', '--param', 'keyBits=8'], /^sim: no app models for mycm on 16 nodes .*calibrate them with sim calibrate --platform test\/fixtures\/mycm-platform\.json apps/],
    ['auto on an app without a module', ['--platform', 'cm5', 'apps/ping-pong', '--param', 'rounds=auto'], /^sim: rounds=auto: app apps\/ping-pong has no library module/],
    ['auto on a parameter the module does not tune', ['--platform', 'cm5', 'apps/stencil', '--param', 'iters=auto'], /^sim: iters=auto: apps\/stencil takes auto only for layout, extraRows, extraCols, aspect$/],
    // At a size without shipped models both were refused for the missing models (and a stencil model's NaN).
    ['auto on an app without a module, at a size without models', ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--param', 'rounds=auto'], /^sim: rounds=auto: app apps\/ping-pong has no library module/],
    ['auto on a parameter the module does not tune, at a size without models', ['--platform', 'cm5', '--nodes', '4', 'apps/stencil', '--param', 'width=auto'], /^sim: width=auto: apps\/stencil takes auto only for layout, extraRows, extraCols, aspect$/],
    ['an unknown communication model', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--communication', 'exact'], /^sim: --communication exact: expected chain, factored or hybrid /],
    ['hybrid models without the hybrid', ['--platform', 'cm5', 'apps/stencil', '--param', 'extraRows=auto', '--hybrid-models', dir], /^sim: --hybrid-models .*: the hybrid models are used only with --communication hybrid$/],
    ['a hybrid models directory without the platform', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--communication', 'hybrid', '--hybrid-models', mkdtempSync(join(tmpdir(), 'sim-hybrid-none-'))], /^sim: --hybrid-models .*: no cm5\.json there/],
    ['a hybrid models file without the hybrid models', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--communication', 'hybrid', '--hybrid-models', dir], /^sim: --communication hybrid: .*cm5\.json has no model StencilRowComm \(expected StencilRowComm and StencilColComm, the models of apps\/calibration\/hybrid\.spec\)$/],
    // Printed as advice: "extraRows 0: ... hybrid Communication -2131 cycles per iteration", exit 0; and a run with extraRows=auto ran on it.
    ['hybrid models whose Communication is negative', ['select', '--platform', 'cm5', 'stencil', '--nodes', '64', '--param', 'width=200', '--param', 'height=200', '--param', 'iters=2', '--communication', 'hybrid', '--hybrid-models', negatedHybrid], /^sim: model StencilRowComm in .*cm5\.json predicts -2131 cycles at factored=[\d.]+; expected a time of 0 or more \(models that predict a negative time do not fit this input: refit or recalibrate them\)$/],
    ['auto from hybrid models whose Communication is negative', ['--platform', 'cm5', 'apps/stencil', '--nodes', '64', '--param', 'layout=square', '--param', 'width=200', '--param', 'height=200', '--param', 'iters=2', '--param', 'extraRows=auto', '--communication', 'hybrid', '--hybrid-models', negatedHybrid], /^sim: model StencilRowComm in .*cm5\.json predicts -2131 cycles at factored=/],
    ['no hybrid models for the machine size', ['select', '--platform', 'cm5', 'stencil', '--nodes', '128', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--communication', 'hybrid', '--models', anySize], /^sim: --communication hybrid: no hybrid models for cm5 on 128 nodes/],
    ['auto for a tunable the layout lacks', ['--platform', 'cm5', 'apps/stencil', '--param', 'layout=vstrips', '--param', 'extraRows=auto'], /^sim: extraRows=auto: layout=vstrips has no model for extraRows/],
    // With layout=auto the square is passed over and another layout runs them (vstrips: its one band has no edge rows).
    ['extra lines given that the square cannot take, with layout=square', ['--platform', 'alewife', 'apps/stencil', '--param', 'layout=square', '--param', 'extraRows=40', '--param', 'extraCols=auto', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2'], /^sim: module stencil: no variant covers width=64 height=64 iters=2 \(square: layout square puts 8 processors down 64 rows with 40 extra on each edge; expected at least one row each\)$/],
  ];
  it('takes models fitted at the machine size asked for', async () => {
    const r = await sim(['select', '--platform', 'cm5', 'stencil', '--param', 'width=100', '--param', 'height=100', '--param', 'iters=2', '--nodes', '16', '--models', 'platforms/models/apps/n16']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it.each(CASES)('%s', async (_name, args, message) => {
    const r = await sim(args);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});

describe('sim select --all stopped by SIGINT', () => {
  // It was killed by the signal and printed nothing: the predictions and what it had measured were lost.
  it('prints the predictions and what it measured, says where it stopped, and exits 130', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'select', '--platform', 'cm5', 'stencil', '--param', 'width=1024', '--param', 'height=1024', '--param', 'iters=20', '--all'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The five variants take tens of seconds (the uniprocessor alone 649 million cycles).
    await new Promise((r) => setTimeout(r, 2000));
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr).toMatch(/^sim select: stopped by SIGINT after measuring [0-4] of 5 variants; the predictions and what was measured follow\n$/);
    expect(stdout).toMatch(/^choice {5}square: /m);
    expect(stdout).not.toMatch(/^fastest/m);
  }, 60_000);
});
