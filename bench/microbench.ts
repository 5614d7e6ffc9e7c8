/**
 * Thesis Fig. 6-6 on the simulator (issue 4): apps/microbench measures SendRequest,
 * SendRPC, Roundtrip(hops) and CombineVector(length) on every platform the way thesis
 * 6.3 measures them, and this prints them beside the thesis's models with the
 * relative difference. CombineVector's structure shows as the per-word cost at two
 * machine sizes: flat on the CM-5 (pipelined), growing with log P on the trees.
 */
import microbench from '../apps/microbench/index.ts';
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp } from '../src/runtime/run-app.ts';
import { fmt2, printRows } from './harness.ts';

/** Fig. 6-6 (cycles). */
const THESIS: Record<string, { request: number; rpc: number; rtIntercept: number; rtSlope: number; cv: string }> = {
  cm5: { request: 68, rpc: 44, rtIntercept: 404.2, rtSlope: 14.4, cv: '110.1 + 47.5 len' },
  alewife: { request: 33, rpc: 33, rtIntercept: 207.6, rtSlope: 2.552, cv: '181.5 + 75.98 len + 288.3 logP + 89.05 len logP' },
  paragon: { request: 143, rpc: 142.3, rtIntercept: 302.5, rtSlope: 11.23, cv: '203.9 + 78.23 len + 332.7 logP + 89.82 len logP' },
  atm: { request: 1130, rpc: 1131, rtIntercept: 2032, rtSlope: 61.89, cv: '2678 + 68.51 len + 122.7 len logP' },
};

async function measure(platform: string, nodes: number, params: string[]): Promise<Record<string, number>> {
  const s = runApp(await loadRun({ platform, app: microbench, params, nodes, seed: 1, network: 'packet' }));
  if (!s.verified) throw new Error(`microbench ${params.join(' ')} on ${platform}: ${s.verification}`);
  return s.metrics as Record<string, number>;
}

const vs = (got: number, want: number) => `${fmt2.format(got)}  (thesis ${want}, ${got >= want ? '+' : ''}${fmt2.format((got / want - 1) * 100)}%)`;

export async function microBench(): Promise<void> {
  for (const platform of ['cm5', 'alewife', 'paragon', 'atm']) {
    const t = THESIS[platform];
    const request = (await measure(platform, 16, ['model=SendRequest', 'reps=10'])).cycles;
    const rpc = (await measure(platform, 16, ['model=SendRPC', 'reps=10'])).cycles;
    const rt = await measure(platform, 64, ['model=Roundtrip', 'reps=2']);
    const smallP = platform === 'cm5' ? 8 : 9;
    const cv = async (nodes: number, length: number) => (await measure(platform, nodes, ['model=CombineVector', `length=${length}`, 'reps=2'])).cycles;
    const perWord = async (nodes: number) => ((await cv(nodes, 64)) - (await cv(nodes, 8))) / 56;
    const [small, large] = [await perWord(smallP), await perWord(64)];
    printRows(`Thesis Fig. 6-6 on ${platform} (cycles; SendRequest/SendRPC on 16 nodes, Roundtrip on 64)`, [
      ['SendRequest', vs(request, t.request)],
      ['SendRPC', vs(rpc, t.rpc)],
      ['Roundtrip intercept', vs(rt.intercept, t.rtIntercept)],
      ['Roundtrip slope per hop', vs(rt.slope, t.rtSlope)],
      [`CombineVector per word, P = ${smallP}`, fmt2.format(small)],
      ['CombineVector per word, P = 64', `${fmt2.format(large)}  (x${fmt2.format(large / small)}; thesis model ${t.cv})`],
    ]);
  }
}
