/**
 * Thesis chapter 4 shapes on 64-node machines (issue 5): the stencil layouts of
 * Fig. 4-7 and the radix-sort / sample-sort crossover of Table 4-4, in simulated
 * cycles, with the winner of each comparison.
 */
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp } from '../src/runtime/run-app.ts';
import { fmt, printRows } from './harness.ts';

const PLATFORMS = ['cm5', 'alewife', 'paragon', 'atm'];

async function cycles(appPath: string, platform: string, params: string[]): Promise<number> {
  const s = runApp(await loadRun({ platform, app: appPath, params, nodes: 64, seed: 1, network: 'packet' }));
  if (!s.verified) throw new Error(`${appPath} ${params.join(' ')} on ${platform}: ${s.verification}`);
  return appPath.endsWith('stencil') ? (s.metrics.cyclesPerIteration as number) : (s.metrics.cycles as number);
}

export async function chapter4Bench(): Promise<void> {
  const stencilRows: [string, string][] = [];
  for (const [platform, width, height, expected] of [
    ['atm', 4096, 64, 'vstrips'],
    ['alewife', 512, 512, 'square'],
  ] as const) {
    const grid = [`width=${width}`, `height=${height}`, 'iters=3'];
    const square = await cycles('apps/stencil', platform, [...grid, 'layout=square']);
    const strips = await cycles('apps/stencil', platform, [...grid, 'layout=vstrips']);
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
      const radix = new Map<number, number>();
      for (const digitBits of [4, 6, 8, 10, 11, 14]) radix.set(digitBits, await cycles('apps/radix-sort', platform, [`keys=${keys}`, `digitBits=${digitBits}`]));
      const sample = await cycles('apps/sample-sort', platform, [`keys=${keys}`]);
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
