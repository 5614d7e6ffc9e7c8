/**
 * Calibration throughput (issue 7): `sim calibrate --platform all` of the Strata
 * suite (apps/calibration/strata.spec) on 16-, 32- and 64-node machines, with 1 and
 * 2 workers, as the CLI runs it (a child process each); the two files must match.
 * Then fits them (sim fit --relative) and prints the Fig. 6-6 models beside the thesis's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formula, type FittedModel } from '../src/cli/fit-command.ts';
import { printRows } from './harness.ts';

const ROOT = join(import.meta.dirname, '..');

function calibrate(workers: number, out: string): number {
  const start = performance.now();
  execFileSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'calibrate', '--platform', 'all', 'apps/calibration/strata.spec', '-o', out, '--nodes', '16,32,64', '--workers', String(workers)], { cwd: ROOT, env: { ...process.env, CI: '1' } });
  return performance.now() - start;
}

export async function calibrateBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-calibrate-'));
  const one = calibrate(1, join(dir, 'one.samples'));
  const two = calibrate(2, join(dir, 'two.samples'));
  const same = readFileSync(join(dir, 'one.samples')).equals(readFileSync(join(dir, 'two.samples')));
  const lines = readFileSync(join(dir, 'one.samples'), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#')).length;
  printRows('Calibrating the Strata suite on all four platforms at 16, 32 and 64 nodes (sim calibrate)', [
    ['1 worker', `${(one / 1000).toFixed(2)} s wall for ${lines} samples`],
    ['2 workers', `${(two / 1000).toFixed(2)} s wall (speedup ${(one / two).toFixed(2)}x on this 2-core machine)`],
    ['same file', same ? 'yes' : 'NO'],
  ]);
  // The fitted Fig. 6-6 models beside the thesis's.
  const models = join(dir, 'models.json');
  execFileSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'fit', join(dir, 'one.samples'), '--relative', '-o', models], { cwd: ROOT });
  const fitted = (JSON.parse(readFileSync(models, 'utf8')) as { models: FittedModel[] }).models;
  for (const platform of ['cm5', 'alewife', 'paragon', 'atm']) {
    printRows(`Fitted models vs thesis Fig. 6-6 on ${platform} (relative error; verification MRE)`, FIG_6_6.map(([name, thesis]) => {
      const m = fitted.find((x) => x.platform === platform && x.name === name);
      return [name, m === undefined ? 'not calibrated' : `${formula(m)}  (${m.mreVerificationPercent?.toFixed(2) ?? '-'}%)  thesis: ${thesis[platform]}`];
    }));
  }
}

const FIG_6_6: [string, Record<string, string>][] = [
  ['ClearMemory', { cm5: '69.28 + 1.005 len', alewife: '66.59 + 1.382 len', paragon: '66.58 + 1.383 len', atm: '66.59 + 1.383 len' }],
  ['CombineVector', { cm5: '110.1 + 47.5 len', alewife: '181.5 + 75.98 len + 288.3 logP + 89.05 len logP', paragon: '203.9 + 78.23 len + 332.7 logP + 89.82 len logP', atm: '2678 + 68.51 len + 122.7 len logP' }],
  ['Roundtrip', { cm5: '404.2 + 14.4 hops', alewife: '207.6 + 2.552 hops', paragon: '302.5 + 11.23 hops', atm: '2032 + 61.89 hops' }],
  ['SendRequest', { cm5: '68', alewife: '33', paragon: '143', atm: '1130' }],
  ['SendRPC', { cm5: '44', alewife: '33', paragon: '142.3', atm: '1131' }],
];
