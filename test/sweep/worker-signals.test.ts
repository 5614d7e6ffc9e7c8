/**
 * `sim worker` stopped by a signal, and a worker whose Redis goes away (each a real
 * redis-server on 127.0.0.1, stopped by PID). SIGTERM in the middle of a run said
 * nothing while the worker went on to finish it; with Redis gone, every reconnection
 * attempt was a line (two a second) and Ctrl-C did nothing at all.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';
import { freePort, missingServers, start, startRedis, stop, waitFor, type Started } from '../support/servers.ts';

const SIM = join(ROOT, 'bin/sim.mjs');
const missing = missingServers(['redis-server'], 'sim worker tests');

describe.skipIf(missing.length > 0)('sim worker and signals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-worker-signals-'));
  const started: Started[] = [];
  const redisOn = async (port: number): Promise<Started> => {
    const redis = await startRedis(port, dir);
    started.push(redis);
    return redis;
  };
  const sim = (...args: string[]): Started => {
    const p = start(process.execPath, [SIM, ...args], { cwd: ROOT });
    started.push(p);
    return p;
  };
  /** The worker's lines without its `sim worker <pid>: ` prefix. */
  const lines = (w: Started): string[] => w.stderr().split('\n').filter((l) => l !== '').map((l) => l.replace(/^sim worker \d+: /, ''));

  afterAll(async () => {
    for (const p of started) await stop(p);
  }, 30_000);

  it('SIGTERM in the middle of a run says it stops once the run finishes; a second one stops it at once', { timeout: 90_000 }, async () => {
    const port = await freePort();
    await redisOn(port);
    const url = `redis://127.0.0.1:${port}/0`;
    // One run of many seconds (64 nodes, 80 rounds of random 8 KB blocks), stopped long before its end.
    const sweep = join(dir, 'long.json');
    writeFileSync(sweep, JSON.stringify({ name: 'long', runs: [{ app: 'apps/patterns', platform: 'cm5', nodes: 64, params: { pattern: 'random', rounds: 80, blockBytes: 8192 } }] }));
    const w = sim('worker', '--queue', url);
    const c = sim('sweep', sweep, '--out', join(dir, 'long.jsonl'), '--queue', url);
    await waitFor('the worker to start the run', () => lines(w).some((l) => l.startsWith('run 0 ')), 60_000);
    process.kill(w.pid, 'SIGTERM');
    await waitFor('the worker to say it stops', () => lines(w).some((l) => l.startsWith('stopping')), 10_000);
    expect(lines(w).at(-1)).toBe('stopping once the 1 run(s) under way finish (Ctrl-C again stops now: another worker takes them after --lock s)');
    process.kill(w.pid, 'SIGTERM');
    await w.exited;
    expect(w.child.signalCode).toBe('SIGTERM');
    process.kill(c.pid, 'SIGINT');
    expect(await c.exited).toBe(130);
  });

  it('with Redis gone, says so once, says when it answers again, and stops on Ctrl-C while it is away', { timeout: 90_000 }, async () => {
    const port = await freePort();
    let redis = await redisOn(port);
    const w = sim('worker', '--queue', `redis://127.0.0.1:${port}/0`);
    await waitFor('the worker to listen', () => w.stderr().includes('listening'), 30_000);
    const lost = `error: connect ECONNREFUSED 127.0.0.1:${port}; trying again until Redis answers (Ctrl-C stops)`;
    await stop(redis);
    await waitFor('the worker to say Redis is lost', () => lines(w).includes(lost), 30_000);
    redis = await redisOn(port);
    await waitFor('the worker to say Redis is back', () => lines(w).includes('Redis answers again'), 30_000);
    await stop(redis);
    await waitFor('the worker to say Redis is lost again', () => lines(w).filter((l) => l === lost).length === 2, 30_000);
    process.kill(w.pid, 'SIGINT');
    expect(await w.exited).toBe(0);
    await w.closed;
    expect(lines(w)).toEqual(['listening on sim-sweep with 1 thread(s)', lost, 'Redis answers again', lost]);
    expect(w.stdout()).toBe('sim worker: 0 run(s) done, 0 failed attempt(s)\n');
  });
});
