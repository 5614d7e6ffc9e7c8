/**
 * The simulator's number formatting (src/kernel/numbers.ts) says every number as
 * Intl.NumberFormat('en-US') would, which it replaces to spare every run ICU's start-up
 * and to keep what it writes independent of the Node build's ICU.
 */
import { describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { grouped, significant } from '../../src/kernel/numbers.ts';

/** Each formatter beside the Intl.NumberFormat it stands for. */
const PAIRS: [string, (x: number) => string, Intl.NumberFormat][] = [
  ['grouped(x)', (x) => grouped(x), new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })],
  ['grouped(x, 1)', (x) => grouped(x, 1), new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 })],
  ['grouped(x, 1, 1)', (x) => grouped(x, 1, 1), new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })],
  ['grouped(x, 2)', (x) => grouped(x, 2), new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })],
  ['grouped(x, 3, 2)', (x) => grouped(x, 3, 2), new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 3 })],
  ['significant(x, 3)', (x) => significant(x, 3), new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 })],
  ['significant(x, 1)', (x) => significant(x, 1), new Intl.NumberFormat('en-US', { maximumSignificantDigits: 1 })],
];

/** Values where rounding can go wrong: ties, nines that carry, powers of ten, and numbers JavaScript writes with an exponent. */
const EDGES = [
  0, -0, 0.5, 1.5, 2.5, -0.5, -0.4, 0.05, 0.15, 0.25, 1.05, 1.005, 0.045, 0.0095, 0.00095, 9.95, 9.96, 99.95, 999.5, 999_999.5,
  0.1 + 0.2, 1 / 3, 2 / 3, 123_456.789, 1e-7, 1.5e-7, 9.99e-7, 1e21, 1.2345e21, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER, 1_000, 1_000_000, 310.4, 310.45, 3650.49, 3650.5, NaN, Infinity, -Infinity,
];

describe('number formatting without ICU', () => {
  it('says the edge values as Intl does', () => {
    for (const [name, mine, intl] of PAIRS) {
      for (const x of [...EDGES, ...EDGES.map((v) => -v)]) expect(`${name} of ${x}: ${mine(x)}`).toBe(`${name} of ${x}: ${intl.format(x)}`);
    }
  });

  it('says 200,000 seeded values of every magnitude as Intl does', () => {
    const rng = xoroshiro128plus(20261127);
    const misses: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      // A mantissa of 1 to 17 digits, placed anywhere from 10^-9 to 10^22; every fourth one an integer or a tie.
      const kind = i & 3;
      const scale = 10 ** (uniformInt(rng, -9, 22));
      const x =
        kind === 0 ? uniformInt(rng, -1_000_000_000, 1_000_000_000)
        : kind === 1 ? (uniformInt(rng, -200_000, 200_000) + 0.5) / 10 ** uniformInt(rng, 0, 4)
        : (uniformFloat64(rng) - 0.5) * scale;
      for (const [name, mine, intl] of PAIRS) {
        if (mine(x) !== intl.format(x)) misses.push(`${name} of ${x}: ${mine(x)}, Intl ${intl.format(x)}`);
      }
      if (misses.length > 5) break;
    }
    expect(misses).toEqual([]);
  });

});
