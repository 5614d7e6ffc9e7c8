import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

/** A samples file of one model with `columns` columns and `samples` samples whose times do not depend on them (fixed pseudo-random values). */
function wideSamples(columns: number, samples: number): string {
  const names = Array.from({ length: columns }, (_, k) => `c${k}`);
  const rows = Array.from({ length: samples }, (_, i) => `Wide ${1000 + ((i * 31) % 50)} ${names.map((_, k) => ((i + 1) * (k + 3) * 7919) % 1000).join(' ')}`);
  return ['# platform cm5 x', `# model Wide ${names.join(' ')}`, ...rows, ''].join('\n');
}

describe.concurrent('sim fit', () => {
  it('fits calibrated samples into models, a generated module and residuals (ClearMemory lands on Fig. 6-6)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    const spec = join(dir, 'small.spec');
    writeFileSync(spec, '{{ i 0 12 ++ @ @ ClearMemory(length) @ @ length:1<<i @ }}\n{{ r 1 3 ++ @ Barrier() @ SendRPC() @ Barrier() @ @ }}\n');
    const samples = join(dir, 'small.samples');
    expect((await sim(['calibrate', '--platform', 'cm5', spec, '-o', samples, '--nodes', '4', '--vcount', '8'])).code).toBe(0);
    const models = join(dir, 'models.json');
    const r = await sim(['fit', samples, '--relative', '-o', models]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cm5 ClearMemory: [\d.]+ \+ [\d.]+\*length {2}R\^2 1\.0000, MRE [\d.]+% building, [\d.]+% verification$/m);
    const json = JSON.parse(readFileSync(models, 'utf8'));
    const clear = json.models.find((m: { name: string }) => m.name === 'ClearMemory');
    expect(Math.abs(clear.coefficients[0] / 69.28 - 1)).toBeLessThan(0.02);
    expect(Math.abs(clear.coefficients[1] / 1.005 - 1)).toBeLessThan(0.02);
    expect(clear.mreVerificationPercent).toBeLessThan(5);
    expect(json.provenance.relativeError).toBe(true);
    const generated = await import(pathToFileURL(join(dir, 'models.ts')).href);
    expect(generated.cm5_ClearMemory(4096)).toBeCloseTo(clear.coefficients[0] + clear.coefficients[1] * 4096, 6);
    expect(generated.cm5_SendRPC()).toBeCloseTo(43, 9);
    expect(existsSync(join(dir, 'models.residuals'))).toBe(true);
    // "platform model measured predicted residual", one per building sample: the prediction is the model's, measured - predicted the residual.
    const residuals = readFileSync(join(dir, 'models.residuals'), 'utf8').trim().split('\n').filter((l) => l.startsWith('cm5 ClearMemory '));
    expect(residuals).toHaveLength(13);
    for (const line of residuals) {
      const [measured, predicted, residual] = line.split(' ').slice(2).map(Number);
      expect(predicted).toBeCloseTo(generated.cm5_ClearMemory(2 ** residuals.indexOf(line)), 2);
      expect(measured - predicted).toBeCloseTo(residual, 2);
    }
  });

  it('over several machine sizes keeps log P terms for the combining trees and prunes them on the CM-5 (Fig. 6-6)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    const spec = join(dir, 'cv.spec');
    writeFileSync(spec, '{{ i 0 6 ++ @ Barrier() @ CombineVector(length) @ @ length:1<<i @ logP:logP, lengthLogP:length*logP }}\n');
    const samples = join(dir, 'cv.samples');
    const c = await sim(['calibrate', '--platform', 'cm5', spec, '-o', samples, '--nodes', '4,8,16,32', '--vcount', '6']);
    expect(c.code).toBe(0);
    const alewife = join(dir, 'cv-alewife.samples');
    expect((await sim(['calibrate', '--platform', 'alewife', spec, '-o', alewife, '--nodes', '4,9,16,36', '--vcount', '6'])).code).toBe(0);
    for (const [file, platform] of [[samples, 'cm5'], [alewife, 'alewife']]) {
      const r = await sim(['fit', file, '--relative', '-o', join(dir, `${platform}.json`)]);
      expect(r.code).toBe(0);
      const m = JSON.parse(readFileSync(join(dir, `${platform}.json`), 'utf8')).models[0];
      const kept = m.terms.filter((_: string, k: number) => m.relevant[k]);
      if (platform === 'cm5') expect(kept.some((t: string) => t.includes('logP') || t.includes('LogP'))).toBe(false);
      else expect(kept.some((t: string) => t.includes('logP') || t.includes('LogP'))).toBe(true);
    }
  });

  it('takes specs as a TypeScript module too, and prunes a deliberately irrelevant term', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    const samples = join(dir, 'ts.samples');
    const c = await sim(['calibrate', '--platform', 'paragon', 'test/fixtures/specs.ts', '-o', samples, '--nodes', '4', '--vcount', '5']);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    expect(readFileSync(samples, 'utf8')).toMatch(/^# model ClearMemory length junk$/m);
    const r = await sim(['fit', samples, '--relative', '-o', join(dir, 'ts.json')]);
    expect(r.code).toBe(0);
    const m = JSON.parse(readFileSync(join(dir, 'ts.json'), 'utf8')).models[0];
    expect(m.relevant).toEqual([true, true, false]);
  });

  it('with --noise, the median of three timings gives the same samples as the exact clock (Fig. 3-6)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    const spec = join(dir, 'cm.spec');
    writeFileSync(spec, '{{ i 8 14 ++ @ @ ClearMemory(length) @ @ length:1<<i @ }}\n');
    await sim(['calibrate', '--platform', 'cm5', spec, '-o', join(dir, 'exact.samples'), '--nodes', '4', '--vcount', '20']);
    const noisy = await sim(['calibrate', '--platform', 'cm5', spec, '-o', join(dir, 'noisy.samples'), '--nodes', '4', '--vcount', '20', '--noise']);
    expect(noisy.code).toBe(0);
    const body = (f: string) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => !l.startsWith('# seed')).join('\n');
    expect(readFileSync(join(dir, 'noisy.samples'), 'utf8')).toMatch(/^# seed 1 nodes 4 vcount 20 noise: timer interrupts and time slices, median of three$/m);
    expect(body('noisy.samples')).toBe(body('exact.samples'));
  });

  it("writes a model's name into the generated module's comments as text: a name that closed the comment put its code in the module", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    // The shipped StencilSquare samples (a real calibration), the model renamed.
    const lines = readFileSync(join(ROOT, 'platforms/models/apps/n16/cm5.samples'), 'utf8').split('\n');
    const end = lines.findIndex((l, k) => k > 6 && l.startsWith('#'));
    const evil = 'Evil*/globalThis.pwnedBySamples=1;/*';
    const renamed = [...lines.slice(0, 6), lines[6].replace('StencilSquare', evil), ...lines.slice(7, end).map((l) => l.replace('StencilSquare', evil))];
    writeFileSync(join(dir, 'evil.samples'), `${renamed.join('\n')}\n# end: 1 units, ${end - 7} samples\n`);
    const r = await sim(['fit', join(dir, 'evil.samples'), '-o', join(dir, 'm.json')]);
    expect(r.code).toBe(0);
    const module = readFileSync(join(dir, 'm.ts'), 'utf8');
    expect(module).toContain('/** Evil*\\/globalThis.pwnedBySamples=1;/* on cm5: ');
    const generated = await import(pathToFileURL(join(dir, 'm.ts')).href);
    expect((globalThis as { pwnedBySamples?: number }).pwnedBySamples).toBeUndefined();
    expect(typeof generated.cm5_Evil__globalThis_pwnedBySamples_1___).toBe('function');
  });

  it('writes none of its three files when one cannot be written (a folder named m.ts left m.json written, exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    mkdirSync(join(dir, 'm.ts'));
    const r = await sim(['fit', join(ROOT, 'platforms/models/apps/n16/cm5.samples'), '-o', join(dir, 'm.json')]);
    expect(r.stderr).toBe(`sim: -o (its module) ${join(dir, 'm.ts')}: is a folder; expected a file name\n`);
    expect(r.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['m.ts']);
  });

  it("names at most eight of a model's 61 columns (a real samples file, edited): the refusals listed them all on their one line (3,000 columns made 20 kB, which the 64-column limit now refuses first)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    const lines = readFileSync(join(ROOT, 'platforms/models/apps/n16/cm5.samples'), 'utf8').split('\n');
    const extra = Array.from({ length: 50 }, (_, k) => `c${k}`);
    // StencilSquare's structure line names 50 more columns; its samples do not give them.
    lines[6] += ` ${extra.join(' ')}`;
    writeFileSync(join(dir, 'wide.samples'), lines.join('\n'));
    const wide = await sim(['fit', join(dir, 'wide.samples'), '-o', join(dir, 'm.json')]);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toMatch(/^sim: .*wide\.samples:8: StencilSquare has 61 columns \(width height iter wh iter_w iter_h iter_wh iter_colPackets \.\.\. \(53 more\)\) but this line has 11 values after the time\n$/);
    // Its first four samples, each given a 0 for every further column: 4 samples for 62 unknowns.
    writeFileSync(join(dir, 'few.samples'), [...lines.slice(0, 7), ...lines.slice(7, 11).map((l) => `${l}${' 0'.repeat(50)}`), '# end: 1 units, 4 samples', ''].join('\n'));
    const few = await sim(['fit', join(dir, 'few.samples'), '-o', join(dir, 'm.json')]);
    expect(few.code).toBe(2);
    expect(few.stderr).toMatch(/^sim: .*few\.samples: model StencilSquare on cm5: 4 building samples for 62 unknowns \(the constant and width, height, iter, wh, iter_w, iter_h, iter_wh, iter_colPackets, \.\.\. \(53 more\)\); expected at least 63, so the fit has a degree of freedom to judge its terms by\n$/);
    expect(existsSync(join(dir, 'm.json'))).toBe(false);
    // Eight columns are named whole (StencilUni's seven and one more), not as eight and "... (0 more)".
    const eight = readFileSync(join(ROOT, 'platforms/models/apps/n16/cm5.samples'), 'utf8').split('\n');
    const uni = eight.findIndex((l) => l.startsWith('# model StencilUni '));
    eight[uni] += ' c0';
    writeFileSync(join(dir, 'eight.samples'), eight.join('\n'));
    const named = await sim(['fit', join(dir, 'eight.samples'), '-o', join(dir, 'm.json')]);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(`sim: ${join(dir, 'eight.samples')}:${uni + 2}: StencilUni has 8 columns (width height iter wh iter_w iter_h iter_wh c0) but this line has 7 values after the time\n`);
  });

  it.each([
    ['a missing column', '# platform cm5 x\n# model ClearMemory length\nClearMemory 70\n', /bad\.samples:3: ClearMemory has 1 columns \(length\) but this line has 0 values after the time$/],
    ['a model without structure', '# platform cm5 x\nClearMemory 70 1\n', /bad\.samples:2: samples for model ClearMemory without its structure line/],
    // Fitted for a platform named '' (" ClearMemory: 10.1333*length ..."), which no selection finds.
    ['a model without a platform line', '# model ClearMemory length\nClearMemory 10 1\nClearMemory 20 2\nClearMemory 30 3\n', /bad\.samples:1: model ClearMemory comes before any "# platform <name>" line; expected one naming the platform its samples were taken on \(sim calibrate writes "# platform <name> <hash> nodes <P>" before each model\)$/],
    ['no models at all', '# nothing\n', /bad\.samples: no models/],
    [
      "a sweep's results, whose header named a model (session 26)",
      '{"format":1,"runs":1,"simulator":"0.1.0","sweep":"a","sweepSha256":"7fbd"}\n{"i":0}\n',
      /bad\.samples: not a samples file: it holds the results of a sweep \(sim sweep writes them; sim sweep export --format csv tabulates them\); expected the text sim calibrate writes/,
    ],
    ['other JSON', '{"a": 1}\n', /bad\.samples: not a samples file: it is JSON; expected the text sim calibrate writes \("# proteus-strata calibration samples, version 2" \.\.\.\)$/],
    // It said "it is JSON".
    ['a model specification', '{{ i 1 4 ++ @ @ ClearMemory(i) @ @ length:i @ }}\n', /bad\.samples: not a samples file: it is a model specification \(sim calibrate samples it; sim fit fits the samples that writes\); expected the text sim calibrate writes/],
    // Printed as it was in sim fit's summary: "cm5 Foo" and a terminal turned red.
    ['a model name with an escape', '# platform cm5 x\n# model Foo\u001b[31m a\nFoo\u001b[31m 10 1\nFoo\u001b[31m 12 2\nFoo\u001b[31m 14 3\nFoo\u001b[31m 17 4\n', /bad\.samples:2: the name "Foo\\u001b\[31m" has control characters \(a newline, a tab, an escape\), line separators or direction overrides; expected names without them$/],
    // Fitted as a variable, then evaluated by sim select as the constant (a fitted model's term 1), its values ignored.
    ['a column named as the constant', '# platform cm5 x\n# model Foo 1\nFoo 10 1\nFoo 12 2\nFoo 14 3\n', /bad\.samples:2: model Foo has a column named 1, the name of every model's constant; expected another name$/],
    ['fewer samples than unknowns (edges case 132)', '# platform cm5 x\n# model Foo a\nFoo 10 1\n', /bad\.samples: model Foo on cm5: 1 building sample for 2 unknowns \(the constant and a\); expected at least 3/],
    ['as many samples as unknowns', '# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo 12 2\n', /2 building samples for 2 unknowns/],
    ['samples all at one point (case 131)', '# platform cm5 x\n# model Foo a b\nFoo 10 1 1\nFoo 10 1 1\nFoo 10 1 1\nFoo 10 1 1\n', /model Foo on cm5: every building sample has the same inputs \(a=1 b=1\), so no term's coefficient can be told from the constant's/],
    ['a negative cycle count (case 130)', '# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo -5 2\nFoo 30 3\n', /bad\.samples:4: Foo takes -5 cycles; expected a cycle count of 0 or more$/],
    ['values beyond 2^53 (case 133)', '# platform cm5 x\n# model Foo a\nFoo 1e308 1\nFoo 1e308 2\nFoo 1e308 3\n', /bad\.samples:3: expected values of magnitude at most 2\^53 - 1/],
    // 2^53 itself was refused as past "at most 2^53".
    ['a value of 2^53', '# platform cm5 x\n# model Foo a\nFoo 9007199254740992 1\nFoo 1 2\nFoo 1 3\n', /bad\.samples:3: expected values of magnitude at most 2\^53 - 1 \(exact cycle counts and terms\), got "9007199254740992 1"$/],
    ['NaN', '# platform cm5 x\n# model Foo a\nFoo NaN 1\n', /bad\.samples:3: expected decimal numbers after Foo, got "NaN 1"$/],
    ['Infinity', '# platform cm5 x\n# model Foo a\nFoo 10 Infinity\n', /bad\.samples:3: expected decimal numbers after Foo, got "10 Infinity"$/],
    // Read as 70 and 5.
    ['hex and binary numbers', '# platform cm5 x\n# model Foo a\nFoo 0x46 0b101\n', /bad\.samples:3: expected decimal numbers after Foo, got "0x46 0b101"$/],
    ['zero times with --relative (case 135)', '# platform cm5 x\n# model Foo a\nFoo 0 1\nFoo 0 2\nFoo 0 3\n', /model Foo on cm5: 3 building samples of 0 cycles, which --relative cannot weight/],
    ['a calibrated file cut short (case 124)', '# proteus-strata calibration samples, version 2\n# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n', /bad\.samples: truncated: it ends at line 6 without the end line \("# end: U units, S samples"\) sim calibrate writes last/],
    ['an end line that miscounts', '# proteus-strata calibration samples, version 2\n# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n# end: 1 unit, 4 samples\n', /corrupt: the end line counts 1 units and 4 samples, the file holds 1 and 3$/],
    ['a calibrated file cut mid-line', '# proteus-strata calibration samples, version 2\n# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo 12 2\nFo', /bad\.samples: truncated: it ends at line 6 without the end line/],
    ['lines after the end line', '# proteus-strata calibration samples, version 2\n# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo 12 2\n# end: 1 unit, 2 samples\nFoo 14 3\n', /bad\.samples:7: more after the end line \(line 6\)/],
    ['a later version', '# proteus-strata calibration samples, version 3\n', /samples file version 3; this simulator reads versions 1 to 2$/],
    // A note written above the header turned off the version and truncation checks.
    ['a later version under a note', '# my note\n# proteus-strata calibration samples, version 3\n', /samples file version 3; this simulator reads versions 1 to 2$/],
    ['a file cut short under a note', '# my note\n# proteus-strata calibration samples, version 2\n# platform cm5 x\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n', /bad\.samples: truncated: it ends at line 7 without the end line/],
    ['version 0', '# proteus-strata calibration samples, version 0\n', /samples file version 0; this simulator reads versions 1 to 2$/],
    // Pooled into one fit of both machines, the models' provenance naming the first file only.
    [
      'samples of two platform files of one name',
      `# platform cm5 ${'a'.repeat(64)} nodes 4\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n# platform cm5 ${'b'.repeat(64)} nodes 4\n# model Foo a\nFoo 20 1\nFoo 24 2\nFoo 28 3\n`,
      /bad\.samples:6: platform cm5 with content hash b{64}, but line 1 gives a{64}; expected the samples of one platform file per platform name/,
    ],
    // 320 samples of 300 columns that explain nothing: the fit removed them one solve at a time for more than 5 minutes.
    ['a model of 300 columns', wideSamples(300, 320), /bad\.samples:2: model Wide has 300 columns; expected at most 64 \(a fit removes irrelevant terms one at a time/],
  ])('refuses %s with one line, exit 2 and no output', async (_what, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    writeFileSync(join(dir, 'bad.samples'), text);
    const r = await sim(['fit', join(dir, 'bad.samples'), '--relative', '-o', join(dir, 'm.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(existsSync(join(dir, 'm.json'))).toBe(false);
  });

  it('fits zero times with absolute error, leaving them out of the MRE (edges case 134), and a whole calibrated file ends with its end line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    writeFileSync(join(dir, 'z.samples'), '# platform cm5 x\n# model Foo a\nFoo 0 0\nFoo 2 1\nFoo 4 2\nFoo 6 3\n');
    const r = await sim(['fit', join(dir, 'z.samples'), '-o', join(dir, 'z.json')]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^cm5 Foo: 2\*a {2}R\^2 1\.0000, MRE 0\.00% building, no verification samples$/m);
    const spec = join(dir, 's.spec');
    writeFileSync(spec, '{{ i 0 4 ++ @ @ ClearMemory(length) @ @ length:1<<i @ }}\n{{ r 1 3 ++ @ Barrier() @ SendRPC() @ Barrier() @ @ }}\n');
    await sim(['calibrate', '--platform', 'cm5', spec, '-o', join(dir, 's.samples'), '--nodes', '4', '--vcount', '3']);
    const text = readFileSync(join(dir, 's.samples'), 'utf8');
    expect(text).toMatch(/^# proteus-strata calibration samples, version 2\n/);
    expect(text).toMatch(/\n# end: 2 units, 14 samples\n$/);
  });
});
