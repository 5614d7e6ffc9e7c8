import { describe, expect, it } from 'vitest';
import radixSort from '../../apps/radix-sort/index.ts';
import sampleSort from '../../apps/sample-sort/index.ts';
import sort from '../../apps/sort/index.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform } from '../support/platforms.ts';

describe('sort: the sorting module as an app (thesis 4.5.3)', () => {
  it('is exactly a run of the chosen app: same fingerprint, cycles and verification', () => {
    const platform = loadTestPlatform('cm5');
    const options = { nodes: 16, seed: 5, network: 'packet' as const };
    const viaSort = runApp(runConfig(platform, sort, { ...options, params: ['algorithm=radix', 'keys=200', 'keyBits=20', 'digitBits=5'] }));
    const direct = runApp(runConfig(platform, radixSort, { ...options, params: ['keys=200', 'keyBits=20', 'digitBits=5'] }));
    expect(viaSort.fingerprint).toBe(direct.fingerprint);
    expect(viaSort.metrics.cycles).toBe(direct.metrics.cycles);
    expect(viaSort.verification).toBe(`radix sort: ${direct.verification}`);
    const viaSample = runApp(runConfig(platform, sort, { ...options, params: ['algorithm=sample', 'keys=200', 'sampleDigitBits=6'] }));
    const sample = runApp(runConfig(platform, sampleSort, { ...options, params: ['keys=200', 'digitBits=6'] }));
    expect(viaSample.fingerprint).toBe(sample.fingerprint);
    expect(viaSample.verified).toBe(true);
  });

  it("hands sample sort the run's oversample, memory and bufferKeys: each changes the run, and a delegate that dropped one still sorted and verified", () => {
    const platform = loadTestPlatform('cm5');
    const options = { nodes: 16, seed: 5, network: 'packet' as const };
    const given = ['keys=200', 'oversample=1', 'memory=1.75', 'bufferKeys=8'];
    const viaSort = runApp(runConfig(platform, sort, { ...options, params: ['algorithm=sample', ...given] }));
    const direct = runApp(runConfig(platform, sampleSort, { ...options, params: given }));
    expect(viaSort.fingerprint).toBe(direct.fingerprint);
    expect(viaSort.verified).toBe(true);
    // One sample a node overflows (forwarded keys, several passes), so each parameter shows in the fingerprint.
    expect(direct.metrics.keysForwarded).toBeGreaterThan(0);
    for (const [k, v] of [['oversample', 64], ['memory', 2], ['bufferKeys', 256]] as const) {
      const other = runApp(runConfig(platform, sampleSort, { ...options, params: [...given.filter((g) => !g.startsWith(`${k}=`)), `${k}=${v}`] }));
      expect(other.fingerprint, k).not.toBe(direct.fingerprint);
    }
  });
});
