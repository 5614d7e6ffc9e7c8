/**
 * The local executor: runs a sweep's missing runs (of one shard, or all) in this
 * process (`--workers 1`) or in worker threads, appending each line to the shard's
 * part as it arrives and its timing to the part's sidecar. Runs already recorded in
 * any part are skipped, so a killed sweep restarted does only what is left.
 */
import { hostname } from 'node:os';
import { canonicalJson } from './canonical.ts';
import { mapInPool, type WorkerModule } from './pool.ts';
import { timingPath } from './part-names.ts';
import { PartWriter } from './parts.ts';
import type { ResultsHeader } from './result-line.ts';
import { RunStopped, stopPoint } from '../runtime/stoppable-run.ts';
import { runLocalOne, type RunOutcome } from './run-one.ts';
import type { InputResolver, SweepRun } from './run-model.ts';

/** Appends outcomes to a part and their timing to its sidecar. */
export class Recorder {
  private readonly part: PartWriter;
  private readonly timing: PartWriter | null;
  private readonly host = hostname();

  constructor(partFile: string, header: ResultsHeader, withTiming = true) {
    this.part = new PartWriter(partFile, header);
    this.timing = withTiming ? new PartWriter(timingPath(partFile), header) : null;
  }

  /** Records one outcome: its line, then its timing (from `host`, this machine's by default). */
  record(i: number, outcome: RunOutcome, host: { host: string; node: string; v8: string } | null = null): void {
    this.part.append(outcome.line);
    const where = host ?? { host: this.host, node: process.versions.node, v8: process.versions.v8 };
    this.timing?.append(canonicalJson({ i, key: outcome.key, wallMs: Math.round(outcome.wallMs * 1000) / 1000, ...where }));
  }

  close(): void {
    this.part.close();
    this.timing?.close();
  }
}

export interface LocalOptions {
  /** The runs to do now (missing and in this shard), in sweep order. */
  runs: readonly SweepRun[];
  workers: number;
  resolver: InputResolver;
  /** The worker-thread module (src/cli/sweep-worker.mjs, runSweepRun) for more than one worker. */
  workerModule: WorkerModule;
  recorder: Recorder;
  onDone?: (outcome: RunOutcome) => void;
  /** A run this host could not finish (its heap, stack or memory), not recorded: why, one line. */
  onUnrecorded?: (why: string) => void;
  /** Aborted (by SIGINT or SIGTERM): start no more runs and give up those under way; what finished stays recorded. */
  stop?: AbortSignal;
}

/** Runs every run of `options.runs` (until `stop`), recording each as it finishes. */
export async function runLocal(options: LocalOptions): Promise<void> {
  const { runs, workers, resolver, recorder, onDone, onUnrecorded, stop } = options;
  const done = (run: SweepRun, outcome: RunOutcome): void => {
    if (outcome.unrecorded !== undefined) onUnrecorded?.(outcome.unrecorded);
    else recorder.record(run.i, outcome);
    onDone?.(outcome);
  };
  if (workers <= 1 || runs.length <= 1) {
    for (const run of runs) {
      let outcome: RunOutcome;
      try {
        // The event loop turns between runs, so a signal's handler runs: runs shorter than a
        // stop point's chunk of events never let it, and Ctrl-C on a study of small runs went unheard.
        if (stop !== undefined) await stopPoint(stop);
        outcome = await runLocalOne(run, resolver, stop);
      } catch (e) {
        if (e instanceof RunStopped) return;
        throw e;
      }
      done(run, outcome);
    }
    return;
  }
  const describe = (k: number): string => `run ${runs[k].i} of the sweep (${runs[k].inputs.app} on ${runs[k].inputs.platform}, ${runs[k].inputs.nodes} nodes, seed ${runs[k].inputs.seed})`;
  await mapInPool<SweepRun, RunOutcome>(options.workerModule, runs, Math.min(workers, runs.length), (outcome, index) => done(runs[index], outcome), stop, describe);
}
