/**
 * What every sweep command starts from: the sweep file loaded and expanded with this
 * checkout's inputs, the header its results carry, and what the parts already record.
 */
import { expandSweep } from '../sweep/expand.ts';
import { collect, type Collected } from '../sweep/merge.ts';
import { readParts } from '../sweep/parts.ts';
import type { ResultsHeader } from '../sweep/result-line.ts';
import { RESULT_FORMAT, type SweepRun } from '../sweep/run-model.ts';
import { loadSweep } from '../sweep/sweep-file.ts';
import { moduleLoadProblem } from './app-location.ts';
import { importModule } from './project.ts';
import { checkoutInputs } from './sweep-inputs.ts';

/** The sweep file, expanded, with the header its results carry. */
export interface ExpandedSweep {
  file: string;
  header: ResultsHeader;
  runs: SweepRun[];
}

/** Loads and expands a sweep file with this checkout's inputs. */
export async function expandFile(file: string): Promise<ExpandedSweep> {
  // What the module's loading threw, as one line naming where (esbuild's first line named nothing).
  const sweep = await loadSweep(file, (path) =>
    importModule(path).catch((e: unknown) => {
      throw new Error(moduleLoadProblem(e).text);
    }),
  );
  const resolver = checkoutInputs();
  const runs = await expandSweep(sweep.spec, file, resolver);
  return { file, runs, header: { sweep: sweep.spec.name, sweepSha256: sweep.sha256, simulator: resolver.simulator, runs: runs.length, format: RESULT_FORMAT } };
}

/** What the parts of `out` hold for this sweep (every line checked against its run). */
export function recordedFor(out: string, sweep: ExpandedSweep): Collected {
  const recorded = readParts(out, sweep.header);
  return collect(out, { ...recorded, header: sweep.header }, sweep.runs);
}

/** Counts of a collected sweep's statuses. */
export function tally(c: Collected): { verified: number; unverified: number; failed: number; missing: number } {
  const t = { verified: 0, unverified: 0, failed: 0, missing: c.missing.length };
  for (const line of c.byIndex) if (line !== undefined) t[line.status]++;
  return t;
}

export const tallyText = (t: ReturnType<typeof tally>): string => `${t.verified} verified, ${t.unverified} unverified, ${t.failed} failed${t.missing > 0 ? `, ${t.missing} missing` : ''}`;
