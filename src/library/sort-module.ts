/**
 * The sorting library (thesis 4.5): sorts `keys` unsigned keys of `keyBits` bits per
 * node. Two variants: parallel radix sort (4.5.1) with its digit width optimized
 * first by eq. 44 over the viable pass counts (digit-width.ts, 5.3), and sample sort
 * (4.5.2). Models are 4.5.5's: RadixSort(keys, bpd, width) over iter = ceil(width /
 * bpd), bins = 2^bpd and logP, and SampleSort(keys, width) with keys*logP and the passes
 * of the samples' radix sort. The digit widths
 * searched are those calibrated (apps/calibration/apps.spec: 2 to 12 bits), capped at
 * the key width; the thesis's fixed 4-, 10- and 14-bit variants (Table 4-4) are
 * radixWithDigits(bits). The apps' checks are the preconditions: nodes x keys the host
 * can hold (the module's), and for sample sort a room of 2 n/p keys that block transfers address.
 */
import radixSortApp from '../../apps/radix-sort/index.ts';
import { checkKeyCount, MAX_KEYS_PER_NODE } from '../../apps/radix-sort/keys.ts';
import { roomProblem, SAMPLE_DIGIT_BITS, SAMPLE_MEMORY } from '../../apps/sample-sort/index.ts';
import { bestDigitBits } from './digit-width.ts';
import { frozenModule, modelCycles, type Inputs, type LibraryModule, type SelectContext, type Variant } from './module.ts';

/** The digit widths searched: the calibrated range (apps.spec), as in the thesis's [1, 16] range of interest (5.3). */
export const DIGIT_RANGE = { lo: 2, hi: 12 } as const;

/**
 * Keys per node the sort models were sampled on (apps.spec: 2^4 to 2^12 for RadixSort and
 * SampleSort; test/library/sort-module.test.ts reads them from the shipped samples). Sample
 * sort's model errs more the further past them (Paragon, 16 nodes, 8-bit keys: -8.7% at
 * 4,096 keys, -19% at 8,192, -53% at 65,536, where it picked the slower sort).
 */
export const SORT_CALIBRATED = { keys: { min: 16, max: 4096, source: 'apps/calibration/apps.spec' } } as const;

/** log2 P as the calibration computes it (ceil, so non-powers of two round up). */
const logP = (nodes: number) => Math.ceil(Math.log2(nodes));

/**
 * The RadixSort model's columns (apps.spec). Given the platform's combineWords
 * (combineChunkWords), also the messages of a pass's two vector combines over the bins,
 * ceil(bins / combineWords) a tree level, for models that count them (combine_iter_logP).
 */
export function radixColumns(keys: number, bpd: number, width: number, nodes: number, combineWords?: number): Record<string, number> {
  const iter = Math.ceil(width / bpd);
  const bins = 2 ** bpd;
  const lp = logP(nodes);
  const columns: Record<string, number> = { keys, bpd, width, iter, bins, bins_iter: bins * iter, logP: lp, logP_iter: lp * iter, bins_iter_logP: bins * iter * lp, keys_iter: keys * iter };
  if (combineWords !== undefined) columns.combine_iter_logP = Math.ceil(bins / combineWords) * iter * lp;
  return columns;
}

/**
 * The SampleSort model's columns (apps.spec): sampleIter is the passes of the samples'
 * radix sort, which runs with the app's default digit width (the variant sets none);
 * sendBuffers the blocks a node sends, one per destination it has a key for (uniform
 * keys, fewer than the app's 256-key buffers per destination).
 */
export function sampleColumns(keys: number, width: number, nodes: number): Record<string, number> {
  return {
    keys,
    width,
    sampleIter: Math.ceil(width / SAMPLE_DIGIT_BITS),
    // P(1 - (1 - 1/P)^keys), written as apps.spec must write it (exp and log2), so the two agree to the last bit.
    sendBuffers: nodes * (1 - Math.exp((keys * Math.log2(1 - 1 / nodes)) / Math.log2(Math.exp(1)))),
    keys_logP: keys * logP(nodes),
  };
}

/** The digit range for `keyBits`-bit keys: the calibrated one, no wider than the key. */
export function digitRange(keyBits: number): { lo: number; hi: number } {
  return { lo: Math.min(DIGIT_RANGE.lo, keyBits), hi: Math.min(DIGIT_RANGE.hi, keyBits) };
}

/** Radix sort with the digit width optimized (eq. 44). */
export const RADIX: Variant = {
  name: 'radix',
  app: 'apps/radix-sort',
  fixed: {},
  model: 'RadixSort',
  tunables: ['digitBits'],
  problem: () => null,
  calibrated: SORT_CALIBRATED,
  tune(x: Inputs, ctx: SelectContext) {
    const { lo, hi } = digitRange(x.keyBits);
    const d = bestDigitBits(x.keyBits, lo, hi, (bpd) => modelCycles(RADIX, ctx, radixColumns(x.keys, bpd, x.keyBits, ctx.nodes, ctx.combineWords)));
    const naive = d.naiveMinima.length > 1 ? `; the naive f(bpd) has minima at ${d.naiveMinima.join(', ')} bits and IntegerMinimum on it stops at ${d.naiveBisection}` : '';
    return {
      params: { digitBits: d.digitBits },
      notes: [`digitBits ${d.digitBits}: ${d.passes} passes, IntegerMinimum of g(i) over the viable pass counts in ${d.steps} steps (eq. 44, digits ${lo}-${hi})${d.disagree ? ' (enumeration disagreed: g has several minima)' : ''}${naive}`],
    };
  },
  predict: (x, tuned, ctx) => modelCycles(RADIX, ctx, radixColumns(x.keys, Number(tuned.digitBits), x.keyBits, ctx.nodes, ctx.combineWords)),
};

/** Radix sort with a fixed digit width, as the thesis's module had (4.5.3: 4, 10 and 14 bits). */
export function radixWithDigits(bits: number): Variant {
  const v: Variant = {
    name: `radix${bits}`,
    app: 'apps/radix-sort',
    fixed: { digitBits: bits },
    model: 'RadixSort',
    tunables: [],
    problem: () => null,
    calibrated: SORT_CALIBRATED,
    predict: (x, _tuned, ctx) => modelCycles(v, ctx, radixColumns(x.keys, bits, x.keyBits, ctx.nodes, ctx.combineWords)),
  };
  return v;
}

export const SAMPLE: Variant = {
  name: 'sample',
  app: 'apps/sample-sort',
  fixed: {},
  model: 'SampleSort',
  tunables: [],
  // The app's own check (4.4.2: a variant that cannot take the input predicts Infinity): it
  // runs with its default room, 2 n/p keys, which block transfers address only up to 262,143
  // keys per node; the selector chose it up to the module's 524,288, and the run was refused.
  problem: (x) => roomProblem(SAMPLE_MEMORY, x.keys),
  calibrated: SORT_CALIBRATED,
  predict: (x, _tuned, ctx) => modelCycles(SAMPLE, ctx, sampleColumns(x.keys, x.keyBits, ctx.nodes)),
};

export const SORT_MODULE: LibraryModule = frozenModule({
  name: 'sort',
  description: 'sorts keys per node of keyBits bits (thesis 4.5): radix sort with its digit width optimized (5.3), or sample sort',
  apps: ['apps/sort', 'apps/radix-sort', 'apps/sample-sort'],
  inputs: [
    { name: 'keys', doc: 'keys per node', min: 1, max: MAX_KEYS_PER_NODE },
    { name: 'keyBits', doc: 'bits per key', min: 1, max: 32 },
  ],
  variants: [RADIX, SAMPLE],
  inputProblem: (x, ctx) => checkKeyCount(ctx.nodes, x.keys),
  tunableSpecs: { digitBits: radixSortApp.params.digitBits },
});
