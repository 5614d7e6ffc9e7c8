import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

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

  it.each([
    ['a missing column', '# platform cm5 x\n# model ClearMemory length\nClearMemory 70\n', /bad\.samples:3: ClearMemory has 1 columns \(length\) but this line has 0 values after the time$/],
    ['a model without structure', '# platform cm5 x\nClearMemory 70 1\n', /bad\.samples:2: samples for model ClearMemory without its structure line/],
    ['no models at all', '# nothing\n', /bad\.samples: no models/],
  ])('refuses %s with one line, exit 2 and no output', async (_what, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-'));
    writeFileSync(join(dir, 'bad.samples'), text);
    const r = await sim(['fit', join(dir, 'bad.samples'), '-o', join(dir, 'm.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(existsSync(join(dir, 'm.json'))).toBe(false);
  });
});
