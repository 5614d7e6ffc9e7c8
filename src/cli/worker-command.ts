/**
 * `sim worker --queue redis://host:port/db [--workers K] [--idle-exit <s>] [--lock <s>]`:
 * runs sweep jobs from the queue until stopped (Ctrl-C, SIGTERM) or idle for
 * `--idle-exit` seconds. bullmq and ioredis are loaded only here and for `sim sweep --queue`.
 */
import type { Io } from './io.ts';
import { intOption, MAX_WORKERS } from './parse-options.ts';
import { parseCommand, queueOption, usageOf } from './sweep-args.ts';
import { InputError } from '../kernel/errors.ts';

export async function workerCommand(argv: readonly string[], io: Io): Promise<number> {
  const { values } = parseCommand('sim worker', argv, 0);
  const url = queueOption(values.queue);
  if (url === undefined) throw new InputError(`sim worker: missing --queue redis://host:port/db (usage: ${usageOf('worker')})`);
  const concurrency = intOption('workers', values.workers, 1, 1, MAX_WORKERS);
  const idleExitSeconds = values['idle-exit'] === undefined ? undefined : intOption('idle-exit', values['idle-exit'], 0, 1, 86_400 * 365);
  const lockSeconds = intOption('lock', values.lock, 30, 2, 3600);
  const { serveQueue } = await import('../sweep/queue-worker.ts');
  const { completed, failed } = await serveQueue({
    url,
    concurrency,
    idleExitSeconds,
    lockSeconds,
    processor: new URL('./sweep-processor.mjs', import.meta.url),
    log: (text) => io.err(`sim worker ${process.pid}: ${text}`),
  });
  io.out(`sim worker: ${completed} run(s) done, ${failed} failed attempt(s)`);
  return 0;
}
