/**
 * The worker pool (src/sweep/pool.ts) under `sim sweep --workers` and `sim calibrate
 * --workers`: an error thrown in a worker thread, or a thread that ends itself, fails the
 * whole map with one error once the pool is gone; neither is swallowed nor waited for
 * without end.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SimError } from '../../src/kernel/errors.ts';
import { mapInPool } from '../../src/sweep/pool.ts';
import { ROOT, sim } from '../support/sim-cli.ts';

const WORKER = { filename: pathToFileURL(join(ROOT, 'test/fixtures/pool/worker.mjs')).href, name: 'twice' };

describe('mapInPool', () => {
  it('hands back every result with its index', async () => {
    const seen: [number, number][] = [];
    await mapInPool<number, number>(WORKER, [1, 2, 3, 4, 5], 2, (r, i) => seen.push([i, r]));
    expect(seen.sort((a, b) => a[0] - b[0])).toEqual([[0, 2], [1, 4], [2, 6], [3, 8], [4, 10]]);
  });

  it('rejects with the error a worker throws, and starts no item after it', async () => {
    await expect(mapInPool(WORKER, [1, { throw: 'item 1 is bad' }, 3, 4], 2, () => {})).rejects.toThrow('item 1 is bad');
    // Two threads hold a few items at a time (two running, two queued); once the first has
    // failed, those under way may finish but no more start: of twenty items of 100 ms (a
    // second's work), most never run.
    const seen: number[] = [];
    const items = [{ throw: 'item 0 is bad' }, ...Array.from({ length: 20 }, (_, k) => ({ slow: k + 1 }))];
    await expect(mapInPool<unknown, number>(WORKER, items, 2, (_, i) => seen.push(i))).rejects.toThrow('item 0 is bad');
    expect(seen.length).toBeLessThan(10);
  });

  it('rejects with a SimError when a worker thread exits (it waited for ever, and the process ended with exit code 13)', { timeout: 20_000 }, async () => {
    const failed = mapInPool(WORKER, [1, { exit: 3 }, 3, 4], 2, () => {});
    await expect(failed).rejects.toThrow(SimError);
    await expect(failed).rejects.toThrow('a worker thread exited (exit code 3) before its work was done, which is lost (code that calls process.exit ends its thread)');
  });
});

describe('sim sweep --workers 2 with an app that ends its worker thread', () => {
  it('says so in one line, exit 1 (it printed nothing, exit 13); --workers 1 then finishes the sweep', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-pool-'));
    writeFileSync(join(dir, 'k.json'), JSON.stringify({ name: 'k', runs: [{ app: join(ROOT, 'test/fixtures/thread-exit-app'), platform: 'cm5', nodes: 2, params: { k: [1, 2, 3] } }] }));
    const two = await sim(['sweep', 'k.json', '--out', 'k.jsonl', '--workers', '2'], dir, {}, 30_000);
    expect(two.stderr).toBe('sim: a worker thread exited (exit code 3) before its work was done, which is lost (code that calls process.exit ends its thread)\n');
    expect(two.code).toBe(1);
    const one = await sim(['sweep', 'k.json', '--out', 'k.jsonl', '--workers', '1'], dir);
    expect(one.code).toBe(0);
    expect(readFileSync(join(dir, 'k.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(1 + 3);
    // The timing sidecar gives each run's wall time to the microsecond (not whole milliseconds).
    const wallMs = readFileSync(join(dir, 'k.jsonl.part-1-of-1.timing.jsonl'), 'utf8').trimEnd().split('\n').slice(1).map((l) => (JSON.parse(l) as { wallMs: number }).wallMs);
    expect(wallMs).toHaveLength(3);
    // As written: at most three decimals. (ms * 1000 compared with its rounding failed now and
    // then: 1.001 * 1000 is 1000.9999999999999 in binary floating point.)
    expect(wallMs.every((ms) => /^\d+(\.\d{1,3})?$/.test(String(ms)))).toBe(true);
    expect(wallMs.some((ms) => !Number.isInteger(ms))).toBe(true);
  });
});
