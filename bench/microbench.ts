/**
 * Thesis Fig. 6-6 on the simulator (issue 4): apps/microbench measures SendRequest,
 * SendRPC, Roundtrip(hops) and CombineVector(length) on every platform the way thesis
 * 6.3 measures them, and this prints them beside the thesis's models with the
 * relative difference. CombineVector's structure shows as the per-word cost at two
 * machine sizes: flat on the CM-5 (pipelined), growing with log P on the trees; its
 * whole cost at 64 nodes for 1 and 64 words stands beside the thesis's model there
 * (logP = 6: "the log, base 2, of PartitionSize", thesis 3.3).
 */
import microbench from '../apps/microbench/index.ts';
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp } from '../src/runtime/run-app.ts';
import { fmt2, printRows } from './harness.ts';

/** A Fig. 6-6 CombineVector model's coefficients (cycles): constant, per word, per log2 P, per word x log2 P. */
interface CombineModel {
  c: number;
  len: number;
  logP: number;
  lenLogP: number;
}

const TERM_NAMES: [keyof CombineModel, string][] = [['c', ''], ['len', ' len'], ['logP', ' logP'], ['lenLogP', ' len logP']];

/** The model as Fig. 6-6 writes it, its zero terms left out. */
const combineText = (m: CombineModel) => TERM_NAMES.filter(([k]) => m[k] !== 0).map(([k, name]) => `${m[k]}${name}`).join(' + ');

const combineAt = (m: CombineModel, len: number, logP: number) => m.c + m.len * len + m.logP * logP + m.lenLogP * len * logP;

/** Fig. 6-6 (cycles). */
const THESIS: Record<string, { request: number; rpc: number; rtIntercept: number; rtSlope: number; cv: CombineModel }> = {
  cm5: { request: 68, rpc: 44, rtIntercept: 404.2, rtSlope: 14.4, cv: { c: 110.1, len: 47.5, logP: 0, lenLogP: 0 } },
  alewife: { request: 33, rpc: 33, rtIntercept: 207.6, rtSlope: 2.552, cv: { c: 181.5, len: 75.98, logP: 288.3, lenLogP: 89.05 } },
  paragon: { request: 143, rpc: 142.3, rtIntercept: 302.5, rtSlope: 11.23, cv: { c: 203.9, len: 78.23, logP: 332.7, lenLogP: 89.82 } },
  atm: { request: 1130, rpc: 1131, rtIntercept: 2032, rtSlope: 61.89, cv: { c: 2678, len: 68.51, logP: 0, lenLogP: 122.7 } },
};

async function measure(platform: string, nodes: number, params: string[]): Promise<Record<string, number>> {
  const s = runApp(await loadRun({ platform, app: microbench, params, nodes, seed: 1, network: 'packet' }));
  if (!s.verified) throw new Error(`microbench ${params.join(' ')} on ${platform}: ${s.verification}`);
  return s.metrics as Record<string, number>;
}

const vs = (got: number, want: number) => `${fmt2.format(got)}  (thesis ${fmt2.format(want)}, ${got >= want ? '+' : ''}${fmt2.format((got / want - 1) * 100)}%)`;

export async function microBench(): Promise<void> {
  for (const platform of ['cm5', 'alewife', 'paragon', 'atm']) {
    const t = THESIS[platform];
    const request = (await measure(platform, 16, ['model=SendRequest', 'reps=10'])).cycles;
    const rpc = (await measure(platform, 16, ['model=SendRPC', 'reps=10'])).cycles;
    const rt = await measure(platform, 64, ['model=Roundtrip', 'reps=2']);
    const smallP = platform === 'cm5' ? 8 : 9;
    const cv = async (nodes: number, length: number) => (await measure(platform, nodes, ['model=CombineVector', `length=${length}`, 'reps=2'])).cycles;
    const small = ((await cv(smallP, 64)) - (await cv(smallP, 8))) / 56;
    const [one64, eight64, words64] = [await cv(64, 1), await cv(64, 8), await cv(64, 64)];
    const large = (words64 - eight64) / 56;
    printRows(`Thesis Fig. 6-6 on ${platform} (cycles; SendRequest/SendRPC on 16 nodes, Roundtrip on 64)`, [
      ['SendRequest', vs(request, t.request)],
      ['SendRPC', vs(rpc, t.rpc)],
      ['Roundtrip intercept', vs(rt.intercept, t.rtIntercept)],
      ['Roundtrip slope per hop', vs(rt.slope, t.rtSlope)],
      [`CombineVector per word, P = ${smallP}`, fmt2.format(small)],
      ['CombineVector per word, P = 64', `${fmt2.format(large)}  (x${fmt2.format(large / small)}; thesis model ${combineText(t.cv)})`],
      ['CombineVector, 1 word, P = 64', vs(one64, combineAt(t.cv, 1, 6))],
      ['CombineVector, 64 words, P = 64', vs(words64, combineAt(t.cv, 64, 6))],
    ]);
  }
}
