/**
 * `sim sweep --queue` and `sim sweep status --queue`: the coordinator over BullMQ
 * (src/sweep/queue-coordinator.ts, loaded only here), appending to `<out>.part-queue`
 * with a progress bar, and stopping cleanly on Ctrl-C (what is recorded stays).
 */
import { Recorder } from '../sweep/local.ts';
import { partPath } from '../sweep/parts.ts';
import type { SweepRun } from '../sweep/run-model.ts';
import type { Io } from './io.ts';
import { progress } from './sweep-progress.ts';
import type { ExpandedSweep } from './sweep-setup.ts';

export interface QueueRunOptions {
  queue: string;
  out: string;
  sweep: ExpandedSweep;
  todo: readonly SweepRun[];
  io: Io;
  showProgress: boolean;
}

export async function coordinate(o: QueueRunOptions): Promise<{ ran: number; refused: string[] }> {
  const { coordinate: run, connectRedis } = await import('../sweep/queue-coordinator.ts');
  // Reach Redis before creating the part, so an unreachable queue leaves nothing behind.
  const connection = await connectRedis(o.queue);
  const recorder = new Recorder(partPath(o.out, 'queue'), o.sweep.header);
  const total = o.sweep.runs.length;
  const bar = progress(`sim sweep ${o.sweep.header.sweep} (queue)`, total, total - o.todo.length, o.showProgress);
  let onSignal: () => void = () => {};
  const stop = new Promise<void>((resolve) => {
    onSignal = resolve;
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await run({ connection, todo: o.todo, recorder, onRecorded: () => bar.tick(), stop, wallMs: () => performance.now() });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    bar.stop();
    recorder.close();
  }
}

export async function queueCounts(url: string, runs: readonly SweepRun[]): Promise<Record<string, number>> {
  const { queueCounts: counts } = await import('../sweep/queue-coordinator.ts');
  return counts(url, runs);
}
