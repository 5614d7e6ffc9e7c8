/**
 * Thesis chapter 4 shapes on 64-node machines (issue 5): the stencil layouts of
 * Fig. 4-7 and the radix-sort / sample-sort crossover of Table 4-4, in simulated
 * cycles, with the winner of each comparison. The runs are the sweep
 * bench/sweeps/chapter4.json, run by `sim sweep --workers 2`; every run must verify.
 */
import { join } from 'node:path';
import { fmt, printRows } from './harness.ts';
import { metric, runSweep } from './sweep-results.ts';

const PLATFORMS = ['cm5', 'alewife', 'paragon', 'atm'];
const DIGIT_BITS = [4, 6, 8, 10, 11, 14];

export async function chapter4Bench(): Promise<void> {
  const lines = runSweep(join(import.meta.dirname, 'sweeps/chapter4.json'), 2);
  const stencil = (platform: string, layout: string) => metric(lines, { app: 'apps/stencil', platform, params: { layout } }, 'cyclesPerIteration');
  const sortCycles = (app: string, platform: string, params: Record<string, number>) => metric(lines, { app, platform, params }, 'cycles');

  const stencilRows: [string, string][] = [];
  for (const [platform, width, height, expected] of [
    ['atm', 4096, 64, 'vstrips'],
    ['alewife', 512, 512, 'square'],
  ] as const) {
    const square = stencil(platform, 'square');
    const strips = stencil(platform, 'vstrips');
    const winner = square < strips ? 'square' : 'vstrips';
    stencilRows.push([
      `${platform}, ${width} x ${height}`,
      `square ${fmt.format(square)}, vstrips ${fmt.format(strips)} cycles per iteration: ${winner} wins (thesis Fig. 4-7: ${expected})`,
    ]);
  }
  printRows('Thesis Fig. 4-7: stencil layouts on 64 nodes', stencilRows);

  const sortRows: [string, string][] = [];
  for (const platform of PLATFORMS) {
    for (const keys of [100, 10000]) {
      const radix = new Map(DIGIT_BITS.map((digitBits) => [digitBits, sortCycles('apps/radix-sort', platform, { keys, digitBits })]));
      const sample = sortCycles('apps/sample-sort', platform, { keys });
      const best = [...radix.entries()].reduce((a, b) => (b[1] < a[1] ? b : a));
      const verdict =
        keys === 100
          ? `radix (4-bit digits) ${radix.get(4)! < sample ? 'beats' : 'LOSES TO'} sample sort`
          : `sample sort ${sample < best[1] ? 'beats' : 'LOSES TO'} every radix sort`;
      sortRows.push([
        `${platform}, ${keys} keys/node`,
        `sample ${fmt.format(sample)}; radix ${[...radix.entries()].map(([d, c]) => `${d}-bit ${fmt.format(c)}`).join(', ')} cycles: ${verdict}`,
      ]);
    }
  }
  printRows('Thesis Table 4-4 shape: 32-bit keys on 64 nodes', sortRows);
}
