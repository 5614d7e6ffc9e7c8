/**
 * What the queue coordinator and `sim worker` share: the BullMQ queue's name and job
 * options, and a checked Redis connection (ioredis). Loaded only for `--queue` and
 * `sim worker`, so plain sweeps never load bullmq or ioredis.
 */
import { Redis } from 'ioredis';
import { InputError } from '../kernel/errors.ts';
import { shownQueue } from './queue-url.ts';

/**
 * One queue for every sweep: jobs are self-describing (their inputs) and keyed by
 * content (jobId = run key), so sweeps that share a run share its job.
 */
export const QUEUE_NAME = 'sim-sweep';

/** Attempts for infrastructure failures (a worker thread died); a run's own failure is a result and never retried. */
export const ATTEMPTS = 3;

/**
 * Connects to `url` and checks that Redis answers, failing fast with one line.
 * `maxRetriesPerRequest: null` is what BullMQ's blocking connections require.
 */
export async function connectRedis(url: string): Promise<Redis> {
  // The URL was checked by the CLI's queueOption: redis[s]://host[:port][/db].
  const db = Number(new URL(url).pathname.slice(1) || '0');
  let connected = false;
  // No retries before the first connection (an unreachable Redis is one line at once);
  // after it, reconnect as BullMQ expects.
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, connectTimeout: 5000, disconnectTimeout: 200, retryStrategy: (times) => (connected ? Math.min(times * 200, 2000) : null) });
  let lastError: unknown = null;
  redis.on('error', (e: unknown) => {
    lastError = e;
  });
  try {
    await redis.connect();
    await redis.ping();
    connected = true;
  } catch (e) {
    redis.disconnect();
    const err = (lastError ?? e) as { code?: string; message?: string };
    throw new InputError(`--queue ${shownQueue(url)}: cannot reach Redis (${err.code ?? err.message ?? String(err)})`);
  }
  // ioredis selects the URL's database on connecting but, when Redis refuses it, only
  // logs the error and goes on in database 0: ask again, and fail on a refusal.
  if (db !== 0) {
    try {
      await redis.select(db);
    } catch (e) {
      redis.disconnect();
      throw new InputError(`--queue ${shownQueue(url)}: Redis refuses database ${db} (${(e as Error).message}); expected a database it has (0 to 15 by default)`);
    }
  }
  return redis;
}

