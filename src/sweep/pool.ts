/**
 * The project's one pool of worker threads (tinypool): maps a worker module's
 * function over items with at most `workers` running and a few more queued, handing
 * each result back as it arrives. `sim sweep --workers` and `sim calibrate --workers`
 * both run on it; the worker modules load their TypeScript siblings themselves (src/cli/*-worker.mjs,
 * through load-sibling.mjs).
 */
import Tinypool from 'tinypool';
import { SimError } from '../kernel/errors.ts';

/** A worker-thread module (a `*.mjs` entry point) and the name of the function it exports. */
export interface WorkerModule {
  filename: string;
  name: string;
}

/**
 * Runs the worker module's function on every item in `workers` threads; `onResult`
 * sees each result (in completion order) with its item's index. Rejects with the
 * first error a worker throws (its thread dying included; one that exits, by
 * process.exit in it, is a SimError), after the pool is gone.
 * Once `stop` is aborted it starts no more items and ends the threads at once, their
 * items unfinished (no error); it resolves when they are gone. `describe` names an item
 * in an error (a thread out of heap).
 */
export async function mapInPool<T, R>(worker: WorkerModule, items: readonly T[], workers: number, onResult: (result: R, index: number) => void, stop?: AbortSignal, describe: (index: number) => string = (index) => `item ${index} of the work`): Promise<void> {
  const pool = new Tinypool({ filename: worker.filename, name: worker.name, minThreads: workers, maxThreads: workers });
  const window = workers * 2;
  let next = 0;
  let failure: unknown = null;
  const stopped = (): boolean => stop?.aborted === true;
  // A thread that exits by itself (process.exit in it) settles none of its items: tinypool
  // hears of a thread's error, not of its exit, and its destroy waits for that exit again.
  // The lanes and the destroy waited for ever: with the threads unref'd, the process
  // ended at once (exit code 13) without a word. Now its exit fails the map.
  const exitedThreads = new Set<unknown>();
  let threadExited: (e: Error) => void = () => {};
  const exited = new Promise<never>((_, reject) => {
    threadExited = reject;
  });
  exited.catch(() => {});
  let destroyed: Promise<void> | null = null;
  for (const thread of pool.threads) {
    thread.once('exit', (code: number) => {
      exitedThreads.add(thread);
      if (destroyed === null) threadExited(new SimError(`a worker thread exited (exit code ${code}) before its work was done, which is lost (code that calls process.exit ends its thread)`));
    });
  }
  const destroy = (): Promise<void> => {
    if (destroyed !== null) return destroyed;
    if (exitedThreads.size === 0) return (destroyed = pool.destroy());
    // Ends the live threads; the wait for the exited one's exit would never end.
    const live = pool.threads.filter((t) => !exitedThreads.has(t));
    destroyed = Promise.all(live.map((t) => new Promise<void>((resolve) => t.once('exit', () => resolve())))).then(() => {});
    void pool.destroy();
    return destroyed;
  };
  const onStop = (): void => void destroy();
  stop?.addEventListener('abort', onStop, { once: true });
  const lane = async (): Promise<void> => {
    while (failure === null && !stopped() && next < items.length) {
      const index = next++;
      try {
        onResult((await Promise.race([pool.run(items[index]), exited])) as R, index);
      } catch (e) {
        // The threads ended by a stop reject their items: not a failure.
        if (!stopped()) failure ??= outOfMemory(e, describe(index)) ?? e;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(window, items.length) }, lane));
  } finally {
    stop?.removeEventListener('abort', onStop);
    await destroy();
  }
  if (failure !== null) throw failure;
}

/**
 * A thread killed by V8 for its heap (an app allocating without end between two runtime
 * calls, which the heap check between events never sees) as one line naming the item:
 * it was the simulator's "internal error" with Node's stack. What finished stays recorded.
 */
function outOfMemory(e: unknown, what: string): SimError | null {
  if ((e as { code?: unknown } | null)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return null;
  return new SimError(`${what} ran its worker thread out of JavaScript heap, which ended it (an app allocating without end between runtime calls?); what finished is kept: give Node a larger heap (NODE_OPTIONS=--max-old-space-size=<MB>) or fix the app, and run again`);
}
