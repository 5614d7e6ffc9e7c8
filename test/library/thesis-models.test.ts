import { describe, expect, it } from 'vitest';
import { bestDigitBits, viablePasses } from '../../src/library/digit-width.ts';
import { select, type LibraryModule } from '../../src/library/module.ts';
import { radixWithDigits, SAMPLE } from '../../src/library/sort-module.ts';
import { chainCosts } from '../../src/calibrate/stencil-chain.ts';
import { printedRadix, printedSortModels } from '../fixtures/thesis-models.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** The thesis's sorting module (4.5.3): 4-, 10- and 14-bit radix sorts and sample sort. */
const THESIS_SORT: LibraryModule = {
  name: 'thesis-sort',
  description: 'Table 4-4',
  apps: [],
  inputs: [
    { name: 'keys', doc: '', min: 1, max: 1 << 20 },
    { name: 'keyBits', doc: '', min: 1, max: 32 },
  ],
  variants: [radixWithDigits(4), radixWithDigits(10), radixWithDigits(14), SAMPLE],
};

/** The winner's intervals over keys 1..10000 as [variant, first, last]. */
function intervals(platform: 'cm5' | 'paragon', keyBits: number): [string, number, number][] {
  // The printed models are in microseconds: a 1 MHz clock keeps them so (and count no packets or combine messages: xferWords, combineWords, combineTree, the DMA and the stencil chain's costs are any).
  const ctx = { models: printedSortModels(platform), nodes: 64, clockMHz: 1, xferWords: 4, combineWords: 17, combineTree: true, dmaWordCycles: 0, dmaReceiveCycles: 0, ...chainCosts(loadTestPlatform(platform)) };
  const out: [string, number, number][] = [];
  for (let keys = 1; keys <= 10000; keys++) {
    const v = select(THESIS_SORT, { keys, keyBits }, ctx).variant;
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === v) last[2] = keys;
    else out.push([v, keys, keys]);
  }
  return out;
}

describe('the selector on the thesis printed sort models reproduces Table 4-4 (predicted rows, ±1 key)', () => {
  const table: [platform: 'cm5' | 'paragon', bits: number, rows: [string, number][]][] = [
    ['cm5', 16, [['radix4', 580], ['radix10', 6597], ['sample', 10000]]],
    ['cm5', 24, [['radix4', 386], ['radix10', 1551], ['sample', 10000]]],
    ['cm5', 32, [['radix4', 290], ['radix10', 879], ['sample', 10000]]],
    ['paragon', 8, [['radix4', 661], ['radix10', 10000]]],
    ['paragon', 16, [['radix4', 553], ['sample', 10000]]],
    ['paragon', 32, [['radix4', 215], ['sample', 10000]]],
  ];
  for (const [platform, bits, rows] of table) {
    it(`${platform}, ${bits}-bit keys: ${rows.map(([v, last]) => `${v} to ${last}`).join(', ')}`, () => {
      const got = intervals(platform, bits);
      expect(got.map((g) => g[0])).toEqual(rows.map((r) => r[0]));
      got.forEach((g, k) => expect(Math.abs(g[2] - rows[k][1])).toBeLessThanOrEqual(1));
    });
  }
});

describe('digit width on the printed CM-5 radix model (thesis 5.3, Fig. 5-5)', () => {
  const f = (bpd: number) => printedRadix('cm5', 1000, bpd, 28);

  it('has local minima at 7 and 10 bits for 28-bit keys and 1000 keys, 10 slower by about 0.30 ms', () => {
    const d = bestDigitBits(28, 1, 16, f);
    expect(d.naiveMinima).toEqual([7, 10]);
    expect((f(10) - f(7)) / 1000).toBeCloseTo(0.303, 3);
    expect(f(7)).toBeCloseTo(41604.6, 1);
  });

  it('picks 7 bits by g(i) over the viable pass counts, where one minimum remains', () => {
    expect(viablePasses(28, 1, 28)).toEqual([1, 2, 3, 4, 5, 6, 7, 10, 14, 28]);
    const d = bestDigitBits(28, 1, 16, f);
    expect(d.digitBits).toBe(7);
    expect(d.passes).toBe(4);
    expect(d.disagree).toBe(false);
  });

  it('follows Fig. 5-3: wider digits as the keys per node grow', () => {
    const best = (keys: number) => bestDigitBits(28, 1, 16, (bpd) => printedRadix('cm5', keys, bpd, 28)).digitBits;
    expect([10, 30, 50, 500, 5000, 20000].map(best)).toEqual([4, 5, 6, 7, 10, 14]);
  });
});
