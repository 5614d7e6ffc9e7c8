import { describe, expect, it } from 'vitest';
import stencil from '../../apps/stencil/index.ts';
import { initialGrid, partition, processorGrid, solveSequential, split, updateBlock } from '../../apps/stencil/grid.ts';
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

  it('sends a column edge whole and a row edge one colour at a time (4.4; eq. 38, "divided by two because of red-black ordering")', () => {
    // Two Paragon nodes, one iteration (two halves). Two more lines along the edge: a
    // column edge grows by 2 points, a row edge's colour by 1 each half (of 5 points one
    // colour has 3 and the other 2; of 7, 4 and 3). Each is one packet either way.
    const bytes = (layout: string, along: number) =>
      run('paragon', 2, [`layout=${layout}`, layout === 'vstrips' ? `height=${along}` : `width=${along}`, layout === 'vstrips' ? 'width=10' : 'height=10', 'iters=1']).bytesSent;
    const perPoint = 8 * 2 * 2; // a double, from each of the two nodes, in each half
    expect(bytes('vstrips', 7) - bytes('vstrips', 5)).toBe(2 * perPoint);
    expect(bytes('hstrips', 7) - bytes('hstrips', 5)).toBe(1 * perPoint);
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
      // Its own height where it gives one (a parameter twice with two values is refused).
      const s = run(platform, 16, ['width=41', ...(params.some((a) => a.startsWith('height=')) ? [] : ['height=37']), 'iters=3', ...params]);
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

/** Eq. 31's red-black sweep written point by point, as the thesis states it: the yardstick for the column loops. */
function sweepByPoints(u: Float64Array, W: number, H: number, omega: number): number {
  let maxDelta = 0;
  for (let color = 0; color < 2; color++) {
    for (let x = 1; x < W - 1; x++) {
      for (let y = 1; y < H - 1; y++) {
        if ((x + y) % 2 !== color) continue;
        const old = u[x * H + y];
        const v = omega * 0.25 * (u[x * H + y - 1] + u[x * H + y + 1] + u[(x + 1) * H + y] + u[(x - 1) * H + y]) + (1 - omega) * old;
        maxDelta = Math.max(maxDelta, Math.abs(v - old));
        u[x * H + y] = v;
      }
    }
  }
  return maxDelta;
}

describe('the red-black update (eq. 31)', () => {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;

  it('the reference solve sweeps red points, then black, every interior point by eq. 31', () => {
    for (const [W, H] of [[7, 5], [6, 9], [3, 3]]) {
      const grid = initialGrid(W, H, random);
      const expected = grid.values.slice();
      sweepByPoints(expected, W, H, 1.87);
      sweepByPoints(expected, W, H, 1.87);
      expect(solveSequential(grid, 1.87, 2, 0)).toBe(2);
      expect([...grid.values]).toEqual([...expected]);
    }
  });

  it("a node's block update is the same sweep on its part of the grid, ghost ring included, and counts its points", () => {
    // The whole 8 x 6 grid as one block at (0, 0), then its interior 4 x 3 block at (2, 1) inside a ghost ring.
    const W = 8;
    const H = 6;
    const grid = initialGrid(W, H, random);
    const whole = new Float64Array((W + 2) * (H + 2));
    for (let x = 0; x < W; x++) for (let y = 0; y < H; y++) whole[(x + 1) * (H + 2) + y + 1] = grid.values[x * H + y];
    const expected = grid.values.slice();
    let red = 0;
    for (let x = 1; x < W - 1; x++) for (let y = 1; y < H - 1; y++) if ((x + y) % 2 === 0) red++;
    const first = updateBlock(whole, { w: W, h: H, x0: 0, y0: 0, W, H }, 0, 1.5);
    const second = updateBlock(whole, { w: W, h: H, x0: 0, y0: 0, W, H }, 1, 1.5);
    expect(Math.max(first.maxDelta, second.maxDelta)).toBe(sweepByPoints(expected, W, H, 1.5));
    expect(first.points).toBe(red);
    expect(first.points + second.points).toBe((W - 2) * (H - 2));
    for (let x = 0; x < W; x++) for (let y = 0; y < H; y++) expect(whole[(x + 1) * (H + 2) + y + 1]).toBe(expected[x * H + y]);

    const [w, h, x0, y0] = [4, 3, 2, 1];
    const hh = h + 2;
    const block = new Float64Array((w + 2) * hh);
    for (let lx = 0; lx < w + 2; lx++) for (let ly = 0; ly < hh; ly++) block[lx * hh + ly] = grid.values[(x0 + lx - 1) * H + y0 + ly - 1];
    const part = grid.values.slice();
    const r = updateBlock(block, { w, h, x0, y0, W, H }, 1, 1.5);
    let changed = 0;
    for (let lx = 1; lx <= w; lx++) {
      for (let ly = 1; ly <= h; ly++) {
        const [x, y] = [x0 + lx - 1, y0 + ly - 1];
        const i = x * H + y;
        if ((x + y) % 2 === 1 && y >= 1 && y <= H - 2) {
          part[i] = 1.5 * 0.25 * (part[i - 1] + part[i + 1] + part[i + H] + part[i - H]) + (1 - 1.5) * part[i];
          changed++;
        }
        expect(block[lx * hh + ly]).toBe(part[i]);
      }
    }
    expect(r.points).toBe(changed);
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
