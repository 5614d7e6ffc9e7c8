/**
 * `sim sweep --queue` and `sim sweep status --queue`: the coordinator over BullMQ
 * (src/sweep/queue-coordinator.ts, loaded only here), appending to `<out>.part-queue`
 * with a progress bar (or lines, --progress), and stopping cleanly on Ctrl-C (what is recorded stays).
 */
import { Recorder } from '../sweep/local.ts';
import { partPath } from '../sweep/part-names.ts';
import type { SweepRun } from '../sweep/run-model.ts';
import type { Io } from './io.ts';
import { counter, type ProgressStyle } from './progress.ts';
import type { ExpandedSweep } from './sweep-setup.ts';

export interface QueueRunOptions {
  queue: string;
  out: string;
  sweep: ExpandedSweep;
  todo: readonly SweepRun[];
  io: Io;
  style: ProgressStyle;
  /** Names the command in a line on stderr (`sim sweep`, `sim study`). */
  command: string;
}

/**
 * The coordinator's outcome; `interrupted` names the signal that stopped it early (its
 * exit status is the signal's). The signals are caught from the start, so one that
 * comes while Redis is reached or the part is made stops it cleanly too.
 */
export async function coordinate(o: QueueRunOptions): Promise<{ ran: number; refused: string[]; interrupted: 'SIGINT' | 'SIGTERM' | null }> {
  let interrupted: 'SIGINT' | 'SIGTERM' | null = null;
  let stopNow: () => void = () => {};
  const stop = new Promise<void>((resolve) => {
    stopNow = resolve;
  });
  const on = (signal: 'SIGINT' | 'SIGTERM') => (): void => {
    interrupted ??= signal;
    stopNow();
  };
  const handlers = [['SIGINT', on('SIGINT')], ['SIGTERM', on('SIGTERM')]] as const;
  for (const [signal, handler] of handlers) process.once(signal, handler);
  try {
    const { coordinate: run, connectRedis } = await import('../sweep/queue-coordinator.ts');
    // Reach Redis before creating the part, so an unreachable queue leaves nothing behind.
    const connection = await connectRedis(o.queue);
    const recorder = new Recorder(partPath(o.out, 'queue'), o.sweep.header);
    const total = o.sweep.runs.length;
    const bar = counter(o.style, `sim sweep ${o.sweep.header.sweep} (queue)`, 'runs', total, total - o.todo.length);
    let recorded = total - o.todo.length;
    try {
      const outcome = await run({ connection, todo: o.todo, recorder, onRecorded: () => bar.update(++recorded), stop, wallMs: () => performance.now(), log: (text) => o.io.err(`${o.command}: ${text}`) });
      return { ...outcome, interrupted };
    } finally {
      bar.stop();
      recorder.close();
    }
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
}

export async function queueCounts(url: string, runs: readonly SweepRun[]): Promise<Record<string, number>> {
  const { queueCounts: counts } = await import('../sweep/queue-coordinator.ts');
  return counts(url, runs);
}
