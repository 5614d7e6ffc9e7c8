/**
 * The queue coordinator (`sim sweep --queue`): enqueues the sweep's missing runs on
 * BullMQ with jobId = run key (adding a job that exists is a no-op), then appends each
 * finished job's line to its part as it completes and removes the job once the line
 * is written. Jobs that completed while no coordinator was watching are adopted the
 * same way (it scans job states; BullMQ's event stream is trimmed), and failed jobs of
 * the sweep are retried once at start. Refused jobs (a worker with other inputs) and
 * jobs that failed every attempt are reported, never recorded.
 */
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { SimError } from '../kernel/errors.ts';
import { lineText, type ResultLine } from './result-line.ts';
import type { Recorder } from './local.ts';
import { ATTEMPTS, connectRedis, QUEUE_NAME } from './queue-connection.ts';
import { shownQueue } from './queue-url.ts';
export { connectRedis } from './queue-connection.ts';
import { REFUSED, type QueueResult } from './queue-job.ts';
import type { SweepRun } from './run-model.ts';

export interface CoordinateOptions {
  /** A connection from connectRedis; closed when the coordinator is done. */
  connection: Redis;
  /** The runs to get done (missing from every part), in sweep order. */
  todo: readonly SweepRun[];
  recorder: Recorder;
  onRecorded: () => void;
  /** How often to look at job states (ms). */
  pollMs?: number;
  /** Resolves when the coordinator should stop early (e.g. Ctrl-C); what is recorded stays. */
  stop?: Promise<void>;
  /** The host's clock in ms (from the CLI), to notice when nothing has happened for a while. */
  wallMs: () => number;
  /** Says that Redis went away (once an outage) and that it answers again. */
  log?: (text: string) => void;
}

export interface CoordinateResult {
  ran: number;
  /** One line per run that was refused or failed every attempt. */
  refused: string[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Enqueues `runs` (existing jobs are left as they are). */
async function enqueue(queue: Queue, runs: readonly SweepRun[]): Promise<void> {
  for (let k = 0; k < runs.length; k += 1000) {
    await queue.addBulk(
      runs.slice(k, k + 1000).map((run) => ({
        name: 'run',
        data: run,
        opts: { jobId: run.key, attempts: ATTEMPTS, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: false, removeOnFail: false },
      })),
    );
  }
}

export async function coordinate(o: CoordinateOptions): Promise<CoordinateResult> {
  const { connection } = o;
  const queue = new Queue(QUEUE_NAME, { connection });
  const wanted = new Map(o.todo.map((r) => [r.key, r]));
  const refused: string[] = [];
  let ran = 0;
  let stopped = false;
  // Redis gone: BullMQ printed each reconnection's error with its stack (console.error,
  // with no listener), and the coordinator waited on it without end, Ctrl-C or not.
  // Now one line an outage, and a stop while Redis is away gives up the commands
  // waiting on it (they would wait for ever) and drops the connection.
  let lost = false;
  queue.on('error', (e: Error & { code?: string }) => {
    if (lost || stopped) return;
    lost = true;
    o.log?.(`lost Redis (${e.code ?? e.message}); trying again until it answers (Ctrl-C stops; what is recorded stays)`);
  });
  connection.on('ready', () => {
    if (!lost) return;
    lost = false;
    o.log?.('Redis answers again');
  });
  let abandoned = false;
  const abandon = new Promise<void>((resolve) => {
    void o.stop?.then(() => {
      stopped = true;
      if (connection.status === 'ready') return;
      abandoned = true;
      resolve();
    });
  });
  /** `work`, or the stop while Redis is away; what is given up then records nothing. */
  const unlessAbandoned = async (work: Promise<void>): Promise<void> => {
    work.catch(() => {});
    await Promise.race([work, abandon]);
  };

  /** Records the completed jobs of the sweep and collects its hopeless failures. */
  const harvest = async (retryFailed: boolean): Promise<void> => {
    for (const job of (await queue.getJobs(['completed'], 0, -1)) as (Job | undefined)[]) {
      const run = job?.id === undefined ? undefined : wanted.get(job.id);
      if (job === undefined || run === undefined || abandoned) continue;
      const result = job.returnvalue as QueueResult;
      // A job shared with another sweep (same key) carries that sweep's index and names of
      // its platform and app (a name or a path to the same file): the line takes ours, as
      // a local run of this sweep writes it.
      const line = { ...(JSON.parse(result.outcome.line) as ResultLine), i: run.i, inputs: run.inputs };
      o.recorder.record(run.i, { ...result.outcome, line: lineText(line) }, result.host);
      wanted.delete(run.key);
      ran++;
      o.onRecorded();
      await job.remove();
    }
    for (const job of (await queue.getJobs(['failed'], 0, -1)) as (Job | undefined)[]) {
      const run = job?.id === undefined ? undefined : wanted.get(job.id);
      if (job === undefined || run === undefined) continue;
      if (retryFailed) await job.retry('failed');
      else {
        const reason = job.failedReason.startsWith(REFUSED) ? job.failedReason.slice(REFUSED.length) : `run ${run.i} (${run.key}) failed ${job.attemptsMade} times: ${job.failedReason}`;
        refused.push(reason);
        wanted.delete(run.key);
      }
    }
  };

  try {
    await unlessAbandoned(harvest(true).then(() => enqueue(queue, [...wanted.values()])));
    let lastProgress = o.wallMs();
    while (wanted.size > 0 && !stopped) {
      const before = wanted.size;
      await unlessAbandoned(harvest(false));
      if (abandoned) break;
      if (wanted.size < before) lastProgress = o.wallMs();
      else if (o.wallMs() - lastProgress > 10_000) {
        // Nothing for a while: put back any job of ours that someone removed.
        await unlessAbandoned(enqueue(queue, [...wanted.values()]));
        lastProgress = o.wallMs();
      }
      if (wanted.size > 0) await sleep(o.pollMs ?? 250);
    }
  } finally {
    if (!abandoned) await queue.close();
    connection.disconnect();
  }
  return { ran, refused };
}

/**
 * How many of `runs` are in each job state (waiting, active, delayed, completed, failed,
 * or not queued). A one-off read: if Redis goes away meanwhile it fails with one line
 * (SimError: exit 1), where it printed BullMQ's error with its stack at every
 * reconnection attempt and waited for Redis for ever.
 */
export async function queueCounts(url: string, runs: readonly SweepRun[]): Promise<Record<string, number>> {
  const connection = await connectRedis(url);
  // No reconnecting: a lost connection ends it, and the commands waiting on it fail.
  connection.options.retryStrategy = () => null;
  const queue = new Queue(QUEUE_NAME, { connection });
  let lost: (Error & { code?: string }) | null = null;
  queue.on('error', (e: Error & { code?: string }) => {
    lost ??= e;
  });
  const counts: Record<string, number> = {};
  try {
    for (const run of runs) {
      const state = await queue.getJobState(run.key);
      const name = state === 'unknown' ? 'not queued' : state;
      counts[name] = (counts[name] ?? 0) + 1;
    }
  } catch (e) {
    const err: Error & { code?: string } = lost ?? (e as Error);
    throw new SimError(`--queue ${shownQueue(url)}: lost Redis (${err.code ?? err.message}) while reading the missing runs' job states; run the same command again once it answers`);
  } finally {
    if (lost === null) await queue.close();
    connection.disconnect();
  }
  return counts;
}
