/**
 * The project's one pool of worker threads (tinypool): maps a worker module's default
 * function over items with at most `workers` running and a few more queued, handing
 * each result back as it arrives. `sim sweep --workers` and `sim calibrate --workers`
 * both run on it; the worker modules register tsx themselves (src/cli/*-worker.mjs).
 */
import Tinypool from 'tinypool';

/**
 * Runs `filename`'s default export on every item in `workers` threads; `onResult`
 * sees each result (in completion order) with its item's index. Rejects with the
 * first error a worker throws (its thread dying included), after the pool is gone.
 */
export async function mapInPool<T, R>(filename: string, items: readonly T[], workers: number, onResult: (result: R, index: number) => void): Promise<void> {
  const pool = new Tinypool({ filename, minThreads: workers, maxThreads: workers });
  const window = workers * 2;
  let next = 0;
  let failure: unknown = null;
  const lane = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        onResult((await pool.run(items[index])) as R, index);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(window, items.length) }, lane));
  } finally {
    await pool.destroy();
  }
  if (failure !== null) throw failure;
}
