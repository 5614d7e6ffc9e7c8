/**
 * The shipped hybrid extra-lines models (platforms/models/hybrid/n<P>/, thesis 8.1.3 eq.
 * 54) are what their samples fit to, pass verification, and were sampled against the
 * Strata BlockTransfer model and hybrid.spec that ship beside them: their one column is
 * that model's prediction, so a recalibrated Strata suite or an edited spec makes them
 * stale ("The hybrid model must be recalibrated", 8.1.3), and this test says so.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitSamples } from '../../src/calibrate/models.ts';
import { formatNumber, planUnit } from '../../src/calibrate/samples.ts';
import { parseSpecs } from '../../src/calibrate/spec.ts';
import { loadPlatform } from '../../src/cli/load-inputs.ts';
import { loadModelSet, strataSubmodels } from '../../src/cli/model-files.ts';
import { extraLines, HYBRID_MODELS } from '../../src/library/extra-lines.ts';
import { evaluate } from '../../src/library/model-set.ts';
import { stencilColumns, stencilFactsOf } from '../../src/library/stencil-module.ts';
import { ROOT } from '../support/sim-cli.ts';

const PLATFORMS = ['alewife', 'atm', 'cm5', 'paragon'];
const SPEC_FILE = 'apps/calibration/hybrid.spec';
const SPEC_TEXT = readFileSync(join(ROOT, SPEC_FILE), 'utf8');
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

describe('shipped hybrid models', () => {
  for (const nodes of [16, 32, 64]) {
    for (const name of PLATFORMS) {
      const dir = `platforms/models/hybrid/n${nodes}`;
      it(`${dir}/${name}.json refits from its samples, which match today's BlockTransfer model and spec`, async () => {
        const shipped = JSON.parse(readFileSync(join(ROOT, dir, `${name}.json`), 'utf8'));
        const samplesPath = `${dir}/${name}.samples`;
        const text = readFileSync(join(ROOT, samplesPath), 'utf8');
        expect(shipped.provenance.samples).toBe(samplesPath);
        expect(shipped.provenance.samplesSha256).toBe(sha256(text));
        expect(fitSamples(text, samplesPath, true).models).toEqual(shipped.models);
        expect(shipped.models.map((m: { name: string }) => m.name)).toEqual([HYBRID_MODELS.rows, HYBRID_MODELS.cols]);
        // Every model passes verification (thesis 3.6.3: warn above 10%).
        for (const m of shipped.models) expect(m.mreVerificationPercent, `${name} ${m.name}`).toBeLessThan(10);
        // The spec and the submodel file are today's, and the columns are what they give now.
        expect(text).toContain(`# spec ${SPEC_FILE} sha256 ${sha256(SPEC_TEXT)}\n`);
        const platform = await loadPlatform(name);
        const specs = parseSpecs(SPEC_TEXT, SPEC_FILE);
        for (const spec of specs) {
          const submodels = strataSubmodels(platform, spec)!;
          expect(text).toContain(`# submodels BlockTransfer from ${submodels.source}\n# model ${spec.name} factored\n`);
          const planned = planUnit({ platform, spec, source: SPEC_FILE, nodes, seed: 1, vcount: 10, submodels }).map((s) => `${s.verify ? '@' : ''}${spec.name} ${formatNumber(s.columns[0])}`);
          const sampled = text.split('\n').filter((l) => l.replace(/^@/, '').startsWith(`${spec.name} `)).map((l) => l.split(' ')).map((f) => `${f[0]} ${f[2]}`);
          expect(sampled).toEqual(planned);
        }
      });
    }
  }
});

describe('the hybrid Communication', () => {
  it('is alpha + beta x the factored one, and moves the root of eq. 40', async () => {
    const platform = await loadPlatform('atm');
    const models = loadModelSet(platform, 64, undefined, { communication: 'hybrid' });
    const square = (w: number, h: number, iter: number) => evaluate(models.get('StencilSquare', 'test'), stencilColumns(w, h, iter, 8, 8, stencilFactsOf(platform)));
    const factored = extraLines(50, 50, 8, 8, square, models, 'factored');
    const hybrid = extraLines(50, 50, 8, 8, square, models, 'hybrid');
    const row = models.get(HYBRID_MODELS.rows, 'test');
    expect(hybrid.rowComm).toBeCloseTo(row.coefficients[0] + row.coefficients[1] * factored.rowComm, 6);
    // Each answer is the last line whose marginal computation (eq. 39) its Communication still covers.
    for (const e of [factored, hybrid]) {
      const marginal = (x: number) => (square(50, 50 + 8 * x, 1000) - square(50, 50, 1000)) / 1000;
      expect(marginal(e.extraRows)).toBeLessThan(e.rowComm);
      expect(marginal(e.extraRows + 1)).toBeGreaterThanOrEqual(e.rowComm);
    }
    // Here the rows' roots agree (3) and the columns' do not (14 against 9).
    expect([hybrid.extraRows, hybrid.extraCols]).not.toEqual([factored.extraRows, factored.extraCols]);
  });

  it("balances eq. 38's edges (a row: one colour of ceil(width / px) doubles; a column whole; two per iteration) and keeps to the range when nothing balances them", async () => {
    const platform = await loadPlatform('atm');
    const models = loadModelSet(platform, 64, undefined, { communication: 'factored' });
    const bt = (words: number) => evaluate(models.get('BlockTransfer', 'test'), { words });
    // 50 columns on 8 processors: the busiest hold 7, a row edge of 7 points whose larger
    // colour is 4, 8 words ("divided by two because of red-black ordering"); 45 rows: a
    // column of 6, sent whole, 12 words.
    const square = (w: number, h: number, iter: number) => evaluate(models.get('StencilSquare', 'test'), stencilColumns(w, h, iter, 8, 8, stencilFactsOf(platform)));
    const e = extraLines(50, 45, 8, 8, square, models, 'factored');
    expect(e.rowComm).toBe(2 * bt(8));
    expect(e.colComm).toBe(2 * bt(12));
    // A square whose time does not grow with the grid: extra lines never cost their transfer, so IntegerRoot
    // finds no root (top + 1) and the answer is the most the range allows, (lines - processors) / 2 rounded down.
    const flat = extraLines(50, 45, 8, 8, () => 1e6, models, 'factored');
    expect([flat.rowTop, flat.colTop]).toEqual([18, 21]);
    expect([flat.extraRows, flat.extraCols]).toEqual([18, 21]);
  });
});
