import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitModel, mrePercent, predict, type Sample } from '../../src/calibrate/fit.ts';
import { fitSamples, modelsModule, summaryLine, verificationWarning, type FittedModel } from '../../src/calibrate/models.ts';
import { fig66Report } from '../../src/calibrate/fig-6-6.ts';
import { noisyTime } from '../../src/calibrate/samples.ts';
import { RandomStream } from '../../src/kernel/random-stream.ts';
import { ROOT } from '../support/sim-cli.ts';

function grid(f: (a: number, b: number) => number, noise: (y: number) => number = (y) => y): Sample[] {
  const out: Sample[] = [];
  for (let a = 1; a <= 64; a *= 2) for (let b = 0; b < 6; b++) out.push({ x: [a, b], y: noise(f(a, b)) });
  return out;
}

describe('the model fitter (thesis 3.6.2, Fig. 3-9)', () => {
  it('recovers known coefficients exactly without noise', () => {
    const fit = fitModel(['a', 'b'], grid((a, b) => 5 + 3 * a + 0.5 * b), false);
    expect(fit.terms).toEqual(['1', 'a', 'b']);
    fit.coefficients.forEach((c, k) => expect(c).toBeCloseTo([5, 3, 0.5][k], 9));
    expect(fit.relevant).toEqual([true, true, true]);
    expect(fit.rSquared).toBeCloseTo(1, 12);
    expect(fit.mrePercent).toBeCloseTo(0, 9);
  });

  it("reports R^2 as 1 - SS_res / SS_tot on the times, below 0 for a relative-error constant (its constant is not the mean)", () => {
    const samples = [{ y: 10, x: [] }, { y: 100, x: [] }];
    const absolute = fitModel([], samples, false);
    expect(absolute.coefficients[0]).toBeCloseTo(55, 9);
    expect(Math.abs(absolute.rSquared)).toBeLessThan(1e-12);
    // Relative error (eq. 26) weights each time by y / mean: the constant is sum(1/y) / sum(1/y^2).
    const relative = fitModel([], samples, true);
    const c = (1 / 10 + 1 / 100) / (1 / 10 ** 2 + 1 / 100 ** 2);
    expect(relative.coefficients[0]).toBeCloseTo(c, 9);
    expect(relative.rSquared).toBeCloseTo(1 - ((10 - c) ** 2 + (100 - c) ** 2) / (45 ** 2 + 45 ** 2), 12);
    expect(relative.rSquared).toBeCloseTo(-0.9608, 4);
  });

  it('prunes a term whose true coefficient is zero once there is noise, keeping the rest', () => {
    const random = new RandomStream(7, 'fit-test');
    const fit = fitModel(['a', 'b'], grid((a) => 100 + 2 * a, (y) => y + (random.float() - 0.5) * 4), false);
    expect(fit.relevant).toEqual([true, true, false]);
    expect(fit.coefficients[2]).toBe(0);
    expect(fit.coefficients[1]).toBeCloseTo(2, 1);
    expect(Math.abs(fit.coefficients[1] - 2)).toBeLessThan(fit.halfWidths[1]);
  });

  it('reports R^2 1 for times that do not vary, which the constant fits exactly', () => {
    const fit = fitModel(['x'], [1, 2, 3, 4].map((x) => ({ x: [x], y: 70 })), false);
    expect(fit.coefficients[0]).toBeCloseTo(70, 9);
    expect(fit.rSquared).toBe(1);
    expect(fit.mrePercent).toBeCloseTo(0, 9);
  });

  it('gives an exact or underdetermined fit half-widths of Infinity: no degree of freedom bounds its coefficients (they were NaN)', () => {
    const exact = fitModel(['x'], [{ x: [1], y: 12 }, { x: [2], y: 14 }], false);
    expect(exact.coefficients[0]).toBeCloseTo(10, 9);
    expect(exact.coefficients[1]).toBeCloseTo(2, 9);
    expect(exact.halfWidths).toEqual([Infinity, Infinity]);
    const under = fitModel(['x'], [{ x: [1], y: 10 }], false);
    expect(under.halfWidths).toEqual([Infinity, Infinity]);
  });

  it("gives eq. 28's 95% half-widths: a straight line's, as the textbook computes them with n - 2 degrees of freedom", () => {
    const xs = [0, 1, 2, 3, 4, 5];
    const ys = [2.1, 2.9, 5.2, 6.8, 9.1, 10.7];
    const fit = fitModel(['x'], xs.map((x, i) => ({ x: [x], y: ys[i] })), false);
    const n = xs.length;
    const xbar = xs.reduce((a, b) => a + b) / n;
    const ybar = ys.reduce((a, b) => a + b) / n;
    const sxx = xs.reduce((a, x) => a + (x - xbar) ** 2, 0);
    const slope = xs.reduce((a, x, i) => a + (x - xbar) * (ys[i] - ybar), 0) / sxx;
    const intercept = ybar - slope * xbar;
    const s2 = xs.reduce((a, x, i) => a + (ys[i] - intercept - slope * x) ** 2, 0) / (n - 2);
    const t = 2.7764451051977987; // Student's t, 0.975 quantile, 4 degrees of freedom (tables: 2.776)
    expect(fit.relevant).toEqual([true, true]);
    expect(fit.coefficients[0]).toBeCloseTo(intercept, 9);
    expect(fit.coefficients[1]).toBeCloseTo(slope, 9);
    expect(fit.halfWidths[1]).toBeCloseTo(t * Math.sqrt(s2 / sxx), 6);
    expect(fit.halfWidths[0]).toBeCloseTo(t * Math.sqrt(s2 * (1 / n + xbar ** 2 / sxx)), 6);
  });

  it('keeps a term whose interval excludes zero however narrowly (eq. 30: |beta / h| above 1), and drops one whose does not', () => {
    const xs = [0, 1, 2, 3, 4, 5];
    const fitOf = (ys: number[]) => fitModel(['x'], xs.map((x, i) => ({ x: [x], y: ys[i] })), false);
    // Slope 0.714 +- 0.458 (textbook, t = 2.776 at 4 degrees of freedom): |beta / h| = 1.56, kept.
    const kept = fitOf([10, 11, 11, 13, 12, 14]);
    expect(kept.relevant).toEqual([true, true]);
    expect(kept.coefficients[1]).toBeCloseTo(5 / 7, 9);
    // Slope 0.657 +- 0.762: |beta / h| = 0.86, dropped, leaving the mean.
    const dropped = fitOf([10, 12, 10, 13, 12, 14]);
    expect(dropped.relevant).toEqual([true, false]);
    expect(dropped.coefficients[0]).toBeCloseTo(71 / 6, 9);
  });

  it("with relative error, judges the terms by the weighted residuals (eq. 27): a constant's half-width as weighted least squares gives it", () => {
    const ys = [100, 110, 95, 400, 380, 420];
    const fit = fitModel([], ys.map((y) => ({ x: [], y })), true);
    const m = ys.reduce((a, b) => a + b) / ys.length;
    const w = ys.map((y) => y / m);
    const sw = w.reduce((a, x) => a + 1 / x ** 2, 0);
    const c = ys.reduce((a, y, i) => a + y / w[i] ** 2, 0) / sw;
    const chi2 = ys.reduce((a, y, i) => a + ((y - c) / w[i]) ** 2, 0);
    const t = 2.5705818366147395; // Student's t, 0.975 quantile, 5 degrees of freedom
    expect(fit.coefficients[0]).toBeCloseTo(c, 9);
    expect(fit.halfWidths[0]).toBeCloseTo(t * Math.sqrt(chi2 / 5 / sw), 6);
  });

  it('prunes a term that contributes nothing even to an exact fit (the simulator has no timing noise)', () => {
    const fit = fitModel(['length', 'junk'], [1, 2, 4, 8, 16].flatMap((len) => [0, 1, 2].map((j) => ({ x: [len, j], y: 69 + len }))), true);
    expect(fit.relevant).toEqual([true, true, false]);
    expect(fit.coefficients[1]).toBeCloseTo(1, 9);
  });

  it("keeps a small term beside a term of 10^12: the singular-value cut-off judges directions, not the terms' units", () => {
    // y = 1000 + 0.001 x^3 +- 10 for x = 1000 .. 20000: x^3 reaches 8 x 10^12. Unscaled, the
    // constant's singular value fell below 10^-10 of x^3's, the constant was zeroed and then
    // dropped as irrelevant, though its 95% interval is about +-10.
    const samples = Array.from({ length: 20 }, (_, i) => {
      const x = 1000 * (i + 1);
      return { x: [x ** 3], y: 1000 + 0.001 * x ** 3 + ((i % 3) - 1) * 10 };
    });
    const fit = fitModel(['x^3'], samples, false);
    expect(fit.relevant).toEqual([true, true]);
    expect(Math.abs(fit.coefficients[0] - 1000)).toBeLessThan(fit.halfWidths[0]);
    expect(fit.halfWidths[0]).toBeLessThan(20);
    expect(fit.coefficients[1]).toBeCloseTo(0.001, 12);
    // The same fit in other units (x^3 / 10^9) gives the same prediction.
    const rescaled = fitModel(['x^3 / 1e9'], samples.map((s) => ({ x: [s.x[0] / 1e9], y: s.y })), false);
    expect(rescaled.coefficients[0]).toBeCloseTo(fit.coefficients[0], 6);
    expect(rescaled.coefficients[1] / 1e9).toBeCloseTo(fit.coefficients[1], 15);
  });

  it('splits the weight of a duplicated basis function, the total matching one copy', () => {
    const samples = [1, 2, 4, 8, 16, 32].map((len) => ({ x: [len, len], y: 10 + 4 * len }));
    const fit = fitModel(['len', 'len again'], samples, false);
    expect(fit.coefficients[1]).toBeCloseTo(2, 9);
    expect(fit.coefficients[2]).toBeCloseTo(2, 9);
    expect(fit.coefficients[1] + fit.coefficients[2]).toBeCloseTo(fitModel(['len'], samples.map((s) => ({ x: [s.x[0]], y: s.y })), false).coefficients[1], 9);
  });

  it('with relative error, weights y / mean(y): equal measurements fit as with absolute error, and wide ranges get a lower MRE', () => {
    const flat = [1, 2, 3, 4, 5].map((x) => ({ x: [x], y: 50 + (x % 2) }));
    const abs = fitModel(['x'], flat, false);
    const rel = fitModel(['x'], flat, true);
    // Nearly equal ys give weights near 1 (eq. 27), so nearly the same fit.
    expect(rel.coefficients[0]).toBeCloseTo(abs.coefficients[0], 1);
    // Multiplicative noise over three decades: relative weights track it.
    const random = new RandomStream(3, 'fit-relative');
    const wide = Array.from({ length: 40 }, (_, i) => {
      const len = 2 ** (i % 10);
      return { x: [len], y: (20 + 7 * len) * (1 + (random.float() - 0.5) * 0.1) };
    });
    const wideAbs = fitModel(['len'], wide, false);
    const wideRel = fitModel(['len'], wide, true);
    expect(wideRel.mrePercent).toBeLessThan(wideAbs.mrePercent);
    expect(wideRel.coefficients[0]).toBeCloseTo(20, -1);
  });

  it('computes the MRE of eq. 10 as the geometric mean of 1 + |error / y|', () => {
    expect(mrePercent([100, 100], [110, 90])).toBeCloseTo(10, 9);
    expect(mrePercent([10, 40], [10, 40])).toBe(0);
    // A time of 0 has no relative error: it is left out, not a NaN.
    expect(mrePercent([0, 100], [3, 110])).toBeCloseTo(10, 9);
    expect(mrePercent([0, 0], [1, 2])).toBe(0);
    expect(predict([1, 2, 3], [10, 100])).toBe(321);
  });
});

describe('the summary line sim fit prints', () => {
  it('fits a model with more samples than a call takes arguments (200,000)', () => {
    // The relevance check once took Math.max(...) over every sample and threw a RangeError.
    const samples = Array.from({ length: 200_000 }, (_, i) => ({ x: [i % 1000], y: 7 + 2 * (i % 1000) }));
    const fit = fitModel(['len'], samples, false);
    expect(fit.relevant).toEqual([true, true]);
    fit.coefficients.forEach((c, k) => expect(c).toBeCloseTo([7, 2][k], 6));
  });

  it('never reads "R^2 -0.0000" for an R^2 a rounding error below zero', () => {
    const m: FittedModel = {
      platform: 'cm5', name: 'Foo', terms: ['1', 'a'], coefficients: [5, 0], halfWidths: [1, 0], relevant: [true, false],
      rSquared: -2e-7, mreBuildingPercent: 1, mreVerificationPercent: null, samples: 5, verificationSamples: 0,
    };
    expect(summaryLine(m)).toBe('cm5 Foo: 5  R^2 0.0000, MRE 1.00% building, no verification samples');
    expect(summaryLine({ ...m, rSquared: -0.25 })).toContain('R^2 -0.2500');
  });

  it('warns of a model that misses its verification samples by more than 10% (3.6.3), and only then', () => {
    const m: FittedModel = {
      platform: 'cm5', name: 'Foo', terms: ['1'], coefficients: [5], halfWidths: [1], relevant: [true],
      rSquared: 1, mreBuildingPercent: 1, mreVerificationPercent: 10.5, samples: 5, verificationSamples: 3,
    };
    expect(verificationWarning(m)).toBe('warning: cm5 Foo misses its verification samples by 10.5% (more than 10%)');
    expect(verificationWarning({ ...m, mreVerificationPercent: 10 })).toBeNull();
    expect(verificationWarning({ ...m, mreVerificationPercent: null })).toBeNull();
  });
});

describe('the measurement-noise model (thesis 3.4, Fig. 3-6)', () => {
  it('adds a 30 us timer interrupt to about t / (1/60 s) of timings and a time slice to about t / 0.1 s', () => {
    const random = new RandomStream(11, 'noise-test');
    const t = 16500; // ClearMemory of 16 KB on the CM-5, about half a millisecond
    let interrupted = 0;
    let sliced = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const extra = noisyTime(t, 33, random) - t;
      if (extra % (33e6 / 10) === 990) interrupted++; // one interrupt, with or without a slice
      if (extra >= 33e6 / 10) sliced++;
    }
    expect(interrupted / n).toBeCloseTo(t / (33e6 / 60), 2);
    expect(sliced / n).toBeCloseTo(t / (33e6 / 10), 2);
  });

  it('adds no timer interrupt on a platform whose nodes take their own (the timing holds them already), only the time slice', () => {
    const random = new RandomStream(11, 'noise-test');
    const extras = new Set<number>();
    for (let i = 0; i < 5000; i++) extras.add(noisyTime(200_000, 33, random, true) - 200_000);
    // 200,000 cycles would hold an interrupt (every 550,000) about a third of the time: none is added.
    expect([...extras].sort((a, b) => a - b)).toEqual([0, 33e6 / 10]);
  });
});

describe('fitSamples', () => {
  it('records the machine sizes each platform was sampled on, from the samples file', () => {
    const unit = (nodes: number) => `# platform cm5 h nodes ${nodes}\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\nFoo 16 4\n`;
    expect(fitSamples(unit(32) + unit(16) + unit(64), 's', false).machineSizes).toEqual({ cm5: [16, 32, 64] });
    // A unit given twice had its samples fitted twice (27 samples of 18, half-widths shrunk as if there were more data).
    expect(() => fitSamples(unit(32) + unit(16) + unit(32), 's', false)).toThrow(/^s:14: model Foo on cm5 at 32 nodes again \(first at line 2\); expected each unit once \(its samples would be fitted twice\)$/);
    expect(() => fitSamples('# platform cm5\n# model Foo a\nFoo 10 1\nFoo 12 2\n# model Foo a\nFoo 14 3\n', 's', false)).toThrow(/^s:5: model Foo on cm5 again \(first at line 2\)/);
    // A file whose platform lines name no size (hand-made samples) records none.
    expect(fitSamples('# platform cm5\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n', 's', false).machineSizes).toEqual({ cm5: [] });
  });

  it('reads a platform line written by hand with a size and no hash ("nodes" was taken for the hash, and the size lost)', () => {
    const fitted = fitSamples('# platform cm5 nodes 64\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n', 's', false);
    expect(fitted.platformHashes).toEqual({ cm5: '' });
    expect(fitted.machineSizes).toEqual({ cm5: [64] });
    // A size that is not one is refused, where it was dropped (the models then taken at any size).
    for (const size of ['', '16x', '0', '-4']) {
      expect(() => fitSamples(`# platform cm5 h nodes ${size}\n# model Foo a\nFoo 10 1\nFoo 12 2\nFoo 14 3\n`, 's', false)).toThrow(
        new RegExp(`^s:1: "nodes ${size}" is not a machine size; expected "# platform <name> \\[<content hash>\\] \\[nodes <P>\\]" with P a whole number of nodes from 1$`),
      );
    }
  });
});

describe('fitSamples on a hand-written samples file', () => {
  const fit = (text: string) => () => fitSamples(text, 's', false);
  it('refuses each malformed line with one line naming it', () => {
    expect(fit('# platform\n# model Foo a\nFoo 10 1\n')).toThrow(/^s:1: "# platform" needs a platform name$/);
    expect(fit('# platform cm5\n# model\nFoo 10 1\n')).toThrow(/^s:2: "# model" needs a model name$/);
    expect(fit('# platform cm5\n# model Foo a\nFoo -1 1\n')).toThrow(/^s:3: Foo takes -1 cycles; expected a cycle count of 0 or more$/);
  });

  it('refuses a model whose units disagree on its columns, and one with only verification samples', () => {
    const sized = (nodes: number, column: string) => `# platform cm5 h nodes ${nodes}\n# model Foo ${column}\nFoo 10 1\nFoo 12 2\nFoo 14 3\n`;
    expect(fit(sized(16, 'a') + sized(32, 'b'))).toThrow(/^s:7: model Foo on cm5 has columns b here but a before$/);
    expect(fit('# platform cm5\n# model Foo a\n@Foo 10 1\n')).toThrow(/^s: model Foo on cm5 has no building samples$/);
  });
});

describe('fig66Report', () => {
  it('says which MRE it shows: the verification samples\', or without any the building samples\' (shown as verification)', () => {
    const unit = (verify: string) => `# platform cm5 h nodes 4\n# model ClearMemory length\nClearMemory 70 1\nClearMemory 71 2\nClearMemory 73 4\nClearMemory 78 8\n${verify}`;
    expect(fig66Report(fitSamples(unit('@ClearMemory 72 3\n'), 's', false).models)[3]).toMatch(/^ {4}here {4}[\d.]+ \+ [\d.]+\*length {2}\(MRE \d+\.\d\d%\)$/);
    expect(fig66Report(fitSamples(unit(''), 's', false).models)[3]).toMatch(/^ {4}here {4}[\d.]+ \+ [\d.]+\*length {2}\(MRE \d+\.\d\d% building\)$/);
  });

  it("of the shipped Strata models is the shipped fig-6-6.txt: the thesis's coefficients and MREs as the figure gives them, each term's difference signed", () => {
    // Only the whole-platform calibration (strata-models.test.ts, minutes) wrote the file again and compared it.
    const models = ['cm5', 'alewife', 'paragon', 'atm'].flatMap((p) => JSON.parse(readFileSync(join(ROOT, 'platforms/models', `${p}.json`), 'utf8')).models as FittedModel[]);
    const report = `${fig66Report(models).join('\n')}\n`;
    expect(report).toBe(readFileSync(join(ROOT, 'platforms/models/fig-6-6.txt'), 'utf8'));
    // Fig. 6-6's CM-5 Roundtrip, 404.2 + 14.4 hops (MRE 0.41%), and a term the fit pruned or added.
    expect(report).toContain('    thesis  404.2 + 14.4*hops  (MRE 0.41%)\n');
    expect(report).toMatch(/^ {4}terms {3}.*\b(pruned here|here only)\b/m);
    // sim fit of one platform's samples: that platform's part alone, no empty headings for the others.
    expect(fig66Report(models.filter((m) => m.platform === 'alewife')).filter((l) => !l.startsWith(' '))).toEqual(['Thesis Fig. 6-6 beside this calibration (cycles; MRE here is on the verification samples)', 'alewife:']);
  });
});

describe('fitModel, as the library exports it', () => {
  it('refuses samples that would make the fit NaN, with one line (they gave NaN coefficients and no error)', () => {
    const good = [1, 2, 3, 4, 5].map((n) => ({ y: 10 + 3 * n, x: [n] }));
    expect(fitModel(['n'], good, false).coefficients.map((c) => Math.round(c * 1e6) / 1e6)).toEqual([10, 3]);
    expect(() => fitModel(['n'], [], false)).toThrow(/^fitModel: expected a non-empty list of samples \{ y, x \}$/);
    expect(() => fitModel(['n'], [...good, { y: Number.NaN, x: [6] }], false)).toThrow(/^fitModel: sample 5 is not \{ y, x \} with a finite y and 1 finite x \(one per term: n\)$/);
    expect(() => fitModel(['n', 'm'], good, false)).toThrow(/^fitModel: sample 0 is not \{ y, x \} with a finite y and 2 finite x/);
    expect(() => fitModel(['n'], [...good, { y: 0, x: [0] }], true)).toThrow(/^fitModel: a sample of 0 cycles, which a fit of relative error cannot weight/);
  });
});

describe('fitSamples', () => {
  it('fits a platform of any name, one an object has among them (constructor was "sizes.includes is not a function")', () => {
    const text = (name: string) => `# platform ${name} abc nodes 4\n# model M n\nM 10 1\nM 12 2\nM 14 3\nM 16 5\n`;
    for (const name of ['constructor', 'toString', '__proto__']) {
      const fitted = fitSamples(text(name), 'x', false);
      expect(Object.keys(fitted.machineSizes)).toEqual([name]);
      expect(fitted.machineSizes[name]).toEqual([4]);
      expect(fitted.platformHashes[name]).toBe('abc');
    }
  });
});

describe('modelsModule', () => {
  it('writes a module TypeScript takes for any names: reserved words, twins and leading digits (tsc refused new, interface, a a, X-Y and X_Y)', () => {
    const text = [
      '# platform p h nodes 4',
      '# model M new interface',
      'M 10 1 1', 'M 12 2 1', 'M 15 3 2', 'M 16 5 1', 'M 20 6 4',
      '# model X-Y a a',
      'X-Y 10 1 1', 'X-Y 12 2 2', 'X-Y 14 3 3', 'X-Y 16 4 4',
      '# model X_Y 1a',
      'X_Y 10 1', 'X_Y 12 2', 'X_Y 14 3', 'X_Y 16 4',
      '',
    ].join('\n');
    const fitted = fitSamples(text, 'names.samples', false);
    const module = modelsModule(fitted.models, { samples: 'names.samples', samplesSha256: '0'.repeat(64) } as never);
    // As JavaScript in strict mode, as a module is: reserved words and twin parameters are syntax errors there.
    const js = module.replace(/: number/g, '').replace(/^export /gm, '');
    expect(() => new Function(`'use strict';\n${js}`)).not.toThrow();
    expect(module).toContain('export function p_M(_new: number, _interface: number): number');
    expect(module).toContain('export function p_X_Y(a: number, a_2: number): number');
    expect(module).toContain('export function p_X_Y_2(_1a: number): number');
  });
});

