/** The library evaluates models on columns it computes itself; they must be the spec's (apps/calibration/apps.spec). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planUnit } from '../../src/calibrate/samples.ts';
import { parseSpecs } from '../../src/calibrate/spec.ts';
import { radixColumns, sampleColumns } from '../../src/library/sort-module.ts';
import { processorGrid } from '../../apps/stencil/grid.ts';
import { rectModel, stencilColumns, stencilFactsOf } from '../../src/library/stencil-module.ts';
import { blockTransferWords, combineChunkWords, combinesOverTree } from '../../src/platform/packets.ts';
import type { Platform } from '../../src/platform/schema.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { ROOT } from '../support/sim-cli.ts';

const SPECS = parseSpecs(readFileSync(join(ROOT, 'apps/calibration/apps.spec'), 'utf8'), 'apps.spec');

const PARAGON = loadTestPlatform('paragon');
/** The CM-5 reduces on its control network: no tree levels to count. */
const CM5 = loadTestPlatform('cm5');
/** Alewife's block transfers are DMA packets: its column edges queue (iter_colQueue). */
const ALEWIFE = loadTestPlatform('alewife');

/**
 * The library's columns for a sample, from the spec's own input values (the stencil's
 * from the true grid the task runs, since the spec's width and height are the slowest
 * block's, padded: the library pads the true grid the same way, and the combining tree's
 * slack depends on where the true grid's remainder falls).
 */
function libraryColumns(platform: Platform, name: string, v: Record<string, number>, task: readonly number[], nodes: number): Record<string, number> {
  if (name.startsWith('Stencil')) {
    const { px, py } = stencilGrid(name, nodes);
    return stencilColumns(task[0], task[1], task[2], px, py, stencilFactsOf(platform));
  }
  if (name === 'RadixSort') return radixColumns(v.keys, v.bpd, v.width, nodes, combineChunkWords(platform));
  return sampleColumns(v.keys, v.width, nodes);
}

/** The processor grid a stencil model is calibrated on. */
function stencilGrid(name: string, nodes: number): { px: number; py: number } {
  const layout = name.replace('Stencil', '').toLowerCase();
  if (layout === 'square' || layout === 'vstrips' || layout === 'hstrips' || layout === 'uni') return processorGrid(layout, nodes, 1);
  const n = Number(name.slice(-1));
  return name.startsWith('StencilRectCols') ? { px: n, py: nodes / n } : { px: nodes / n, py: n };
}

describe('every rect model names a processor grid the library maps to it', () => {
  it('on 64 nodes', () => {
    for (const [px, py] of [[2, 32], [4, 16], [16, 4], [32, 2]]) expect(stencilGrid(rectModel(px, py)!, 64)).toEqual({ px, py });
    expect(rectModel(8, 8)).toBeNull();
  });
});

describe('the library computes every model column as apps.spec does', () => {
  for (const [platform, nodes] of [16, 32, 64].flatMap((n) => [[PARAGON, n], [CM5, n], [ALEWIFE, n]] as const)) {
    it(`on the ${platform.name} at ${nodes} nodes`, () => {
      let chainSaved = 0;
      let queued = 0;
      for (const spec of SPECS) {
        const names = [...spec.inputs.map((i) => i.id), ...spec.terms.map((t) => t.id)];
        for (const s of planUnit({ platform, spec, source: 'apps.spec', nodes, seed: 1, vcount: 10 })) {
          const values = Object.fromEntries(names.map((n, k) => [n, s.columns[k]]));
          chainSaved += Math.abs(values.iter_chain ?? 0);
          queued += values.iter_colQueue ?? 0;
          const mine = libraryColumns(platform, spec.name, values, s.task, nodes);
          for (const n of names) expect(mine[n], `${spec.name} ${n} at ${JSON.stringify(values)} (task ${s.task.join(', ')})`).toBeCloseTo(values[n], 6);
        }
      }
      // The uneven samples' chains differ from their models' grids'; a control network has no tree.
      if (combinesOverTree(platform)) expect(chainSaved).toBeGreaterThan(0);
      else expect(chainSaved).toBe(0);
      // Only DMA packets queue so: some samples' column edges are one packet long enough to wait.
      if (platform.messaging.dma !== null) expect(queued).toBeGreaterThan(0);
      else expect(queued).toBe(0);
    });
  }
});

describe('a stencil model that counts its edges\' packets', () => {
  // A spec a user could write: vstrips with the packets of its column edges (2 words a line, whole edges), on 16 nodes.
  const [spec] = parseSpecs(
    '{{ a 8 40 +=5, t 1 2 +=1 @ @ StencilVstrips(P*a,a,iter) @ @ width:P*a, height:a, iter:t @ iter_colPackets:iter*ceil(2*height/xferWords) }}',
    'packets.spec',
  );
  it('has the same columns in the spec (xferWords) and the library, with Xfer packets and with DMA', () => {
    for (const [name, words] of [['paragon', 20], ['cm5', 4], ['alewife', 64]] as const) {
      const platform = loadTestPlatform(name);
      expect(blockTransferWords(platform.messaging)).toBe(words);
      const planned = planUnit({ platform, spec, source: 'packets.spec', nodes: 16, seed: 1, vcount: 3 });
      expect(planned.length).toBeGreaterThan(10);
      for (const s of planned) {
        const [width, height, iter, packets] = s.columns;
        const mine = stencilColumns(s.task[0], s.task[1], s.task[2], 16, 1, stencilFactsOf(platform));
        expect([mine.width, mine.height, mine.iter, mine.iter_colPackets]).toEqual([width, height, iter, packets]);
        expect(packets).toBe(iter * Math.ceil((2 * height) / words));
        // Strips have no neighbours above or below: no row packets.
        expect(mine.iter_rowPackets).toBe(0);
      }
    }
  });
  it('are absent without a packet size, so models of eq. 33 alone see the same columns as before', () => {
    expect(Object.keys(stencilColumns(100, 100, 2, 8, 8))).toEqual(['width', 'height', 'iter', 'wh', 'iter_w', 'iter_h', 'iter_wh']);
    // A square block of 13 x 13 lines on 8 x 8: a column edge is 26 words, two 20-word
    // packets each half; a row edge goes one colour at a time, 7 points (14 words) in one
    // half and 6 in the other, one packet each: two an iteration. A block one column wide
    // sends its one point in one half and nothing in the other.
    const facts = { ...stencilFactsOf(loadTestPlatform('paragon')), xferWords: 20, combineTree: true, dmaWordCycles: 0, dmaReceiveCycles: 0 };
    expect(stencilColumns(104, 104, 3, 8, 8, facts)).toMatchObject({ iter_colPackets: 6, iter_rowPackets: 6 });
    expect(stencilColumns(8, 104, 3, 8, 8, facts)).toMatchObject({ iter_rowPackets: 3 });
    expect(stencilColumns(16, 104, 3, 8, 8, facts)).toMatchObject({ iter_rowPackets: 6 });
  });
});
