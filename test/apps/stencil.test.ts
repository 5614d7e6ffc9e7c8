import { describe, expect, it } from 'vitest';
import stencil from '../../apps/stencil/index.ts';
import { partition, processorGrid, split } from '../../apps/stencil/grid.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform, PLATFORM_NAMES, type PlatformName } from '../support/platforms.ts';

function run(platform: PlatformName, nodes: number, params: string[]) {
  return runApp(runConfig(loadTestPlatform(platform), stencil, { params, nodes, seed: 3, network: 'packet' }));
}

const perIteration = (s: ReturnType<typeof run>) => s.metrics.cyclesPerIteration as number;

describe('stencil layouts (thesis 4.4, 5.2)', () => {
  it('picks processor grids: near-square, strips, and rectangles of a given aspect', () => {
    expect(processorGrid('square', 64, 4)).toEqual({ px: 8, py: 8 });
    expect(processorGrid('square', 32, 4)).toEqual({ px: 8, py: 4 });
    expect(processorGrid('rect', 64, 4)).toEqual({ px: 16, py: 4 });
    expect(processorGrid('rect', 64, 0.25)).toEqual({ px: 4, py: 16 });
    expect(processorGrid('vstrips', 16, 4)).toEqual({ px: 16, py: 1 });
    expect(processorGrid('hstrips', 16, 4)).toEqual({ px: 1, py: 16 });
    expect(processorGrid('uni', 16, 4)).toEqual({ px: 1, py: 1 });
  });

  it('gives boundary processors their extra lines and spreads the remainder', () => {
    expect(split(100, 4, 0)).toEqual([25, 25, 25, 25]);
    expect(split(102, 4, 0)).toEqual([26, 26, 25, 25]);
    expect(split(100, 4, 5)).toEqual([28, 23, 22, 27]);
    expect(split(10, 1, 3)).toEqual([10]);
    expect(split(7, 8, 0)).toBeNull();
  });

  it('refuses shapes a layout cannot handle, with the reason', () => {
    expect(partition('vstrips', 64, 32, 100, 4, 0, 0)).toBe('layout vstrips puts 64 processors across 32 columns; expected at least one column each');
    expect(() => run('cm5', 16, ['layout=hstrips', 'height=10'])).toThrow(InputError);
    expect(() => run('cm5', 16, ['layout=hstrips', 'height=10'])).toThrow(/puts 16 processors down 10 rows/);
  });

  it('sets every port up before the first barrier, so DMA edges from a node that left it first have somewhere to land', () => {
    // 2 x 2 blocks on a 64-node Alewife: a neighbour's DMA'd edge used to reach node 57
    // before it had given its ports a base ("block data arrived at port 0, which has no base").
    expect(run('alewife', 64, ['width=16', 'height=16', 'iters=1']).verified).toBe(true);
  });
});

describe('stencil verifies bit for bit against the sequential solve', () => {
  it.each(PLATFORM_NAMES)('on %s, for every layout, with extra boundary lines', (platform) => {
    for (const params of [
      ['layout=square'],
      ['layout=vstrips', 'extraCols=1'],
      ['layout=hstrips', 'height=70', 'extraRows=2'],
      ['layout=uni'],
      ['layout=rect', 'aspect=4', 'extraCols=2', 'extraRows=1'],
    ]) {
      const s = run(platform, 16, ['width=41', 'height=37', 'iters=3', ...params]);
      expect(s.verified, `${params.join(' ')}: ${s.verification}`).toBe(true);
    }
  });

  it('stops when an iteration changes no point by more than the tolerance, as the reference does', () => {
    const s = run('paragon', 16, ['width=24', 'height=24', 'iters=500', 'tolerance=0.001']);
    expect(s.verified, s.verification).toBe(true);
    expect(s.metrics.iterations).toBeLessThan(500);
    expect(s.metrics.iterations).toBeGreaterThan(5);
  });
});

describe('the shapes of thesis Fig. 4-7 on 64-node machines', () => {
  it('vertical strips beat square blocks for a short, wide grid on the ATM network (high start-up cost)', () => {
    const grid = ['width=4096', 'height=64', 'iters=2'];
    expect(perIteration(run('atm', 64, [...grid, 'layout=vstrips']))).toBeLessThan(perIteration(run('atm', 64, [...grid, 'layout=square'])));
  });

  it('square blocks beat vertical strips for a 512 x 512 grid on Alewife (less data to move)', () => {
    const grid = ['width=512', 'height=512', 'iters=2'];
    expect(perIteration(run('alewife', 64, [...grid, 'layout=square']))).toBeLessThan(perIteration(run('alewife', 64, [...grid, 'layout=vstrips'])));
  });
});
