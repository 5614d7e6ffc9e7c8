/**
 * The critical chain of a stencil iteration (src/calibrate/stencil-chain.ts): the points an
 * update visits, and the time an uneven grid saves against its models' grid, worked out
 * from the platform's costs alone, beside the simulator's own runs; and the bound that
 * keeps a model from making an uneven grid faster than the even grid of its fast blocks.
 */
import { describe, expect, it } from 'vitest';
import { colourPoints } from '../../apps/stencil/costs.ts';
import stencil from '../../apps/stencil/index.ts';
import { chainCosts, chainCycles, longestChain, type ChainTree } from '../../src/calibrate/stencil-chain.ts';
import { loadModelSet } from '../../src/cli/model-files.ts';
import { select, selectContext } from '../../src/library/module.ts';
import { STENCIL_MODULE, stencilColumns, stencilCycles, stencilFactsOf } from '../../src/library/stencil-module.ts';
import { blockTransferWords } from '../../src/platform/packets.ts';
import { runApp, runConfig } from '../../src/runtime/index.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** Cycles per iteration of `layout` on a `width` x `height` grid, 64 nodes of `platform`: the timed runs of 4 and 1 iterations apart. */
function iterationCycles(platform: 'alewife' | 'paragon' | 'atm', layout: string, width: number, height: number): number {
  const cycles = (iters: number) => {
    const params = [`layout=${layout}`, `width=${width}`, `height=${height}`, `iters=${iters}`];
    const summary = runApp(runConfig(loadTestPlatform(platform), stencil, { params, nodes: 64, seed: 1, network: 'packet' }));
    expect(summary.verified).toBe(true);
    return summary.metrics.cycles as number;
  };
  return (cycles(4) - cycles(1)) / 3;
}

describe('the stencil critical chain', () => {
  it('counts the points of each colour an update changes: the interior points with x + y of that parity', () => {
    const brute = (x0: number, y0: number, w: number, h: number, width: number, height: number, colour: number) => {
      let n = 0;
      for (let x = Math.max(1, x0); x < Math.min(x0 + w, width - 1); x++) {
        for (let y = Math.max(1, y0); y < Math.min(y0 + h, height - 1); y++) if (((x + y) & 1) === colour) n++;
      }
      return n;
    };
    // Every block of up to 6 x 6 lines at every offset of a 12 x 11 grid, both colours, and a few large ones.
    for (let x0 = 0; x0 < 12; x0++) {
      for (let y0 = 0; y0 < 11; y0++) {
        for (let w = 1; w <= Math.min(6, 12 - x0); w++) {
          for (let h = 1; h <= Math.min(6, 11 - y0); h++) {
            for (const colour of [0, 1]) expect(colourPoints(x0, y0, w, h, 12, 11, colour), `${w} x ${h} at (${x0}, ${y0})`).toBe(brute(x0, y0, w, h, 12, 11, colour));
          }
        }
      }
    }
    for (const colour of [0, 1]) expect(colourPoints(100, 0, 257, 93, 4096, 93, colour)).toBe(brute(100, 0, 257, 93, 4096, 93, colour));
  });

  it('puts a tree level at an injection, a link crossing and a receive (Alewife 115 cycles, the Paragon 161)', () => {
    // Alewife: 20 + 30 + 10 + 2 x 1.28 + 45 + 7 (Appendix A 7; platforms/alewife.json); the Paragon: 60 + 30 + 4 + 10 + 50 + 7.
    expect(chainCosts(loadTestPlatform('alewife')).chainHopCycles).toBeCloseTo(114.56, 9);
    expect(chainCosts(loadTestPlatform('paragon')).chainHopCycles).toBe(161);
  });

  it('predicts what uneven strips save against the even grid of their slowest blocks, within 100 cycles an iteration', () => {
    for (const platform of ['alewife', 'paragon'] as const) {
      const costs = chainCosts(loadTestPlatform(platform));
      const words = blockTransferWords(loadTestPlatform(platform).messaging);
      const even = iterationCycles(platform, 'vstrips', 256, 27);
      // 255 columns: node 63, the deepest, is fast, but its neighbour is not, and nothing is saved; 241, 225, 209: 49, 33
      // and 17 nodes hold the extra column. Measured 0, 91, 183, 418 on Alewife (predicted 0, 115, 115, 344) and 0, 192,
      // 253, 501 on the Paragon (0, 161, 161, 483): the chain leaves out the edges' contention on shared links.
      for (const width of [255, 241, 225, 209]) {
        const measured = even - iterationCycles(platform, 'vstrips', width, 27);
        const predicted = chainCycles(256, 27, 64, 1, words, costs) - chainCycles(width, 27, 64, 1, words, costs);
        expect(Math.abs(predicted - measured), `${platform} ${width} x 27: predicted ${predicted}, measured ${measured}`).toBeLessThanOrEqual(100);
      }
    }
  });

  it("counts the tree's sends one after another where that decides (the ATM, 64 nodes; the extra lines' chain)", () => {
    const atm = loadTestPlatform('atm');
    const costs = chainCosts(atm);
    const words = blockTransferWords(atm.messaging);
    // Square blocks, 81 x 81 against the even 88 x 88 of its slowest blocks (11 x 11):
    // the first processor column and row hold them, the other 7 x 7 nodes 10 x 10. With
    // the ATM's 1,110 cycles a send, when a node can go on after a reduction matters: it
    // sends the result to its children largest subtree first and goes on once it has
    // sent them all. Measured, 81 x 81 saves 5,750 cycles an iteration; counting the
    // sends the chain says 5,780, counting levels (the result reaching node j popcount(j)
    // levels down, j going on at once) 6,480.
    const chain = (width: number, height: number, tree: ChainTree) => longestChain({ width, height, px: 8, py: 8, extraRows: 0, extraCols: 0, tree }, words, costs).cycles;
    const measured = iterationCycles('atm', 'square', 88, 88) - iterationCycles('atm', 'square', 81, 81);
    const sendsOff = Math.abs(chain(88, 88, 'sends') - chain(81, 81, 'sends') - measured);
    const levelsOff = Math.abs(chain(88, 88, 'levels') - chain(81, 81, 'levels') - measured);
    expect(sendsOff).toBeLessThanOrEqual(costs.chainHopCycles / 10);
    expect(levelsOff).toBeGreaterThan(5 * sendsOff);
    // chainCycles, the models' term, counts levels.
    expect(chainCycles(81, 81, 8, 8, words, costs)).toBe(chain(81, 81, 'levels'));
  });

  it('is bounded below: no uneven grid is predicted faster than the even grid of its fast blocks (stencilCycles)', () => {
    const alewife = loadTestPlatform('alewife');
    const cycles = (width: number) => {
      const params = ['layout=vstrips', `width=${width}`, 'height=27', 'iters=4'];
      const summary = runApp(runConfig(alewife, stencil, { params, nodes: 64, seed: 1, network: 'packet' }));
      expect(summary.verified).toBe(true);
      return summary.metrics.cycles as number;
    };
    // 64 vstrips of 27 rows: with 194 columns nodes 0 and 1 hold 4 and the rest 3, and the run takes no less than 192's.
    expect(cycles(194)).toBeGreaterThanOrEqual(cycles(192));
    // A model whose saving term overshoots (here twice the chain's) would have 194 faster than 192: the bound holds it at 192's.
    const facts = stencilFactsOf(alewife);
    const at = (c: Record<string, number>) => 1500 * c.iter - 0.74 * c.iter_w + 0.485 * c.iter_wh - 2 * c.iter_chain;
    const even = at(stencilColumns(192, 27, 4, 64, 1, facts));
    expect(at(stencilColumns(194, 27, 4, 64, 1, facts))).toBeLessThan(even);
    expect(stencilCycles(at, 194, 27, 4, 64, 1, facts)).toBe(even);
    // Where the uneven grid stays slower, and on even grids, it is the model's own value.
    expect(stencilCycles(at, 250, 27, 4, 64, 1, facts)).toBe(at(stencilColumns(250, 27, 4, 64, 1, facts)));
    expect(stencilCycles(at, 256, 27, 4, 64, 1, facts)).toBe(at(stencilColumns(256, 27, 4, 64, 1, facts)));
  });

  it('remembers each grid under its own key: the same cycles as working the chain out, past the memory clearing and past the keyed sizes', () => {
    const costs = chainCosts(loadTestPlatform('alewife'));
    const worked = (w: number, h: number, px: number, py: number, tree: ChainTree) => longestChain({ width: w, height: h, px, py, extraRows: 0, extraCols: 0, tree }, 16, costs).cycles;
    // 5,000 grids asked twice on four shapes that share sides (more than the 4,096 remembered), so
    // a key that mixed up a side, a processor grid or the tree would answer with another's cycles.
    for (let pass = 0; pass < 2; pass++) {
      for (let k = 0; k < 1250; k++) {
        const w = 64 + k;
        const h = 64 + ((k * 7) % 1000);
        expect(chainCycles(w, h, 8, 8, 16, costs)).toBe(worked(w, h, 8, 8, 'levels'));
        expect(chainCycles(w, h, 8, 8, 16, costs, false)).toBe(worked(w, h, 8, 8, 'none'));
        expect(chainCycles(h, w, 8, 8, 16, costs)).toBe(worked(h, w, 8, 8, 'levels'));
        expect(chainCycles(w, h, 16, 4, 16, costs)).toBe(worked(w, h, 16, 4, 'levels'));
      }
    }
    expect(chainCycles(70000, 9, 64, 1, 16, costs)).toBe(worked(70000, 9, 64, 1, 'levels'));
  });

  it('is a column of the shipped models where reductions climb a tree, and 0 on a control network (the CM-5)', () => {
    const alewife = stencilColumns(250, 27, 3, 64, 1, stencilFactsOf(loadTestPlatform('alewife')));
    const costs = chainCosts(loadTestPlatform('alewife'));
    expect(alewife.iter_chain).toBe(3 * (chainCycles(256, 27, 64, 1, 64, costs) - chainCycles(250, 27, 64, 1, 64, costs)));
    expect(stencilColumns(250, 27, 3, 64, 1, stencilFactsOf(loadTestPlatform('cm5'))).iter_chain).toBe(0);
  });

  it("is added at its own cycles with a control network: the CM-5's 8 x 17, whose top blocks are the slowest, goes to rect, the fastest", () => {
    const cm5 = loadTestPlatform('cm5');
    const facts = stencilFactsOf(cm5);
    const cycles = (layout: string, height: number) => {
      const params = [...layout.split(' '), 'width=8', `height=${height}`, 'iters=4'];
      const summary = runApp(runConfig(cm5, stencil, { params, nodes: 64, seed: 1, network: 'packet' }));
      expect(summary.verified).toBe(true);
      return summary.metrics.cycles as number;
    };
    // 17 rows on 8 processor rows: the models see 16 (slowestLines: a remainder of one to a
    // boundary block with time to spare), but the top blocks' third row takes their 4-word
    // column edges to two packets, and an iteration is 330 cycles longer than 8 x 16's.
    expect(stencilColumns(8, 17, 4, 8, 8, facts).height).toBe(16);
    expect((cycles('layout=square', 17) - cycles('layout=square', 16)) / 4).toBeGreaterThan(300);
    const none = (height: number) => chainCycles(8, height, 8, 8, 4, chainCosts(cm5), false);
    const at = (c: Record<string, number>) => 1000 * c.iter + 50 * c.iter_h;
    expect(stencilCycles(at, 8, 17, 4, 8, 8, facts) - stencilCycles(at, 8, 16, 4, 8, 8, facts)).toBe(4 * (none(17) - none(16)));
    expect(none(17) - none(16)).toBeGreaterThan(200);
    // So the selector leaves the square (17% slower, measured) for rect's 4 x 16 processors.
    const choice = select(STENCIL_MODULE, { width: 8, height: 17, iters: 4 }, selectContext(cm5, 64, loadModelSet(cm5, 64)));
    expect(choice.variant).toBe('rect');
    expect(choice.params.aspect).toBe(0.25);
    expect(cycles('layout=rect aspect=0.25', 17)).toBeLessThan(cycles('layout=square', 17));
  });
});
