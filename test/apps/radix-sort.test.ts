import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import radixSortApp from '../../apps/radix-sort/index.ts';
import { checkSorted, DISTRIBUTIONS } from '../../apps/radix-sort/keys.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform, PLATFORM_NAMES, type PlatformName } from '../support/platforms.ts';

function run(platform: PlatformName, nodes: number, params: string[], seed = 1) {
  return runApp(runConfig(loadTestPlatform(platform), radixSortApp, { params, nodes, seed, network: 'packet' }));
}

describe('radix sort (thesis 4.5.1)', () => {
  it('refuses more keys than the host can hold (2^26 in all) before making any, instead of dying for want of memory', () => {
    // 1024 x 65,537 = 67,109,888 keys, 1,024 past 2^26.
    expect(() => run('cm5', 1024, ['keys=65537'])).toThrow(InputError);
    expect(() => run('cm5', 1024, ['keys=65537'])).toThrow(/1024 nodes x 65537 keys = 67109888 keys; .* expected nodes x keys at most 67108864 \(2\^26, 2 to 3 GB\)$/);
  });

  it("takes as many keys per node as a block transfer's offsets place (2^19), and refuses more", () => {
    // 524,289 passed the parameter's range (to 2^22) and failed on two nodes: "transfer offset 524288".
    expect(() => run('cm5', 2, ['keys=524289', 'keyBits=1', 'digitBits=1'])).toThrow(/^--param keys=524289: expected an integer from 1 to 524288$/);
    expect(run('cm5', 2, ['keys=524288', 'keyBits=1', 'digitBits=1']).verified).toBe(true);
  });

  it.each(PLATFORM_NAMES)('sorts every distribution on %s', (platform) => {
    for (const dist of DISTRIBUTIONS) {
      const s = run(platform, 8, ['keys=60', `dist=${dist}`, 'digitBits=5']);
      expect(s.verified, `${dist}: ${s.verification}`).toBe(true);
    }
  });

  it('fewer, wider digits mean fewer passes', () => {
    const narrow = run('cm5', 8, ['keys=200', 'digitBits=4']);
    const wide = run('cm5', 8, ['keys=200', 'digitBits=11']);
    expect(narrow.metrics.digits).toBe(8);
    expect(wide.metrics.digits).toBe(3);
    expect(narrow.verified && wide.verified).toBe(true);
  });

  it('always verifies for random sizes, key widths, digit widths and distributions (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PlatformName>('cm5', 'alewife', 'atm'),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...DISTRIBUTIONS),
        fc.integer({ min: 0, max: 1000 }),
        (platform, keys, keyBits, digitBits, dist, seed) => {
          const nodes = platform === 'alewife' ? 6 : 4;
          const s = run(platform, nodes, [`keys=${keys}`, `keyBits=${keyBits}`, `digitBits=${digitBits}`, `dist=${dist}`], seed);
          return s.verified;
        },
      ),
      { numRuns: 40, seed: 42 },
    );
  });
});

describe("the sorts' verification (checkSorted)", () => {
  const input = [Uint32Array.of(9, 3, 7), Uint32Array.of(1, 3, 8)];
  const nodes = (...keys: number[][]) => keys.map((k) => Uint32Array.from(k));

  it('accepts the sorted permutation, node by node', () => {
    expect(checkSorted(input, nodes([1, 3, 3], [7, 8, 9]), 3)).toEqual([]);
  });

  it('finds keys out of order, a key lost or changed in sorted output, and a node holding the wrong count', () => {
    expect(checkSorted(input, nodes([1, 3, 7], [3, 8, 9]), 3)).toEqual(['keys out of order at global position 3: 7 before 3']);
    // In order, but a 3 became a 4: not a permutation of the input.
    expect(checkSorted(input, nodes([1, 3, 4], [7, 8, 9]), 3)).toEqual(['the output is not a permutation of the input (first difference at rank 2: 4 vs 3)']);
    expect(checkSorted(input, nodes([1, 3], [3, 7, 8, 9]), 3)).toEqual(['node 0 holds 2 keys, expected 3', 'node 1 holds 4 keys, expected 3']);
    expect(checkSorted(input, nodes([1, 3, 3], [7, 8]), 3)).toEqual(['node 1 holds 2 keys, expected 3', 'the output has 5 keys, the input 6']);
  });
});
