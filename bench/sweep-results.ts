/**
 * Benchmarks as sweeps: runs a sweep file through `sim sweep` (the project's executor,
 * local worker threads) into a fresh temporary directory, and picks runs out of the
 * results file by platform, parameters and seed for a report.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultLine } from '../src/sweep/result-line.ts';

const ROOT = join(import.meta.dirname, '..');

/** Runs `sweepFile` with `workers` threads and returns its result lines in sweep order; every run must verify. */
export function runSweep(sweepFile: string, workers: number): ResultLine[] {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-sweep-')), 'results.jsonl');
  execFileSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'sweep', sweepFile, '--out', out, '--workers', String(workers)], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n').slice(1).map((l) => JSON.parse(l) as ResultLine);
  const bad = lines.filter((l) => l.status !== 'verified');
  if (bad.length > 0) throw new Error(`${bad.length} run(s) of ${sweepFile} did not verify, e.g. run ${bad[0].i}: ${bad[0].error?.message ?? bad[0].summary?.verification}`);
  process.stderr.write(`(results: ${out})\n`);
  return lines;
}

/** What to match: the platform, app, seed and any parameters given (others may be anything). */
export interface RunQuery {
  platform?: string;
  app?: string;
  seed?: number;
  params?: Record<string, string | number | boolean>;
}

/** The one run matching `q`. @throws unless exactly one matches */
export function pick(lines: readonly ResultLine[], q: RunQuery): ResultLine {
  const found = lines.filter(
    (l) =>
      (q.platform === undefined || l.inputs.platform === q.platform) &&
      (q.app === undefined || l.inputs.app === q.app) &&
      (q.seed === undefined || l.inputs.seed === q.seed) &&
      Object.entries(q.params ?? {}).every(([k, v]) => l.inputs.params[k] === v),
  );
  if (found.length !== 1) throw new Error(`bench: ${found.length} runs match ${JSON.stringify(q)}, expected one`);
  return found[0];
}

/** A metric of the one run matching `q`. */
export function metric(lines: readonly ResultLine[], q: RunQuery, name: string): number {
  const value = pick(lines, q).summary?.metrics[name];
  if (typeof value !== 'number') throw new Error(`bench: run ${JSON.stringify(q)} has no numeric metric ${name}`);
  return value;
}
