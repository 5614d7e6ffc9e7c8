/**
 * A queue coordinator whose Redis goes away (stopped by PID here, a real redis-server
 * on 127.0.0.1) says so in one line an outage and that it answers again, and Ctrl-C
 * stops it while Redis is away. It printed BullMQ's error object with its stack at
 * every reconnection attempt, and waited on Redis for ever: Ctrl-C did nothing.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';
import { freePort, missingServers, start, startRedis, stop, waitFor, type Started } from '../support/servers.ts';

const SIM = join(ROOT, 'bin/sim.mjs');
const missing = missingServers(['redis-server'], 'sim sweep --queue tests');

describe.skipIf(missing.length > 0)('a queue coordinator that loses Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-redis-lost-'));
  const started: Started[] = [];
  const redisOn = async (port: number): Promise<Started> => {
    const redis = await startRedis(port, dir);
    started.push(redis);
    return redis;
  };

  afterAll(async () => {
    for (const p of started) await stop(p);
  }, 30_000);

  it('says so once an outage, says when it is back, and stops on Ctrl-C while it is away (exit 130)', { timeout: 90_000 }, async () => {
    const port = await freePort();
    let redis = await redisOn(port);
    const out = join(dir, 'lost.jsonl');
    // No worker: the runs wait in the queue, so the coordinator is still waiting when Redis goes.
    const c = start(process.execPath, [SIM, 'sweep', 'test/fixtures/sweeps/queue.json', '--out', out, '--queue', `redis://127.0.0.1:${port}/0`, '--json'], { cwd: ROOT });
    started.push(c);
    await waitFor('the coordinator to start its part', () => existsSync(`${out}.part-queue`), 30_000);
    // The reason is the first error ioredis reports for the outage: ECONNREFUSED as a rule
    // (its reconnection finds no server), but the connection's own end can come first.
    const lost = /^sim sweep queue: lost Redis \([^)\n]+\); trying again until it answers \(Ctrl-C stops; what is recorded stays\)$/;
    const lines = () => c.stderr().split('\n');
    const outages = () => lines().filter((l) => lost.test(l)).length;
    await stop(redis);
    await waitFor('the coordinator to say Redis is lost', () => outages() === 1, 30_000, c.stderr);
    redis = await redisOn(port);
    await waitFor('the coordinator to say Redis is back', () => c.stderr().includes('Redis answers again'), 30_000, c.stderr);
    await stop(redis);
    await waitFor('the coordinator to say Redis is lost again', () => outages() === 2, 30_000, c.stderr);
    // Several reconnection attempts fail meanwhile (0.2 s apart, growing to 2 s): still one line for the outage.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    process.kill(c.pid, 'SIGINT');
    expect(await c.exited).toBe(130);
    await c.closed;
    const said = lines();
    expect(said).toHaveLength(5);
    expect(said[0]).toMatch(lost);
    expect(said[1]).toBe('sim sweep queue: Redis answers again');
    expect(said[2]).toMatch(lost);
    expect(said[3]).toBe('sim sweep: stopped by SIGINT; what finished is recorded: run the same command again to run the 24 missing runs');
    expect(said[4]).toBe('');
    expect(JSON.parse(c.stdout())).toMatchObject({ ran: 0, missing: 24, interrupted: 'SIGINT' });
  });
});
