import { describe, expect, it } from 'vitest';
import microbench from '../../apps/microbench/index.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform, type PlatformName } from '../support/platforms.ts';

function measure(platform: PlatformName, nodes: number, params: string[]): Record<string, number> {
  const s = runApp(runConfig(loadTestPlatform(platform), microbench, { params, nodes, seed: 1, network: 'packet' }));
  expect(s.verified, s.verification).toBe(true);
  return s.metrics as Record<string, number>;
}

/** Thesis Fig. 6-6, and a machine size with at least two distinct hop counts. */
const FIG_6_6: [PlatformName, number, { request: number; rpc: number; intercept: number; slope: number }][] = [
  ['cm5', 16, { request: 68, rpc: 44, intercept: 404.2, slope: 14.4 }],
  ['alewife', 16, { request: 33, rpc: 33, intercept: 207.6, slope: 2.552 }],
  ['paragon', 16, { request: 143, rpc: 142.3, intercept: 302.5, slope: 11.23 }],
  ['atm', 32, { request: 1130, rpc: 1131, intercept: 2032, slope: 61.89 }],
];

const within20 = (got: number, want: number) => expect(Math.abs(got / want - 1), `${got} vs ${want}`).toBeLessThan(0.2);

describe('microbench: the Strata models of thesis Fig. 6-6', () => {
  it.each(FIG_6_6)('on %s (%i nodes), SendRequest, SendRPC and the Roundtrip line land within 20%%', (platform, nodes, want) => {
    within20(measure(platform, nodes, ['model=SendRequest', 'reps=4']).cycles, want.request);
    within20(measure(platform, nodes, ['model=SendRPC', 'reps=4']).cycles, want.rpc);
    const rt = measure(platform, nodes, ['model=Roundtrip', 'reps=8']);
    within20(rt.intercept, want.intercept);
    within20(rt.slope, want.slope);
  });

  it('CombineVector is pipelined on the CM-5 (no log P term) and grows with log P on the combining trees', () => {
    const perWord = (platform: PlatformName, nodes: number) =>
      (measure(platform, nodes, ['model=CombineVector', 'length=40', 'reps=1']).cycles -
        measure(platform, nodes, ['model=CombineVector', 'length=8', 'reps=1']).cycles) /
      32;
    expect(perWord('cm5', 4)).toBeCloseTo(49, 0);
    expect(perWord('cm5', 32)).toBeCloseTo(49, 0);
    for (const platform of ['alewife', 'paragon', 'atm'] as const) {
      expect(perWord(platform, 16) / perWord(platform, 4), platform).toBeGreaterThan(1.4);
    }
  });

  it('ClearMemory costs the platform model, start + length x per-byte cycles', () => {
    expect(measure('cm5', 1, ['model=ClearMemory', 'length=4096', 'reps=3']).cycles).toBe(Math.round(69.28 + 1.005 * 4096));
  });

  it('refuses a message model on one node', () => {
    expect(() => measure('cm5', 1, ['model=SendRPC'])).toThrow(/model SendRPC needs at least 2 nodes, got 1/);
  });
});
