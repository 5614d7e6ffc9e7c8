import { describe, expect, it } from 'vitest';
import { RunLimitError } from '../../src/kernel/errors.ts';
import { defineApp } from '../../src/runtime/app.ts';
import type { Runtime } from '../../src/runtime/index.ts';
import { AppRun, runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import cshift from '../../apps/cshift/index.ts';
import stencil from '../../apps/stencil/index.ts';
import { parsePlatform } from '../../src/platform/load-platform.ts';
import { editedPlatformText, loadTestPlatform } from '../support/platforms.ts';

describe('a run made in chunks (the CLI yields between them)', () => {
  it('dispatches the same events in the same order as one call, whatever the chunk size', () => {
    const config = runConfig(loadTestPlatform('cm5'), cshift, { nodes: 16, params: ['messages=32'] });
    const whole = runApp(config);
    for (const chunk of [1, 7, 1000]) {
      const run = new AppRun(config);
      let steps = 0;
      while (!run.advance(chunk)) steps++;
      expect(steps).toBeGreaterThan(0);
      const s = run.summary();
      expect([s.events, s.fingerprint, s.simulatedCycles]).toEqual([whole.events, whole.fingerprint, whole.simulatedCycles]);
    }
  });

  it('a cycle limit the run never reaches changes nothing; one it reaches stops it with every node in the report', () => {
    const platform = loadTestPlatform('cm5');
    const whole = runApp(runConfig(platform, cshift, { nodes: 16 }));
    const roomy = runApp(runConfig(platform, cshift, { nodes: 16, limits: { maxCycles: whole.simulatedCycles, maxEvents: whole.events } }));
    expect([roomy.events, roomy.fingerprint]).toEqual([whole.events, whole.fingerprint]);
    let stopped: unknown;
    try {
      runApp(runConfig(platform, cshift, { nodes: 16, limits: { maxCycles: 1000 } }));
    } catch (e) {
      stopped = e;
    }
    expect(stopped).toBeInstanceOf(RunLimitError);
    const e = stopped as RunLimitError;
    expect([e.limit, e.value, e.cycle]).toEqual(['cycles', 1000, 1001]);
    expect(e.message.split('\n')).toHaveLength(17);
  });

  // The limit is an event: a loop of rt.compute that made no runtime call never let the
  // kernel reach it (waiting for a handler's flag without polling ran for ever, deaf to
  // SIGINT and SIGTERM). Bounded here at 2^21 calls, so that it ends without the check.
  it('stops a loop of local work that goes on past the cycle limit without a runtime call', () => {
    const spin = defineApp({
      name: 'spin',
      description: 'node 0 computes without polling',
      params: {},
      *main(rt) {
        if (rt.self === 0) for (let i = 0; i < 2 ** 21; i++) rt.compute(100);
        yield* rt.barrier();
      },
      verify: () => ({ ok: true, detail: 'ended' }),
    });
    let stopped: unknown;
    try {
      runApp(runConfig(loadTestPlatform('paragon'), spin, { nodes: 4, limits: { maxCycles: 1_000_000 } }));
    } catch (e) {
      stopped = e;
    }
    expect(stopped).toBeInstanceOf(RunLimitError);
    const e = stopped as RunLimitError;
    expect([e.limit, e.value]).toEqual(['cycles', 1_000_000]);
    const lines = e.message.split('\n');
    expect(lines[0]).toMatch(/^stopped at its limit of 1000000 simulated cycles in node 0's compute, called 1048576 times past it without a runtime call \(a loop that never polls lets no time pass\) \(cycle \d+, \d+ events\) before every node had exited$/);
    // The 2^20th call past the limit: 10,000 calls to reach it (the first at cycle 100), then 2^20 more.
    expect(lines[1]).toBe(`  node 0: cycle ${100 * (10_000 + 2 ** 20)}, running`);
  });

  // A loop of local work that costs nothing never reached the cycle limit, which counts
  // calls past it, and never yielded: the process ran until killed, SIGTERM ignored.
  // Bounded here at 2^25 calls, so that it ends without the check.
  it.each([
    ['compute', (rt: Runtime) => rt.compute(0)],
    ['computeOps', (rt: Runtime) => rt.computeOps({ loads: 0 })],
  ])('fails a loop of %s that costs nothing and lets no time pass, naming the node and the call', (call, work) => {
    const spin = defineApp({
      name: 'spin',
      description: 'node 1 computes nothing without polling',
      params: {},
      *main(rt) {
        rt.compute(7);
        if (rt.self === 1) for (let i = 0; i < 2 ** 25; i++) work(rt);
        yield* rt.barrier();
      },
      verify: () => ({ ok: true, detail: 'ended' }),
    });
    expect(() => runApp(runConfig(loadTestPlatform('cm5'), spin, { nodes: 4 }))).toThrow(
      new RegExp(`^node 1: ${call} called 16777216 times in a row at cycle \\d+ at no cost and without a runtime call: a loop that never polls or waits lets no simulated time pass, and nothing else can happen$`),
    );
    // Zero-cost calls with time passing between them are a program's ordinary work.
    const spaced = defineApp({ ...spin, *main(rt) {
      for (let i = 0; i < 2 ** 25; i++) {
        work(rt);
        if (i % 1_000_000 === 0) rt.compute(1);
      }
      yield* rt.barrier();
    } });
    expect(runApp(runConfig(loadTestPlatform('cm5'), spaced, { nodes: 2 })).verified).toBe(true);
  });

  it("names a wait by the app's own label as it is (it said 'waiting in waiting for edges')", () => {
    let stopped: unknown;
    // At 2,300 events two of the four nodes are waiting for their neighbours' edges.
    try {
      runApp(runConfig(loadTestPlatform('alewife'), stencil, { nodes: 4, limits: { maxEvents: 2300 } }));
    } catch (e) {
      stopped = e;
    }
    const lines = (stopped as RunLimitError).message.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}node \d: cycle \d+, waiting for edges$/));
    expect(lines.join('\n')).not.toMatch(/waiting in waiting/);
  });
});

describe('the summary of a machine with a very large network', () => {
  it('reports the link utilization of a 4096-node binary fat tree (about 200,000 channels, more than a call takes arguments)', () => {
    // A platform file the schema accepts (arity 2..16, up to 4096 nodes); its summary
    // once ended the run in a RangeError from Math.max(...channels).
    const text = editedPlatformText('cm5', (p) => {
      p.name = 'cm5-binary';
      p.network.arity = 2;
      p.timerInterrupt = null;
      p.timeSlice = null;
    });
    const s = runApp(runConfig(parsePlatform(text, 'cm5-binary.json'), cshift, { nodes: 4096, params: ['messages=1'] }));
    expect(s.verified).toBe(true);
    expect(s.topology).toContain('2-ary');
    expect(s.linkUtilization.max).toBeGreaterThan(0);
    expect(s.linkUtilization.mean).toBeGreaterThan(0);
    expect(s.linkUtilization.mean).toBeLessThan(s.linkUtilization.max);
  });
});
