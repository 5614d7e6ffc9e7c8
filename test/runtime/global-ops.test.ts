import { describe, expect, it } from 'vitest';
import { combineAll, COMBINE_OP_NAMES, CombineOp } from '../../src/network/combine.ts';
import type { Handler } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';
import { PLATFORM_NAMES, type PlatformName } from '../support/platforms.ts';

/** Machine sizes per platform, including sizes that are not powers of two where allowed. */
const SIZES: [PlatformName, number][] = [
  ['cm5', 8],
  ['alewife', 12],
  ['paragon', 16],
  ['atm', 5],
];

/** A value per node mixing signs and large unsigned words. */
const valueOf = (node: number) => [5, -3, 0x7fffffff, 12, -100, 0xfffffff0, 1, 77, -1, 2, 3, 4, 9, 8, 6, 40][node % 16] + node;

describe('CM-5 control network (Appendix A Table 1)', () => {
  it('completes a barrier 140 cycles and an integer combine 150 cycles after a simultaneous start', () => {
    const { results } = runInline('cm5', 32, function* (rt) {
      let start = rt.cycleCount();
      yield* rt.barrier();
      const barrier = rt.elapsedCycles(start);
      start = rt.cycleCount();
      yield* rt.combineInt(rt.self, CombineOp.ReduceAdd);
      return [barrier, rt.elapsedCycles(start)];
    });
    for (const r of results) expect(r).toEqual([140, 150]);
  });
});

describe.each(SIZES)('combine operations on %s (%i nodes)', (platform, nodes) => {
  it('computes all fifteen CombineOps exactly as the reference scan/back-scan/reduction', () => {
    const ops = Object.values(CombineOp);
    const { results } = runInline(platform, nodes, function* (rt) {
      const out: number[] = [];
      for (const op of ops) out.push(yield* rt.combineInt(valueOf(rt.self), op));
      return out;
    });
    const values = Array.from({ length: nodes }, (_, i) => valueOf(i));
    ops.forEach((op, k) => {
      const expected = combineAll(op, values);
      expect(results.map((r) => r[k]), COMBINE_OP_NAMES[op]).toEqual(expected);
    });
  });

  it('releases no node from a barrier before the last node arrives', () => {
    const { results } = runInline(platform, nodes, function* (rt) {
      rt.compute(1000 * ((rt.self * 7) % nodes));
      const arrived = rt.currentCycle64();
      yield* rt.barrier();
      return [arrived, rt.currentCycle64()];
    });
    const lastArrival = Math.max(...results.map(([a]) => a));
    for (const [, left] of results) expect(left).toBeGreaterThan(lastArrival);
  });

  it('keeps back-to-back episodes apart even when nodes run at different speeds', () => {
    const { results } = runInline(platform, nodes, function* (rt) {
      const sums: number[] = [];
      for (let round = 0; round < 12; round++) {
        rt.compute(((rt.self + round) % 3) * 500);
        sums.push(yield* rt.combineInt(rt.self + round, CombineOp.ReduceAdd));
      }
      return sums;
    });
    const expected = Array.from({ length: 12 }, (_, round) => (nodes * (nodes - 1)) / 2 + nodes * round);
    for (const r of results) expect(r).toEqual(expected);
  });
});

describe('split-phase operations', () => {
  it.each(PLATFORM_NAMES)('on %s, a node can keep receiving messages while its barrier completes', (platform) => {
    const count: Handler<{ got: number }> = (rt) => {
      rt.globals.got++;
    };
    const { results } = runInline(
      platform,
      4,
      function* (rt) {
        if (rt.self === 0) {
          yield* rt.startBarrier();
          while (!(yield* rt.queryBarrier())) yield* rt.pollBothTilEmpty();
          yield* rt.pollBothUntil(() => rt.globals.got === 3 * 5);
        } else {
          for (let i = 0; i < 5; i++) yield* rt.sendLeftPollBoth(0, count);
          yield* rt.barrier();
        }
        return rt.globals.got;
      },
      { globals: () => ({ got: 0 }) },
    );
    expect(results[0]).toBe(15);
  });

  it.each(PLATFORM_NAMES)('on %s, starting a second barrier before the first completes is an error', (platform) => {
    expect(() =>
      runInline(platform, 2, function* (rt) {
        yield* rt.startBarrier();
        yield* rt.startBarrier();
      }),
    ).toThrow(/started a barrier or global OR before its previous one completed/);
  });

  it.each(PLATFORM_NAMES)('on %s, nodes that disagree on the combine op fail the run', (platform) => {
    expect(() =>
      runInline(platform, 4, function* (rt) {
        yield* rt.combineInt(1, rt.self === 3 ? CombineOp.ReduceMax : CombineOp.ReduceAdd);
      }),
    ).toThrow(/with (ReduceAdd|ReduceMax) while another node used (ReduceAdd|ReduceMax)/);
  });
});

describe('combining trees over the data network (thesis 6.2)', () => {
  it('make barriers slower as the machine grows, where the CM-5 control network does not', () => {
    const barrierCycles = (platform: PlatformName, nodes: number) =>
      runInline(platform, nodes, function* (rt) {
        const start = rt.cycleCount();
        yield* rt.barrier();
        return rt.elapsedCycles(start);
      }).results.reduce((a, b) => Math.max(a, b), 0);
    const alewife = [4, 16, 64].map((n) => barrierCycles('alewife', n));
    expect(alewife[1]).toBeGreaterThan(alewife[0]);
    expect(alewife[2]).toBeGreaterThan(alewife[1]);
    expect([4, 16, 64].map((n) => barrierCycles('cm5', n))).toEqual([140, 140, 140]);
  });
});
