/**
 * The queued column edges (src/library/stencil-module.ts, iter_colQueue): a node sends
 * its left column edge and then its right, and where each is one DMA packet the right
 * one waits in the injection FIFO behind the left; the model charges the wait beyond a
 * receiver's handling, and nothing where the edges take two packets or there is no DMA.
 */
import { describe, expect, it } from 'vitest';
import stencil from '../../apps/stencil/index.ts';
import { stencilColumns, stencilFactsOf } from '../../src/library/stencil-module.ts';
import { parsePlatform } from '../../src/platform/load-platform.ts';
import type { Platform } from '../../src/platform/schema.ts';
import { runApp, runConfig } from '../../src/runtime/index.ts';
import { editedPlatformText, loadTestPlatform } from '../support/platforms.ts';

const ALEWIFE = loadTestPlatform('alewife');
/** Alewife whose nodes can hold one packet for injection: a second edge waits in the sender, not in the FIFO. */
const ONE_SLOT = parsePlatform(editedPlatformText('alewife', (p) => (p.network.injectionBufferPackets = 1)), 'alewife, one injection slot');

/** Cycles per iteration of vertical strips 2 columns wide and `height` rows on 16 nodes: the timed runs of 4 and 1 iterations apart. */
function stripCyclesPerIteration(platform: Platform, height: number): number {
  const cycles = (iters: number) => {
    const params = ['layout=vstrips', 'width=32', `height=${height}`, `iters=${iters}`];
    const summary = runApp(runConfig(platform, stencil, { params, nodes: 16, seed: 1, network: 'packet' }));
    expect(summary.verified).toBe(true);
    return summary.metrics.cycles as number;
  };
  return (cycles(4) - cycles(1)) / 3;
}

describe('iter_colQueue', () => {
  it('charges a one-packet column edge its serialization beyond the receiver\'s handling, where there are two column neighbours', () => {
    const facts = stencilFactsOf(ALEWIFE);
    // Alewife: a word holds a 2-byte-per-cycle link 2 cycles; a receiver handles a DMA packet in 45 + 10 cycles (Appendix A 7.2).
    expect(facts).toMatchObject({ xferWords: 64, dmaWordCycles: 2, dmaReceiveCycles: 55 });
    const queue = (height: number, px = 16) => stencilColumns(px * 2, height, 3, px, 1, facts).iter_colQueue;
    expect(queue(8)).toBe(0); // 17 words hold the link 34 cycles: hidden
    expect(queue(16)).toBe(3 * (2 * 33 - 55));
    expect(queue(32)).toBe(3 * (2 * 65 - 55));
    expect(queue(33)).toBe(0); // 66 words: two packets, which alternate networks
    expect(queue(32, 2)).toBe(0); // two processor columns: one column neighbour each
    // Without DMA the processor sends every packet itself: no such queue.
    for (const name of ['paragon', 'atm', 'cm5'] as const) expect(stencilColumns(32, 32, 3, 16, 1, stencilFactsOf(loadTestPlatform(name))).iter_colQueue).toBe(0);
  });

  it('is time a 16-node Alewife strip spends while its edges are one packet, and not once they are two', () => {
    // The default two-slot injection buffer lets the right edge queue behind the left in the FIFO; with one slot the
    // sender holds it instead, polling meanwhile. Where the column is 0 (8 rows, hidden; 40 rows, two packets) the
    // two machines are within 40 cycles an iteration; where it is largest (28 and 32 rows) they differ by over 100.
    const gap = (height: number) => stripCyclesPerIteration(ALEWIFE, height) - stripCyclesPerIteration(ONE_SLOT, height);
    expect(Math.abs(gap(8))).toBeLessThan(40);
    expect(Math.abs(gap(40))).toBeLessThan(40);
    expect(gap(28)).toBeGreaterThan(100);
    expect(gap(32)).toBeGreaterThan(100);
  });
});
