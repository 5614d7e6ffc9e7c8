/**
 * `sim worker`: a BullMQ worker that runs sweep jobs in sandboxed worker threads
 * (`useWorkerThreads`; a CPU-bound run on the event loop would miss its lock renewals,
 * lose the job and run it twice), `concurrency` at a time. A killed worker's jobs
 * stall: another worker picks them up once their lock expires (`lockSeconds`). Stops on
 * SIGINT/SIGTERM once the runs under way finish (a second signal stops it at once; with
 * Redis away they are given up) or after `idleExitSeconds` without a job.
 */
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectRedis, QUEUE_NAME } from './queue-connection.ts';

export interface ServeOptions {
  url: string;
  concurrency: number;
  /** Exit after this many seconds without a job; never when undefined. */
  idleExitSeconds: number | undefined;
  /** Lock duration; a dead worker's job is taken over within about 1.5 times this. */
  lockSeconds: number;
  /** The sandboxed processor module (src/cli/sweep-processor.mjs). */
  processor: URL;
  log: (text: string) => void;
}

export async function serveQueue(o: ServeOptions): Promise<{ completed: number; failed: number }> {
  const connection: Redis = await connectRedis(o.url);
  const worker = new Worker(QUEUE_NAME, o.processor, {
    connection,
    concurrency: o.concurrency,
    useWorkerThreads: true,
    lockDuration: o.lockSeconds * 1000,
    stalledInterval: Math.max(1000, (o.lockSeconds * 1000) / 2),
    maxStalledCount: 2,
  });
  let completed = 0;
  let failed = 0;
  let active = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const armIdle = (): void => {
    if (o.idleExitSeconds === undefined || active > 0) return;
    if (idleTimer !== null) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      o.log(`idle for ${o.idleExitSeconds} s, exiting`);
      finish();
    }, o.idleExitSeconds * 1000);
  };
  worker.on('active', (job) => {
    active++;
    if (idleTimer !== null) clearTimeout(idleTimer);
    idleTimer = null;
    o.log(`run ${String((job.data as { i?: number }).i)} ${job.id} started`);
  });
  worker.on('completed', (job) => {
    active--;
    completed++;
    o.log(`run ${String((job.data as { i?: number }).i)} ${job.id} done`);
    armIdle();
  });
  worker.on('failed', (job, error) => {
    active = Math.max(0, active - 1);
    failed++;
    o.log(`run ${job === undefined ? '?' : `${String((job.data as { i?: number }).i)} ${job.id}`} failed: ${error.message}`);
    armIdle();
  });
  // Redis gone: every reconnection attempt failed alike, and each was a line (two a
  // second). Now an error once until Redis answers again, which is said too.
  let lastError: string | null = null;
  let lost = false;
  worker.on('error', (error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    lost ||= connection.status !== 'ready';
    o.log(`error: ${error.message}${lost ? '; trying again until Redis answers (Ctrl-C stops)' : ''}`);
  });
  connection.on('ready', () => {
    lastError = null;
    if (!lost) return;
    lost = false;
    o.log('Redis answers again');
  });
  const onSignal = (): void => {
    // It said nothing, and went on for as long as the runs under way took.
    if (active > 0 && connection.status === 'ready') o.log(`stopping once the ${active} run(s) under way finish (Ctrl-C again stops now: another worker takes them after --lock s)`);
    else if (active > 0) o.log(`stopping: Redis is away, so the ${active} run(s) under way are given up (Ctrl-C again stops now)`);
    finish();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await worker.waitUntilReady();
  o.log(`listening on ${QUEUE_NAME} with ${o.concurrency} thread(s)`);
  armIdle();
  await finished;
  if (idleTimer !== null) clearTimeout(idleTimer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  // With Redis away, closing waits on it for ever (Ctrl-C did nothing): give up the
  // jobs under way, which another worker takes once their locks expire.
  if (connection.status === 'ready') await worker.close();
  else await worker.close(true);
  connection.disconnect();
  return { completed, failed };
}
