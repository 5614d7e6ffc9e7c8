/**
 * Jobs on the queue that the coordinator did not make as it would (on a real Redis,
 * started here and stopped by PID). A queue job shared by two sweeps (on a real Redis, started here and stopped by PID):
 * a job's id is its run key, which names neither the sweep, nor the run's index in it,
 * nor the names its platform and app go by, so a job another sweep queued is the job
 * this sweep's coordinator waits for. Its line comes back with the other sweep's index
 * and names; the coordinator records it with its own, and the results are the local
 * run's bytes. A job a worker refused (another checkout) is reported, and a coordinator
 * started again queues it again, for a worker that takes it; jobs someone removed are
 * queued again. And a worker's --idle-exit waits for the runs under way.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutInputs } from '../../src/cli/sweep-inputs.ts';
import { connectRedis, QUEUE_NAME } from '../../src/sweep/queue-connection.ts';
import { runQueuedJob } from '../../src/sweep/queue-job.ts';
import type { SweepRun } from '../../src/sweep/run-model.ts';
import { ROOT, sim } from '../support/sim-cli.ts';
import { freePort, missingServers, start, startRedis, stop, waitFor, type Started } from '../support/servers.ts';

const SIM = join(ROOT, 'bin/sim.mjs');
const missing = missingServers(['redis-server'], 'sim sweep --queue tests');

/** A sweep of ping-pong on `platform` (the CM-5) with `rounds` in this order (the runs' keys depend on neither). */
const sweepText = (name: string, platform: string, rounds: number[]) => `${JSON.stringify({ name, runs: [{ app: 'apps/ping-pong', platform, nodes: 4, params: { rounds } }] })}\n`;

describe.skipIf(missing.length > 0)('sim sweep --queue with jobs another sweep queued', () => {
  let dir: string;
  let redis: Started;
  let url: string;
  const started: Started[] = [];
  const run = (...args: string[]) => {
    const p = start(process.execPath, [SIM, ...args], { cwd: ROOT });
    started.push(p);
    return p;
  };
  const queuedJobs = async (on = url): Promise<number> => {
    const connection = await connectRedis(on);
    const queue = new Queue(QUEUE_NAME, { connection });
    try {
      return (await queue.getJobCountByTypes('waiting', 'delayed', 'prioritized'));
    } finally {
      await queue.close();
      connection.disconnect();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-queue-shared-'));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}/0`;
    redis = await startRedis(port, dir, ['--maxmemory-policy', 'noeviction']);
  }, 30_000);

  afterAll(async () => {
    for (const p of started) await stop(p);
    await stop(redis);
  }, 30_000);

  it("records a job queued by another sweep, where the run has another index and platform name, with this sweep's", { timeout: 120_000 }, async () => {
    writeFileSync(join(dir, 'a.json'), sweepText('a', 'cm5', [1, 2, 3]));
    writeFileSync(join(dir, 'b.json'), sweepText('b', join(ROOT, 'platforms/cm5.json'), [3, 2, 1]));
    const local = await sim(['sweep', join(dir, 'a.json'), '--out', join(dir, 'local.jsonl')]);
    expect(local.code).toBe(0);

    // Sweep b's coordinator queues its three jobs (no worker yet) and is stopped: they stay, with b's indices.
    const b = run('sweep', join(dir, 'b.json'), '--out', join(dir, 'b.jsonl'), '--queue', url);
    await waitFor("sweep b's three jobs", async () => (await queuedJobs()) === 3, 30_000);
    process.kill(b.pid, 'SIGINT');
    expect(await b.exited).toBe(130);

    // Sweep a's coordinator adds nothing (the jobs exist) and waits for b's jobs.
    const out = join(dir, 'a.jsonl');
    const a = run('sweep', join(dir, 'a.json'), '--out', out, '--queue', url, '--json');
    await waitFor("sweep a's part", () => existsSync(`${out}.part-queue`), 30_000);
    expect(await queuedJobs()).toBe(3);
    const worker = run('worker', '--queue', url, '--idle-exit', '2');
    expect(await a.exited).toBe(0);
    await a.closed;
    expect(JSON.parse(a.stdout())).toMatchObject({ runs: 3, ran: 3, refused: [] });
    // Rounds 1 and 3 ran as b's runs 2 and 0 on b's platform path: the lines say a's 0 and 2 (they
    // said 2 and 0, and sweep a refused its own part, exit 2) and cm5 (they said b's path).
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'local.jsonl'), 'utf8'));
    expect(await worker.exited).toBe(0);
  });

  it('queues again, after 10 s without progress, the jobs of the sweep that someone removed from Redis', { timeout: 120_000 }, async () => {
    writeFileSync(join(dir, 'd.json'), sweepText('d', 'cm5', [6, 7]));
    const local = await sim(['sweep', join(dir, 'd.json'), '--out', join(dir, 'local-d.jsonl')]);
    expect(local.code).toBe(0);
    const db4 = url.replace(/\/0$/, '/4');
    const out = join(dir, 'd.jsonl');
    const c = run('sweep', join(dir, 'd.json'), '--out', out, '--queue', db4, '--json');
    const connection = await connectRedis(db4);
    const queue = new Queue(QUEUE_NAME, { connection });
    try {
      await waitFor("sweep d's two jobs", async () => (await queue.getJobCountByTypes('waiting')) === 2, 30_000);
      const status = ['sweep', 'status', join(dir, 'd.json'), '--out', out, '--queue', db4];
      expect((await sim(status)).stdout).toBe('sim sweep status: d: 2 runs: 0 verified, 0 unverified, 0 failed, 2 missing\nmissing runs: 0-1\nqueue: of the missing runs, 2 waiting\n');
      // Someone empties the queue (no worker has taken the jobs yet).
      await queue.obliterate({ force: true });
      expect(await queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed')).toBe(0);
      expect((await sim(status)).stdout).toContain('\nqueue: of the missing runs, 2 not queued\n');
    } finally {
      await queue.close();
      connection.disconnect();
    }
    const worker = run('worker', '--queue', db4, '--idle-exit', '15');
    // It waited for the removed jobs for ever.
    await waitFor('the coordinator to queue the jobs again and record them', () => c.child.exitCode !== null, 40_000);
    expect(await c.exited).toBe(0);
    await c.closed;
    expect(JSON.parse(c.stdout())).toMatchObject({ runs: 2, ran: 2, refused: [] });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'local-d.jsonl'), 'utf8'));
    await stop(worker);
  });

  it('a worker with --idle-exit is not idle while one of its runs is under way', { timeout: 120_000 }, async () => {
    // A long run (a few seconds) and a short one, taken at once by a worker of two threads.
    const long = { app: 'apps/cshift', platform: 'cm5', nodes: 16, params: { messages: 160000 } };
    const short = { app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: 1 } };
    writeFileSync(join(dir, 'e.json'), JSON.stringify({ name: 'e', runs: [long, short] }));
    const db5 = url.replace(/\/0$/, '/5');
    const out = join(dir, 'e.jsonl');
    const c = run('sweep', join(dir, 'e.json'), '--out', out, '--queue', db5, '--json');
    await waitFor("sweep e's two jobs", async () => (await queuedJobs(db5)) === 2, 30_000);
    const worker = run('worker', '--queue', db5, '--workers', '2', '--idle-exit', '1');
    expect(await c.exited).toBe(0);
    expect(await worker.exited).toBe(0);
    await worker.closed;
    const log = worker.stderr();
    // Idle only after the long run (it said so a second after the short one, the long one still running, and took no more jobs).
    expect(log.indexOf('idle for 1 s, exiting')).toBeGreaterThan(log.search(/run 0 run-[0-9a-f]{64} done/));
    expect(log.search(/run 0 run-[0-9a-f]{64} done/)).toBeGreaterThan(log.search(/run 1 run-[0-9a-f]{64} done/));
  });

  it("reports the jobs a worker of another checkout refused, and queues them again when started again", { timeout: 120_000 }, async () => {
    writeFileSync(join(dir, 'c.json'), sweepText('c', 'cm5', [4, 5]));
    const local = await sim(['sweep', join(dir, 'c.json'), '--out', join(dir, 'local-c.jsonl')]);
    expect(local.code).toBe(0);
    // Database 3, which the other test leaves alone. A worker (here, in this process) whose simulator is another version refuses every job.
    const db3 = url.replace(/\/0$/, '/3');
    const connection = await connectRedis(db3);
    const otherVersion = { ...checkoutInputs(), simulator: '9.9.9' };
    const refuser = new Worker(QUEUE_NAME, (job) => runQueuedJob(job.data as SweepRun, otherVersion), { connection });
    const out = join(dir, 'c.jsonl');
    let c = run('sweep', join(dir, 'c.json'), '--out', out, '--queue', db3);
    try {
      expect(await c.exited).toBe(1);
    } finally {
      await refuser.close();
      connection.disconnect();
    }
    await c.closed;
    const refusals = c.stderr().trimEnd().split('\n').filter((l) => l.startsWith('sim sweep: refused: '));
    expect(refusals.sort()).toEqual([0, 1].map((i) => expect.stringMatching(new RegExp(`^sim sweep: refused: run ${i} \\(run-[0-9a-f]{64}\\): this checkout's simulator 9\\.9\\.9, the run wants `))));
    // The refused jobs stay failed in Redis; a coordinator started again retries them, and a worker of this checkout runs them.
    const worker = run('worker', '--queue', db3, '--idle-exit', '2');
    c = run('sweep', join(dir, 'c.json'), '--out', out, '--queue', db3, '--json');
    expect(await c.exited).toBe(0);
    await c.closed;
    expect(JSON.parse(c.stdout())).toMatchObject({ runs: 2, ran: 2, refused: [] });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'local-c.jsonl'), 'utf8'));
    expect(await worker.exited).toBe(0);
  });
});
