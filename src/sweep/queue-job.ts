/**
 * One queued run as a `sim worker` sandbox thread runs it: the same runOne as every
 * executor, plus where it ran (for the timing sidecar). A worker whose checkout does
 * not match the run's inputs refuses it as an UnrecoverableError (BullMQ then does
 * not retry it), and so does one that this host stopped (its heap or stack); a run that fails is
 * a result line like any other.
 */
import { hostname } from 'node:os';
import { InputsMismatch, runOne, type RunOutcome } from './run-one.ts';
import type { InputResolver, SweepRun } from './run-model.ts';

/** Prefix of the failure message of a job a worker refused. */
export const REFUSED = 'refused: ';

/** Where a run ran. */
export interface RunHost {
  host: string;
  node: string;
  v8: string;
}

/** A job's return value. */
export interface QueueResult {
  outcome: RunOutcome;
  host: RunHost;
}

export async function runQueuedJob(run: SweepRun, resolver: InputResolver): Promise<QueueResult> {
  try {
    const outcome = await runOne(run, resolver);
    // A run this host could not finish (its heap, stack or memory) is no result: refused as a mismatch is, not recorded.
    if (outcome.unrecorded !== undefined) throw Object.assign(new Error(`${REFUSED}${outcome.unrecorded}`), { name: 'UnrecoverableError' });
    return { outcome, host: { host: hostname(), node: process.versions.node, v8: process.versions.v8 } };
  } catch (e) {
    // BullMQ recognizes an unrecoverable error by its name once it has crossed the thread.
    if (e instanceof InputsMismatch) throw Object.assign(new Error(`${REFUSED}${e.message}`), { name: 'UnrecoverableError' });
    throw e;
  }
}
