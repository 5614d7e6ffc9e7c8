/** Every app of issue 5 verifies on every platform at 64 nodes (small problem sizes). */
import { describe, expect, it } from 'vitest';
import radixSort from '../../apps/radix-sort/index.ts';
import sampleSort from '../../apps/sample-sort/index.ts';
import stencil from '../../apps/stencil/index.ts';
import type { AnyApp } from '../../src/runtime/app.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform, PLATFORM_NAMES } from '../support/platforms.ts';

const RUNS: [AnyApp, string[]][] = [
  [stencil as AnyApp, ['width=80', 'height=72', 'iters=2']],
  [stencil as AnyApp, ['width=200', 'height=20', 'iters=2', 'layout=vstrips']],
  [radixSort as AnyApp, ['keys=40', 'dist=skewed']],
  [sampleSort as AnyApp, ['keys=120', 'dist=few']],
];

describe.each(PLATFORM_NAMES)('at 64 nodes on %s', (platform) => {
  it.each(RUNS.map(([app, params]) => [app.name, params.join(' '), app, params] as const))('%s %s verifies', (_name, _p, app, params) => {
    const s = runApp(runConfig(loadTestPlatform(platform), app, { params, nodes: 64, seed: 5, network: 'packet' }));
    expect(s.verified, s.verification).toBe(true);
  });
});
