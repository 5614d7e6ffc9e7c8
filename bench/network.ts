/**
 * Network benchmark (issue 3): thesis Fig. 7-5 on a 64-node CM-5 with 4 KB block
 * transfers (random targets vs the cshift-by-4 and exchange permutations; one poll per
 * packet as the figure's Strata ran, and polling until empty beside it), and a 1024-node
 * CM-5 cyclic shift of 4 KB blocks with its wall time, events/s and peak memory.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fmt, fmt2, median, printRows } from './harness.ts';

interface ChildSummary {
  simulatedCycles: number;
  events: number;
  verified: boolean;
  metrics: { mbPerSecPerNode: number };
  wallMs: number;
  peakRssMB: number;
}

function runChild(nodes: number, seed: number, params: string[]): ChildSummary {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'run-child.ts'), 'cm5', 'apps/patterns', String(nodes), String(seed), ...params], {
    cwd: join(import.meta.dirname, '..'),
  });
  const s = JSON.parse(out.toString()) as ChildSummary;
  if (!s.verified) throw new Error(`patterns ${params.join(' ')} did not verify`);
  return s;
}

export async function networkBench(): Promise<void> {
  const seeds = [1, 2, 3, 4, 5];
  const bw = (pattern: string, poll: string) =>
    median(seeds.map((seed) => runChild(64, seed, [`pattern=${pattern}`, 'blockBytes=4096', `poll=${poll}`]).metrics.mbPerSecPerNode));
  // The figure's permutations "approach the bandwidth limit of 5.3 megabytes per second"
  // (7.2): the "block-transfer upper bound" that Strata reaches with bandwidth matching
  // and one poll per packet, and that polling until empty stays about 10% below (both
  // 7.3.3). So the figure is measured with one poll per packet, as Fig. 7-6's Strata
  // curves are (bench/sweeps/chapter7.ts); polling until empty is printed beside it.
  for (const poll of ['once', 'empty']) {
    const cshift = bw('cshift', poll);
    const exchange = bw('exchange', poll);
    const random = bw('random', poll);
    const target = poll === 'once' ? '; issue 22 target >= 3.2x' : '';
    printRows(`Thesis Fig. 7-5: 64-node CM-5, 4 KB blocks, packet network, ${poll === 'once' ? 'poll once' : 'poll until empty'} (median of 5 seeds)`, [
      ['cyclic shift by 4', `${fmt2.format(cshift)} MB/s per node`],
      ['hypercube exchange', `${fmt2.format(exchange)} MB/s per node`],
      ['random targets', `${fmt2.format(random)} MB/s per node`],
      ['random slowdown vs cshift', `${fmt2.format(cshift / random)}x  (thesis about 3.6x${target})`],
      ['random slowdown vs exchange', `${fmt2.format(exchange / random)}x`],
      ['exchange vs cshift', `${fmt2.format((Math.abs(exchange - cshift) / cshift) * 100)}% apart  (target within 15%)`],
    ]);
  }
  const big = runChild(1024, 1, ['pattern=cshift', 'blockBytes=4096']);
  printRows('1024-node CM-5 cyclic shift of 4 KB blocks', [
    ['simulated', `${fmt.format(big.simulatedCycles)} cycles`],
    ['wall time', `${fmt.format(big.wallMs)} ms`],
    ['events', `${fmt.format(big.events)} (${fmt.format(big.events / (big.wallMs / 1000))} events/s)`],
    ['peak memory', `${fmt.format(big.peakRssMB)} MB resident`],
  ]);
}
