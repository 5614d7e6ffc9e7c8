/**
 * `sim worker`: a BullMQ worker that runs sweep jobs in sandboxed worker threads
 * (`useWorkerThreads`; a CPU-bound run on the event loop would miss its lock renewals,
 * lose the job and run it twice), `concurrency` at a time. A killed worker's jobs
 * stall: another worker picks them up once their lock expires (`lockSeconds`). Stops on
 * SIGINT/SIGTERM (finishing nothing half-way: the jobs go back to the queue) or after
 * `idleExitSeconds` without a job.
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
  worker.on('error', (error) => o.log(`error: ${error.message}`));
  const onSignal = (): void => finish();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await worker.waitUntilReady();
  o.log(`listening on ${QUEUE_NAME} with ${o.concurrency} thread(s)`);
  armIdle();
  await finished;
  if (idleTimer !== null) clearTimeout(idleTimer);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await worker.close();
  connection.disconnect();
  return { completed, failed };
}
