/**
 * The combining tree's slack (src/library/stencil-module.ts treeSlack): where an uneven
 * grid puts the slowest blocks near the root of the Max reduction every iteration ends
 * with, an iteration is shorter by hops the model did not see before; and the bound
 * (stencilCycles) that keeps the term from making an uneven grid faster than the even
 * grid of its fast blocks.
 */
import { describe, expect, it } from 'vitest';
import stencil from '../../apps/stencil/index.ts';
import { runApp, runConfig } from '../../src/runtime/index.ts';
import { stencilColumns, stencilCycles, treeSlack } from '../../src/library/stencil-module.ts';
import { packetFacts } from '../../src/platform/packets.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** Cycles per iteration of the square stencil on 16 nodes of Alewife (4 x 4 processors): the app's timed runs of 4 and of 1 iterations apart. */
function squareCyclesPerIteration(width: number, height: number): number {
  const cycles = (iters: number) => {
    const params = ['layout=square', `width=${width}`, `height=${height}`, `iters=${iters}`];
    const summary = runApp(runConfig(loadTestPlatform('alewife'), stencil, { params, nodes: 16, seed: 1, network: 'packet' }));
    expect(summary.verified).toBe(true);
    return summary.metrics.cycles as number;
  };
  return (cycles(4) - cycles(1)) / 3;
}

describe('treeSlack', () => {
  it('counts the levels between the deepest node and the deepest node holding a slowest block', () => {
    // Even grids: a slowest block sits on every node, node 15 among them (4 levels down on 16).
    expect(treeSlack(64, 64, 4, 4)).toBe(0);
    // 62 = 4 x 15 + 2: the first two processor columns and rows, nodes 0, 1, 4 and 5, hold 16 x 16; node 5 is 2 levels down.
    expect(treeSlack(62, 62, 4, 4)).toBe(2);
    // A remainder of one on three or more parts is the boundary's and does not count (slowestLines): the interior's blocks are everywhere.
    expect(treeSlack(61, 64, 4, 4)).toBe(0);
    // Two parts: a remainder of one counts (both are boundaries), and its holder, processor column 0, is a level above column 1.
    // Strips of 64: 229 = 3 x 64 + 37 gives the extra line to nodes 0..36, the deepest of which (31) is 5 levels down, one above 63;
    // 195 gives it to nodes 0..2, one level down.
    expect(treeSlack(63, 64, 2, 8)).toBe(1);
    expect(treeSlack(64 * 3 + 37, 10, 64, 1)).toBe(1);
    expect(treeSlack(64 * 3 + 3, 10, 64, 1)).toBe(5);
    expect(treeSlack(100, 100, 1, 1)).toBe(0);
  });

  it('is a column of the shipped models, times the iterations, where reductions climb a tree (none on a control network)', () => {
    expect(stencilColumns(62, 62, 3, 4, 4, { xferWords: 64, combineTree: true, dmaWordCycles: 0, dmaReceiveCycles: 0 }).iter_treeSlack).toBe(6);
    expect(stencilColumns(62, 62, 3, 4, 4, { xferWords: 4, combineTree: false, dmaWordCycles: 0, dmaReceiveCycles: 0 }).iter_treeSlack).toBe(0);
  });

  it('is time a 16-node Alewife square saves every iteration: 62 x 62 has 64 x 64\'s slowest blocks, 2 levels nearer the root', () => {
    const even = squareCyclesPerIteration(64, 64);
    const uneven = squareCyclesPerIteration(62, 62);
    // Per level and iteration, at least the reduction message's receive overhead (Alewife's 45 cycles, Appendix A) the slowest node's value no longer waits for.
    expect(uneven).toBeLessThan(even);
    expect((even - uneven) / treeSlack(62, 62, 4, 4)).toBeGreaterThan(loadTestPlatform('alewife').messaging.receiveOverheadCycles);
  });

  it('never has an uneven grid run faster than the even grid of its fast blocks (stencilCycles)', () => {
    const alewife = loadTestPlatform('alewife');
    const cycles = (width: number) => {
      const params = ['layout=vstrips', `width=${width}`, 'height=27', 'iters=4'];
      const summary = runApp(runConfig(alewife, stencil, { params, nodes: 64, seed: 1, network: 'packet' }));
      expect(summary.verified).toBe(true);
      return summary.metrics.cycles as number;
    };
    // 64 vstrips of 27 rows: with 194 columns nodes 0 and 1 hold 4 and the rest 3, and the run takes no less than 192's.
    expect(cycles(194)).toBeGreaterThanOrEqual(cycles(192));
    // Alewife's fitted vstrips model at 64 nodes, the terms that differ between the two: a column of 64 x 27 points adds
    // 838 - 47 cycles an iteration (0.485 a point, -0.74 a column), and 194's 5 levels saved take off 5 x 166 = 830, so it
    // would have 194 run faster than 192. The bound holds it at 192's.
    const facts = packetFacts(alewife);
    const at = (c: Record<string, number>) => 1549 * c.iter - 0.74 * c.iter_w + 0.485 * c.iter_wh - 166 * c.iter_treeSlack;
    const even = at(stencilColumns(192, 27, 4, 64, 1, facts));
    expect(at(stencilColumns(194, 27, 4, 64, 1, facts))).toBeLessThan(even);
    expect(stencilCycles(at, 194, 27, 4, 64, 1, facts)).toBe(even);
    // Where the term leaves the uneven grid slower (a few levels saved), and on even grids, it is the model's own value.
    expect(stencilCycles(at, 250, 27, 4, 64, 1, facts)).toBe(at(stencilColumns(250, 27, 4, 64, 1, facts)));
    expect(stencilCycles(at, 256, 27, 4, 64, 1, facts)).toBe(at(stencilColumns(256, 27, 4, 64, 1, facts)));
  });
});
