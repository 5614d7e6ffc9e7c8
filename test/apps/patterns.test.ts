import { describe, expect, it } from 'vitest';
import patterns from '../../apps/patterns/index.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { parseParams } from '../../src/runtime/app.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { loadTestPlatform, PLATFORM_NAMES, type PlatformName } from '../support/platforms.ts';

function run(platform: PlatformName, nodes: number, params: string[], seed = 1) {
  return runApp({ platform: loadTestPlatform(platform), app: patterns, params: parseParams(patterns, params), nodes, seed, network: 'packet' });
}

const mbps = (s: ReturnType<typeof run>) => s.metrics.mbPerSecPerNode as number;

describe('patterns', () => {
  it.each(PLATFORM_NAMES)('moves every block intact on %s for all three patterns', (platform) => {
    for (const pattern of ['cshift', 'exchange', 'random']) {
      const s = run(platform, 16, [`pattern=${pattern}`, 'blockBytes=400', 'shift=5']);
      expect(s.verified, `${pattern}: ${s.verification}`).toBe(true);
    }
  });

  it('shows the shape of thesis Fig. 7-5 on a 16-node CM-5: random targets are far slower than permutations', () => {
    const cshift = mbps(run('cm5', 16, ['pattern=cshift', 'blockBytes=1024']));
    const exchange = mbps(run('cm5', 16, ['pattern=exchange', 'blockBytes=1024']));
    expect(Math.abs(cshift - exchange) / cshift).toBeLessThan(0.15);
    for (const seed of [1, 2, 3]) {
      const random = mbps(run('cm5', 16, ['pattern=random', 'blockBytes=1024'], seed));
      expect(Math.min(cshift, exchange) / random).toBeGreaterThan(1.8);
    }
  });

  it('refuses block sizes that are not whole words and exchanges it cannot do', () => {
    expect(() => run('cm5', 16, ['blockBytes=10'])).toThrow(InputError);
    expect(() => run('atm', 6, ['pattern=exchange'])).toThrow(/needs a power-of-two node count, got 6/);
  });
});
