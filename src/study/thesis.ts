/**
 * The thesis's numbers the studies print beside their own (Brewer 1994; quoted as
 * printed, /work/shared/notes/selection.md sections 2.4, 3.3, 4.2, 4.3). These are
 * quotations for comparison, never inputs to a study.
 */

/** Table 4-1 (p. 76): stencil prediction accuracy, percent, by platform and machine size. */
export const TABLE_4_1: Record<string, Record<number, number>> = {
  alewife: { 16: 99.4, 32: 99.5, 64: 99.51 },
  paragon: { 16: 99.3, 32: 99.5, 64: 99.45 },
  atm: { 16: 98.9, 32: 99.2, 64: 99.21 },
  cm5: { 16: 99.6, 32: 99.8, 64: 99.71 },
};
/** Table 4-1's aggregate over platforms and sizes. */
export const TABLE_4_1_AGGREGATE = 99.42;

/** Table 4-2 (p. 78): penalties of incorrect selections at 64 nodes, percent. */
export const TABLE_4_2: Record<string, { mean: number; expected: number; worst: number }> = {
  alewife: { mean: 2.88, expected: 0.0141, worst: 16.25 },
  paragon: { mean: 3.09, expected: 0.017, worst: 13.63 },
  atm: { mean: 1.43, expected: 0.0113, worst: 7.86 },
  cm5: { mean: 1.1, expected: 0.0032, worst: 5.45 },
};

/** Table 4-3 (p. 78): net gain of selection over always-square, percent. */
export const TABLE_4_3: Record<string, number> = { alewife: 8, paragon: 21, cm5: 11, atm: 90 };

/**
 * Table 4-4 (p. 90): per platform and key width, the predicted and actual last key
 * counts of each left-hand algorithm before a crossover, and the error ratio (per 10000).
 */
export const TABLE_4_4: Record<string, { keyBits: number; crossovers: { from: string; to: string; predicted: number; actual: number }[]; errors: number }[]> = {
  alewife: [
    { keyBits: 16, crossovers: [{ from: 'radix4', to: 'radix10', predicted: 2584, actual: 2604 }], errors: 20 },
    { keyBits: 24, crossovers: [{ from: 'radix4', to: 'sample', predicted: 1295, actual: 1288 }], errors: 7 },
    { keyBits: 32, crossovers: [{ from: 'radix4', to: 'sample', predicted: 817, actual: 819 }], errors: 2 },
  ],
  cm5: [
    { keyBits: 16, crossovers: [{ from: 'radix4', to: 'radix10', predicted: 580, actual: 583 }, { from: 'radix10', to: 'sample', predicted: 6597, actual: 6551 }], errors: 49 },
    { keyBits: 24, crossovers: [{ from: 'radix4', to: 'radix10', predicted: 386, actual: 391 }, { from: 'radix10', to: 'sample', predicted: 1551, actual: 1607 }], errors: 61 },
    { keyBits: 32, crossovers: [{ from: 'radix4', to: 'radix10', predicted: 290, actual: 291 }, { from: 'radix10', to: 'sample', predicted: 879, actual: 875 }], errors: 5 },
  ],
  paragon: [
    { keyBits: 8, crossovers: [{ from: 'radix4', to: 'radix10', predicted: 661, actual: 692 }], errors: 31 },
    { keyBits: 16, crossovers: [{ from: 'radix4', to: 'sample', predicted: 553, actual: 547 }], errors: 6 },
    { keyBits: 32, crossovers: [{ from: 'radix4', to: 'sample', predicted: 215, actual: 215 }], errors: 0 },
  ],
  atm: [
    { keyBits: 8, crossovers: [{ from: 'radix4', to: 'radix10', predicted: 383, actual: 391 }], errors: 8 },
    { keyBits: 16, crossovers: [{ from: 'radix4', to: 'sample', predicted: 312, actual: 318 }], errors: 6 },
    { keyBits: 32, crossovers: [{ from: 'radix4', to: 'sample', predicted: 126, actual: 127 }], errors: 1 },
  ],
};
/** Table 4-4's overall mean accuracy, percent ("The overall mean accuracy is 99.84%"). */
export const TABLE_4_4_ACCURACY = 99.84;

/** Table 5-1 (p. 104): the thesis's four configurations at 64 nodes; benefits in percent. */
export const TABLE_5_1: Record<string, { width: number; height: number; rows: number; cols: number; predicted: number; actual: number }> = {
  alewife: { width: 200, height: 200, rows: 1, cols: 1, predicted: 1.6, actual: 1.4 },
  cm5: { width: 200, height: 200, rows: 2, cols: 1, predicted: 3.1, actual: 2.5 },
  atm: { width: 50, height: 50, rows: 9, cols: 2, predicted: 8.9, actual: 8.1 },
  paragon: { width: 200, height: 200, rows: 3, cols: 1, predicted: 3.3, actual: 2.6 },
};
