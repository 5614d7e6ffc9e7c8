/**
 * The machine sizes apps/calibration/apps.spec can sample (src/cli/app-spec-sizes.ts), as
 * the README lists them: a selection without models at another size said to calibrate the
 * spec there, and that command refused it.
 */
import { describe, expect, it } from 'vitest';
import { appSpecSizeProblem } from '../../src/cli/app-spec-sizes.ts';
import { nodeCountProblem } from '../../src/network/build-topology.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const sampled = (name: 'cm5' | 'atm') => {
  const platform = loadTestPlatform(name);
  return Array.from({ length: 128 }, (_, k) => k + 1).filter((n) => nodeCountProblem(platform.network, n) === null && appSpecSizeProblem(platform, n) === null);
};

describe('the sizes apps.spec samples', () => {
  it('are those the README lists, from 12 to 64 nodes, and the refusal of another names the spec line', () => {
    expect(sampled('cm5')).toEqual([16, 32, 64]);
    expect(sampled('atm')).toEqual([12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64]);
    expect(appSpecSizeProblem(loadTestPlatform('atm'), 128)).toMatch(/^apps\/calibration\/apps\.spec:\d+: model StencilSquare on atm with 128 nodes: /);
    // "input height is NaN at sample a=6 b=6 t=1" named no cause.
    expect(appSpecSizeProblem(loadTestPlatform('atm'), 8)).toMatch(/ is NaN at sample [^(]*\(a division by zero, .*\?\)$/);
  });
});
