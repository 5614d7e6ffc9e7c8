import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISTRIBUTIONS } from '../../apps/radix-sort/keys.ts';
import sampleSort from '../../apps/sample-sort/index.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform, PLATFORM_NAMES, type PlatformName } from '../support/platforms.ts';

function run(platform: PlatformName, nodes: number, params: string[], seed = 1) {
  return runApp(runConfig(loadTestPlatform(platform), sampleSort, { params, nodes, seed, network: 'packet' }));
}

describe('sample sort (thesis 4.5.2)', () => {
  it.each(PLATFORM_NAMES)('sorts every distribution on %s, adversarial ones included', (platform) => {
    for (const dist of DISTRIBUTIONS) {
      const s = run(platform, 8, ['keys=150', `dist=${dist}`, 'oversample=16']);
      expect(s.verified, `${dist}: ${s.verification}`).toBe(true);
      expect(s.metrics.passes, dist).toBe(1);
    }
  });

  it('spreads equal keys over the nodes their splitters bound instead of piling them on one', () => {
    const s = run('cm5', 16, ['keys=200', 'dist=equal']);
    expect(s.verified, s.verification).toBe(true);
    expect(s.metrics.maxKeysPerNode).toBe(200);
  });

  it('forwards the keys that do not fit to nodes with room, then repeats with a fresh sample (4.5.3)', () => {
    const s = run('cm5', 16, ['keys=1000', 'memory=1.5', 'oversample=8']);
    expect(s.verified, s.verification).toBe(true);
    expect(s.metrics.passes).toBeGreaterThan(1);
    expect(s.metrics.keysForwarded).toBeGreaterThan(0);
    expect(s.metrics.maxKeysPerNode).toBeLessThanOrEqual(1500);
  });

  it('refuses more keys than the host can hold (2^26 in all), as radix sort does', () => {
    expect(() => run('cm5', 1024, ['keys=65537'])).toThrow(/1024 nodes x 65537 keys = 67109888 keys; .* at most 67108864/);
  });

  it('below the thesis\'s room, refuses keys of at most four values before the run, and memory 2 sorts them', () => {
    // It ran, then said "found no splitters that fit in 32 passes" (every seed: keys of 1 or 2 bits take at most four values, as dist=few).
    for (const keyBits of [1, 2]) {
      expect(() => run('cm5', 4, ['keys=100', `keyBits=${keyBits}`, 'memory=1.5'])).toThrow(InputError);
      expect(() => run('cm5', 4, ['keys=100', `keyBits=${keyBits}`, 'memory=1.5'])).toThrow(new RegExp(`keys of ${keyBits} bits? with memory 1\\.5: they take at most ${2 ** keyBits} values, .*expected memory >= 2, or keys of more bits$`));
      expect(run('cm5', 4, ['keys=100', `keyBits=${keyBits}`, 'memory=2']).verified).toBe(true);
    }
    expect(run('cm5', 4, ['keys=100', 'keyBits=3', 'memory=1.5']).verified).toBe(true);
  });

  // It blamed repeated values, of uniform 32-bit keys: with one sample a node, the splitters' buckets overflow.
  it('below the thesis\'s room, with splitters of one sample a node, fails saying so, and more samples sort them', () => {
    expect(() => run('cm5', 16, ['keys=100', 'oversample=1', 'memory=1.5'])).toThrow(/found no splitters that fit in 32 passes: with memory 1\.5, a node's bucket can need more than its room, from splitters of 1 sample a node \(oversample\), .*more samples, or wider keys avoid it/);
    expect(run('cm5', 16, ['keys=100', 'oversample=64', 'memory=1.5']).verified).toBe(true);
  });

  it('refuses more room per node than block transfers can address', () => {
    expect(() => run('cm5', 4, ['keys=300000', 'memory=2'])).toThrow(InputError);
    expect(() => run('cm5', 4, ['keys=300000', 'memory=2'])).toThrow(/600000 keys of room per node; block transfers address at most 524287 words/);
    // The parameter's range says so: it went to 2^20, most of which no memory could take.
    expect(() => run('cm5', 4, ['keys=349525', 'memory=1.5'])).toThrow(/^--param keys=349525: expected an integer from 1 to 349524$/);
  });

  it('always verifies for random sizes, key widths and distributions (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PlatformName>('cm5', 'paragon', 'atm'),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 32 }),
        fc.constantFrom(...DISTRIBUTIONS),
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 0, max: 1000 }),
        (platform, keys, keyBits, dist, oversample, seed) => {
          const s = run(platform, 4, [`keys=${keys}`, `keyBits=${keyBits}`, `dist=${dist}`, `oversample=${oversample}`, 'bufferKeys=7'], seed);
          return s.verified;
        },
      ),
      { numRuns: 40, seed: 7 },
    );
  });
});
