/**
 * Calibration throughput (issue 7): `sim calibrate --platform all` of the Strata
 * suite (apps/calibration/strata.spec) on 16-, 32- and 64-node machines, with 1 and
 * 2 workers, as the CLI runs it (a child process each); the two files must match.
 * The 1-worker run also fits them (--fit) and the bench prints the Fig. 6-6 report.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printRows } from './harness.ts';

const ROOT = join(import.meta.dirname, '..');

function calibrate(workers: number, out: string, extra: string[] = []): number {
  const start = performance.now();
  execFileSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'calibrate', '--platform', 'all', 'apps/calibration/strata.spec', '-o', out, '--nodes', '16,32,64', '--workers', String(workers), ...extra], { cwd: ROOT, env: { ...process.env, CI: '1' } });
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
  const models = join(dir, 'models');
  const withFit = calibrate(2, join(dir, 'fitted.samples'), ['--fit', models]);
  printRows('Sampling and fitting (--fit), 2 workers', [['wall', `${(withFit / 1000).toFixed(2)} s`]]);
  process.stdout.write(`\n${readFileSync(join(models, 'fig-6-6.txt'), 'utf8')}`);
}
