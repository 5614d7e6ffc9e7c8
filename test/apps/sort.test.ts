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
});
