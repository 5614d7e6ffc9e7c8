/**
 * What sweep worker threads run, with this checkout's inputs: a sweep run for the
 * local pool (`runSweepRun`) and a BullMQ job for `sim worker`'s sandbox
 * (`processSweepJob`). The *.mjs entry points load this module built or through tsx.
 */
import { runQueuedJob, type QueueResult } from '../sweep/queue-job.ts';
import { runLocalOne, type RunOutcome } from '../sweep/run-one.ts';
import type { SweepRun } from '../sweep/run-model.ts';
import { checkoutInputs } from './sweep-inputs.ts';

const inputs = checkoutInputs();

/** One run of the local pool (src/sweep/pool.ts). */
export const runSweepRun = (run: SweepRun): Promise<RunOutcome> => runLocalOne(run, inputs);

/** One job of a BullMQ sandbox (src/sweep/queue-worker.ts). */
export const processSweepJob = (job: { data: SweepRun }): Promise<QueueResult> => runQueuedJob(job.data, inputs);
