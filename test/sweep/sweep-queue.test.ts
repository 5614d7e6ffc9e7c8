/**
 * `sim sweep --queue` with `sim worker` on a real Redis (Debian's redis-server on
 * 127.0.0.1, started here and stopped by PID): two workers, one SIGKILLed in the middle
 * of a job, give the same results file as a local run; a coordinator killed and
 * restarted adopts what finished while it was away; dropped lines are the only runs
 * queued again.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, QUEUE_NAME } from '../../src/sweep/queue-connection.ts';
import { ROOT, sim } from '../support/sim-cli.ts';
import { freePort, missingServers, start, startRedis, stop, waitFor, type Started } from '../support/servers.ts';

// small.json with its last three runs (16-node shifts) made long, about a second each: the
// first test kills a worker inside one, and with 400 messages (a tenth of a second) the
// kill could land after the last had completed (no job left active; seen under a full suite).
const SMALL = 'test/fixtures/sweeps/queue.json';
const SIM = join(ROOT, 'bin/sim.mjs');
const missing = missingServers(['redis-server'], 'sim sweep --queue tests');

describe.skipIf(missing.length > 0)('sim sweep --queue (BullMQ on a real Redis)', () => {
  let dir: string;
  let redis: Started;
  let url: string;
  let reference: string;
  const workers: Started[] = [];
  const worker = (...extra: string[]) => {
    const w = start(process.execPath, [SIM, 'worker', '--queue', url, '--lock', '4', ...extra], { cwd: ROOT });
    workers.push(w);
    return w;
  };
  const coordinator = (out: string) => {
    const c = start(process.execPath, [SIM, 'sweep', SMALL, '--out', out, '--queue', url, '--json'], { cwd: ROOT });
    workers.push(c);
    return c;
  };
  const logged = (w: Started, what: 'started' | 'done') =>
    [...w.stderr().matchAll(new RegExp(`run (\\d+) (run-[0-9a-f]{64}) ${what}`, 'g'))].map((m) => ({ i: Number(m[1]), key: m[2] }));
  const started = (w: Started) => logged(w, 'started');
  /** Ids (run keys) of the jobs now active in the queue. */
  const activeJobs = async (): Promise<string[]> => {
    const connection = await connectRedis(url);
    const queue = new Queue(QUEUE_NAME, { connection });
    try {
      return (await queue.getActive()).map((job) => String(job.id));
    } finally {
      await queue.close();
      connection.disconnect();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-queue-'));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}/0`;
    redis = await startRedis(port, dir, ['--maxmemory-policy', 'noeviction']);
    const local = await sim(['sweep', SMALL, '--out', join(dir, 'local.jsonl'), '--workers', '2']);
    expect(local.code).toBe(0);
    reference = readFileSync(join(dir, 'local.jsonl'), 'utf8');
  }, 90_000);

  afterAll(async () => {
    for (const w of workers) await stop(w);
    await stop(redis);
  }, 30_000);

  it('gives the local bytes with two workers, one killed (SIGKILL) in the middle of a job', { timeout: 120_000 }, async () => {
    const out = join(dir, 'queue.jsonl');
    // The doomed worker runs alone, one job at a time, until it is inside one of the
    // slow runs (the last three, 16-node shifts); then it is killed and the survivor starts.
    const doomed = worker();
    await waitFor('the doomed worker to listen', () => doomed.stderr().includes('listening'), 30_000);
    const coord = coordinator(out);
    await waitFor('a slow run to start on the doomed worker', () => started(doomed).some((s) => s.i >= 21), 60_000);
    process.kill(doomed.pid, 'SIGKILL');
    await doomed.closed;
    // The job it was killed in, as Redis holds it: the one job still active (locked by the
    // dead worker). Not from its log: on a loaded machine the kill can land after a job was
    // completed in Redis and before the worker logged it, or after the next job became
    // active and before its 'started' line.
    const inFlight = await activeJobs();
    expect(inFlight).toHaveLength(1);
    const survivor = worker('--idle-exit', '20');
    try {
      expect(await coord.exited).toBe(0);
      await coord.closed;
      expect(JSON.parse(coord.stdout())).toMatchObject({ runs: 24, ran: 24, verified: 21, unverified: 1, failed: 2, refused: [] });
      expect(readFileSync(out, 'utf8')).toBe(reference);
      // The survivor is alive: wait for its log of the job it took over (the coordinator has the result).
      await waitFor("the survivor's log of the killed worker's job", () => logged(survivor, 'done').some((s) => s.key === inFlight[0]), 10_000);
      // The killed worker's job had not completed: it stalled and ran again on the survivor.
      expect(started(survivor).map((s) => s.key)).toContain(inFlight[0]);
    } finally {
      // Stopped even when an expectation fails, so it takes no job of the next test.
      await stop(survivor);
    }
  });

  it('adopts the jobs that finished while the coordinator was away, and queues only dropped runs again', { timeout: 120_000 }, async () => {
    const out = join(dir, 'adopt.jsonl');
    const w = worker('--workers', '2');
    let coord = coordinator(out);
    await waitFor('the coordinator to record a run', () => existsSync(`${out}.part-queue`) && readFileSync(`${out}.part-queue`, 'utf8').split('\n').length > 3, 60_000);
    process.kill(coord.pid, 'SIGKILL');
    await coord.exited;
    // What it recorded: the last of these may still be a completed job in Redis (killed
    // between writing its line and removing the job), which a later coordinator adopts
    // rather than queues again, so the runs dropped below are chosen from the others.
    const recordedByFirst = new Set([...readFileSync(`${out}.part-queue`, 'utf8').matchAll(/"key":"(run-[0-9a-f]{64})"/g)].map((m) => m[1]));
    // The workers go on without it; once they are idle, every job is done.
    await waitFor('the worker to run all 24 jobs', () => new Set(started(w).map((s) => s.key)).size === 24, 60_000);
    coord = coordinator(out);
    expect(await coord.exited).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(reference);
    const before = started(w).length;
    const doneBefore = logged(w, 'done').length;

    // Drop three runs the second coordinator recorded (and so removed from Redis) from the part: only those are queued and run again.
    const lines = readFileSync(`${out}.part-queue`, 'utf8').trimEnd().split('\n');
    const keyOf = (l: string) => /"key":"(run-[0-9a-f]{64})"/.exec(l)?.[1];
    const droppable = lines.filter((l) => keyOf(l) !== undefined && !recordedByFirst.has(keyOf(l)!));
    expect(droppable.length).toBeGreaterThanOrEqual(3);
    const droppedLines = new Set(droppable.slice(0, 3));
    const dropped = [...droppedLines].map((l) => keyOf(l)!);
    writeFileSync(`${out}.part-queue`, `${lines.filter((l) => !droppedLines.has(l)).join('\n')}\n`);
    rmSync(out);
    coord = coordinator(out);
    expect(await coord.exited).toBe(0);
    await coord.closed;
    expect(JSON.parse(coord.stdout())).toMatchObject({ ran: 3 });
    // The worker is alive: its lines reach us when they reach us, so wait for the three it must have written.
    await waitFor("the worker's log of the three runs", () => logged(w, 'done').length >= doneBefore + 3, 10_000);
    expect(started(w).slice(before).map((s) => s.key).sort()).toEqual([...dropped].sort());
    expect(readFileSync(out, 'utf8')).toBe(reference);
  });

  it('a coordinator stopped by Ctrl-C exits 130, as a local sweep does (it exited 1, "runs missing")', { timeout: 60_000 }, async () => {
    const out = join(dir, 'interrupted.jsonl');
    // Database 1, where no worker of the other tests listens: nothing runs before the signal.
    const c = start(process.execPath, [SIM, 'sweep', SMALL, '--out', out, '--queue', url.replace(/\/0$/, '/1'), '--json'], { cwd: ROOT });
    workers.push(c);
    await waitFor('the coordinator to start its part', () => existsSync(`${out}.part-queue`), 30_000);
    process.kill(c.pid, 'SIGINT');
    expect(await c.exited).toBe(130);
    await c.closed;
    expect(JSON.parse(c.stdout())).toMatchObject({ ran: 0, missing: 24 });
  });

  it('refuses a database Redis does not have (the worker logged the error and took jobs from database 0)', async () => {
    const other = url.replace(/\/0$/, '/99');
    for (const args of [['worker', '--queue', other, '--idle-exit', '1'], ['sweep', 'status', SMALL, '--out', join(dir, 'db.jsonl'), '--queue', other]]) {
      const r = await sim(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`sim: --queue ${other}: Redis refuses database 99 (ERR DB index is out of range); expected a database it has (0 to 15 by default)\n`);
    }
  });
});
