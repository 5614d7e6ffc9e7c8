import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInWorker } from '../../src/cli/run-worker.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import pingPong from '../../apps/ping-pong/index.ts';
import cshift from '../../apps/cshift/index.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const ROOT = join(import.meta.dirname, '../..');

function run(app: typeof pingPong | typeof cshift, platform: 'cm5' | 'alewife', params: string[], seed = 1) {
  return runApp(runConfig(loadTestPlatform(platform), app, { params, nodes: 16, seed, network: 'analytic' }));
}

describe('determinism', () => {
  it('gives identical fingerprints and results for the same app and seed, twice in one process', () => {
    const a = run(cshift, 'alewife', ['shift=5', 'messages=40']);
    const b = run(cshift, 'alewife', ['shift=5', 'messages=40']);
    expect(b).toEqual(a);
    expect(a.verified).toBe(true);
  });

  it('gives the same fingerprint in a worker thread as in the main thread', async () => {
    const here = run(pingPong, 'cm5', ['rounds=3']);
    const there = await runInWorker({
      platform: 'cm5',
      app: join(ROOT, 'apps/ping-pong'),
      params: ['rounds=3'],
      nodes: 16,
      seed: 1,
      network: 'analytic',
    });
    expect(there.fingerprint).toBe(here.fingerprint);
    expect(there.simulatedCycles).toBe(here.simulatedCycles);
    expect(there.metrics).toEqual(here.metrics);
  });

  it('rejects when the worker ends without a result (it waited for ever)', async () => {
    const app = join(mkdtempSync(join(tmpdir(), 'sim-worker-exit-')), 'exits.mjs');
    writeFileSync(app, 'process.exit(3);\n');
    await expect(runInWorker({ platform: 'cm5', app, params: [], seed: 1, network: 'analytic' })).rejects.toThrow("the run's worker thread ended (exit code 3) without a result");
  });

  it('reports a failure inside the worker as a rejection', async () => {
    await expect(
      runInWorker({ platform: 'cm5', app: join(ROOT, 'apps/ping-pong'), params: ['rounds=0'], seed: 1, network: 'analytic' }),
    ).rejects.toThrow(/--param rounds=0: expected an integer from 1 to 100000/);
  });

  it('changes the fingerprint with the seed where the program uses randomness, and not where it does not', () => {
    const randomDelays = (seed: number) =>
      runInline(
        'alewife',
        8,
        function* (rt, delays: number[]) {
          rt.compute(delays[rt.self]);
          yield* rt.barrier();
        },
        { seed, setup: (random) => Array.from({ length: 8 }, () => random.int(1000)) },
      ).summary.fingerprint;
    expect(randomDelays(1)).toBe(randomDelays(1));
    expect(randomDelays(1)).not.toBe(randomDelays(2));
    expect(run(pingPong, 'cm5', [], 1).fingerprint).toBe(run(pingPong, 'cm5', [], 2).fingerprint);
  });
});
