/**
 * `sim sweep status --queue` whose Redis goes away while it reads the job states
 * (a real redis-server on 127.0.0.1, stopped by PID mid-read) fails with one line,
 * exit 1. It printed BullMQ's error object with its stack at every reconnection
 * attempt and waited for Redis for ever.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';
import { freePort, missingServers, start, startRedis, stop, waitFor, type Started } from '../support/servers.ts';

const SIM = join(ROOT, 'bin/sim.mjs');
const missing = missingServers(['redis-server'], 'sim sweep status --queue tests');

describe.skipIf(missing.length > 0)('sim sweep status --queue when Redis goes away', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-status-lost-'));
  const started: Started[] = [];

  afterAll(async () => {
    for (const p of started) await stop(p);
  }, 30_000);

  it('says so in one line and exits 1 instead of waiting for ever', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const redis = await startRedis(port, dir);
    started.push(redis);
    // 40,000 runs, none recorded: status asks Redis for every one's job state, one at a time.
    const sweep = join(dir, 'many.json');
    writeFileSync(sweep, JSON.stringify({ name: 'many', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, seeds: { from: 1, count: 40_000 } }] }));
    const status = start(process.execPath, [SIM, 'sweep', 'status', sweep, '--out', join(dir, 'many.jsonl'), '--queue', `redis://127.0.0.1:${port}/0`], { cwd: ROOT });
    started.push(status);
    // Once it is reading job states (BullMQ's scripts), freeze Redis and then kill it:
    // the read it is waiting on can only end by the connection's loss.
    const watcher = new Redis(port, '127.0.0.1');
    await waitFor('status to read job states', async () => /\bcmd=evalsha\b/.test(String(await watcher.call('CLIENT', 'LIST'))), 30_000);
    watcher.disconnect();
    process.kill(redis.pid, 'SIGSTOP');
    process.kill(redis.pid, 'SIGKILL');
    expect(await status.exited).toBe(1);
    await status.closed;
    expect(status.stderr()).toMatch(/^sim: --queue redis:\/\/127\.0\.0\.1:\d+\/0: lost Redis \([^)]+\) while reading the missing runs' job states; run the same command again once it answers\n$/);
    expect(status.stdout()).toBe('');
  });
});
