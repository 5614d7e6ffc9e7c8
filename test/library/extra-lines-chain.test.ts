/**
 * The square layout's extra rows by the shortest critical chain (src/library/extra-lines.ts
 * chainExtraLines, thesis 5.2), beside the simulator's own runs at 64 nodes: it sees the
 * split's integers, which eq. 40's continuous balance cannot, its tie rule picks the
 * measured best where the chain cannot tell values apart, and what it says the lines
 * save is what the square layout's prediction with them takes off.
 */
import { describe, expect, it } from 'vitest';
import stencil from '../../apps/stencil/index.ts';
import { chainCosts, longestChain } from '../../src/calibrate/stencil-chain.ts';
import { chainExtraLines, chainSaving } from '../../src/library/extra-lines.ts';
import { packetFacts } from '../../src/platform/packets.ts';
import { runApp, runConfig } from '../../src/runtime/index.ts';
import { loadTestPlatform } from '../support/platforms.ts';

type Name = 'cm5' | 'paragon';
const facts = (platform: Name) => {
  const p = loadTestPlatform(platform);
  return { ...packetFacts(p), ...chainCosts(p) };
};

/** Timed cycles of the square layout, 4 iterations on 64 nodes, with `extraRows` extra rows on each edge. */
function cycles(platform: Name, width: number, height: number, extraRows: number): number {
  const params = ['layout=square', `width=${width}`, `height=${height}`, 'iters=4', `extraRows=${extraRows}`];
  const summary = runApp(runConfig(loadTestPlatform(platform), stencil, { params, nodes: 64, seed: 1, network: 'packet' }));
  expect(summary.verified).toBe(true);
  return summary.metrics.cycles as number;
}

describe('extra lines by the shortest critical chain', () => {
  it('sees the split: on the CM-5, 200 x 200 takes the 4 extra rows that leave every interior node 24 rows, the measured best of 0..6', () => {
    const f = facts('cm5');
    expect(chainExtraLines(200, 200, 8, 8, f).extraRows).toBe(4);
    // 1-3 extra rows leave some interior nodes 25 rows, so the chain does not move; 4 leave none.
    const chain = (r: number) => longestChain({ width: 200, height: 200, px: 8, py: 8, extraRows: r, extraCols: 0, tree: 'none' }, f.xferWords, f).cycles;
    expect(new Set([0, 1, 2, 3].map(chain)).size).toBe(1);
    expect(chain(4)).toBeLessThan(chain(3));
    const measured = [0, 1, 2, 3, 4, 5, 6].map((r) => cycles('cm5', 200, 200, r));
    expect(measured.indexOf(Math.min(...measured))).toBe(4);
    // The chain says 4 rows save 1,298 cycles an iteration, measured 1,080: it counts a
    // bandwidth-matching delay after every edge packet, which a node skips when its
    // pacing poll finds packets to handle.
  });

  it('on the Paragon, 91 x 98: the fewer busiest nodes run faster where the chain cannot tell values apart, and the chain says what 4 extra rows save', () => {
    const f = facts('paragon');
    const at = (r: number) => longestChain({ width: 91, height: 98, px: 8, py: 8, extraRows: r, extraCols: 0, tree: 'sends' }, f.xferWords, f);
    // 1, 2 and 3 extra rows: the same chain and busiest work, 6, 5 and 3 interior
    // processor rows of 12 lines against 11 (12, 10 and 6 nodes of that work).
    expect(at(2).cycles).toBe(at(1).cycles);
    expect(at(3).cycles).toBe(at(1).cycles);
    expect(at(3).most).toBe(at(1).most);
    expect([1, 2, 3].map((r) => at(r).busiest)).toEqual([12, 10, 6]);
    const measured = [0, 1, 2, 3, 4, 5].map((r) => cycles('paragon', 91, 98, r));
    expect(measured[3]).toBeLessThan(measured[2]);
    expect(measured[2]).toBeLessThan(measured[1]);
    // The pick, 4, is the measured best of 0..5, and saves what the chain says within 5% (294 against 284 cycles an iteration).
    expect(chainExtraLines(91, 98, 8, 8, f).extraRows).toBe(4);
    expect(measured.indexOf(Math.min(...measured))).toBe(4);
    const saved = (measured[0] - measured[4]) / 4;
    expect(Math.abs(chainSaving(91, 98, 8, 8, 4, 0, f) / saved - 1)).toBeLessThan(0.05);
  });

  it('saves nothing without extra lines, and refuses a split that leaves an interior processor no line', () => {
    const f = facts('paragon');
    expect(chainSaving(91, 98, 8, 8, 0, 0, f)).toBe(0);
    expect(() => chainSaving(20, 20, 8, 8, 7, 0, f)).toThrow(/a 20 x 20 grid does not split over 8 x 8 processors with 7 extra rows and 0 extra columns/);
  });
});
