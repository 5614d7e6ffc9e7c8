/**
 * The collectives on every platform (Appendix A 4): segmented scans, vector combines
 * and their costs (Fig. 6-6), global ORs, broadcasts, composite reductions and the
 * global median. Their misuse is collectives-misuse.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { combineAll, COMBINE_OP_NAMES, CombineOp, SegmentType } from '../../src/network/combine.ts';
import { CompositeOp } from '../../src/runtime/index.ts';
import { COMBINE_HEADER_WORDS } from '../../src/platform/packets.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform, PLATFORM_NAMES, type PlatformName } from '../support/platforms.ts';

const { NoBoundary: N, ElementBoundary: E, ArrayBoundary: A } = SegmentType;

/** A deterministic pseudo-random word for (node, index, salt). */
function word(node: number, i: number, salt = 0): number {
  let h = Math.imul(node + 1, 0x9e3779b1) ^ Math.imul(i + 7, 0x85ebca6b) ^ salt;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) | 0;
}

describe.each(PLATFORM_NAMES)('segmented scans on %s (Appendix A 4.3.1)', (platform) => {
  const values = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4];
  const scan = (segments: number[]) =>
    runInline(platform, 16, function* (rt) {
      rt.setSegment(segments[rt.self] as SegmentType);
      return yield* rt.combineInt(values[rt.self], CombineOp.ScanAdd);
    }).results;

  it('case 1, ElementBoundary: the first node of each segment gets the identity', () => {
    expect(scan([E, N, N, N, E, N, N, N, E, N, N, N, E, N, N, N])).toEqual([0, 1, 2, 3, 0, 2, 4, 6, 0, 3, 6, 9, 0, 4, 8, 12]);
  });

  it("case 2, ArrayBoundary: the first node of each segment gets the previous segment's sum", () => {
    expect(scan([A, N, N, N, A, N, N, N, A, N, N, N, A, N, N, N])).toEqual([0, 1, 2, 3, 4, 2, 4, 6, 8, 3, 6, 9, 12, 4, 8, 12]);
  });
});

/** Per-platform machine sizes, some not powers of two. */
const SIZES: [PlatformName, number][] = [
  ['cm5', 16],
  ['alewife', 12],
  ['paragon', 16],
  ['atm', 6],
];

describe.each(SIZES)('vector combines on %s (%i nodes)', (platform, nodes) => {
  it('match the reference for all fifteen ops, with random segments, over several message chunks', () => {
    const length = 41; // more than two 17-word chunks on the PROTEUS platforms
    const ops = Object.values(CombineOp);
    const segmentOf = (node: number) => ([N, N, E, A, N][(word(node, 0, 99) >>> 0) % 5] as SegmentType);
    const { results } = runInline(platform, nodes, function* (rt) {
      rt.setSegment(segmentOf(rt.self));
      const out: number[][] = [];
      for (const op of ops) {
        const from = Int32Array.from({ length }, (_, i) => word(rt.self, i, op));
        const to = new Array<number>(length).fill(0);
        yield* rt.combineVector(to, from, op);
        out.push(to);
      }
      return out;
    });
    const segments = Array.from({ length: nodes }, (_, i) => segmentOf(i));
    ops.forEach((op, k) => {
      for (let e = 0; e < length; e += 8) {
        const column = Array.from({ length: nodes }, (_, node) => word(node, e, op));
        const expected = combineAll(op, column, segments);
        expect(
          results.map((r) => r[k][e]),
          `${COMBINE_OP_NAMES[op]} element ${e}`,
        ).toEqual(expected);
      }
    });
  });

  it('split-phase: a node keeps computing between start and complete, and may combine in place', () => {
    const { results } = runInline(platform, nodes, function* (rt) {
      const v = [rt.self, 1, -rt.self];
      yield* rt.startCombineVector(v, v, CombineOp.ReduceAdd);
      rt.compute(500);
      yield* rt.completeCombineVector();
      return v;
    });
    const sum = (nodes * (nodes - 1)) / 2;
    for (const r of results) expect(r).toEqual([sum, nodes, -sum]);
  });
});

describe('vector combine costs (thesis Fig. 6-6)', () => {
  const cycles = (platform: PlatformName, nodes: number, length: number) =>
    Math.max(
      ...runInline(platform, nodes, function* (rt) {
        const v = new Int32Array(length).fill(rt.self);
        yield* rt.barrier();
        const start = rt.cycleCount();
        yield* rt.combineVector(v, v, CombineOp.ScanAdd);
        return rt.elapsedCycles(start);
      }).results,
    );

  it('on the CM-5 are pipelined: 150 cycles plus 49 per further word, whatever the machine size', () => {
    for (const nodes of [4, 32]) {
      expect(cycles('cm5', nodes, 1)).toBe(150);
      // The waiting node notices completion at its next 5-cycle status check.
      const long = cycles('cm5', nodes, 100);
      expect(long).toBeGreaterThanOrEqual(150 + 99 * 49);
      expect(long).toBeLessThan(150 + 99 * 49 + 5);
    }
  });

  it('on the combining trees grow with both the length and log P (a length x log P term)', () => {
    const small = [cycles('alewife', 4, 8), cycles('alewife', 4, 64)];
    const large = [cycles('alewife', 64, 8), cycles('alewife', 64, 64)];
    expect(large[0]).toBeGreaterThan(small[0]);
    // The per-element slope itself grows with the tree's height.
    expect((large[1] - large[0]) / 56).toBeGreaterThan(1.5 * ((small[1] - small[0]) / 56));
  });
});

describe.each(PLATFORM_NAMES)('global OR on %s (Appendix A 4.2)', (platform) => {
  it('returns the OR of every node, split-phase or in one call, and a barrier is GlobalOR(false)', () => {
    const { results } = runInline(platform, 8, function* (rt) {
      const none = yield* rt.globalOR(false);
      const one = yield* rt.globalOR(rt.self === 5);
      yield* rt.startGlobalOR(rt.self % 2 === 1);
      while (!(yield* rt.queryGlobalOR())) yield* rt.pollBothTilEmpty();
      const odd = yield* rt.completeGlobalOR();
      yield* rt.barrier();
      return [none, one, odd];
    });
    for (const r of results) expect(r).toEqual([false, true, true]);
  });

  it('the asynchronous global OR starts true, turns false once every node clears its bit, and true again after one sets it', () => {
    const { results } = runInline(platform, 8, function* (rt) {
      const initially = yield* rt.getAsyncGlobalOR();
      // Setting a bit that is set already changes nothing (it is not counted twice).
      yield* rt.setAsyncGlobalOR(true);
      yield* rt.setAsyncGlobalOR(false);
      let polls = 0;
      while ((yield* rt.getAsyncGlobalOR()) && polls < 10_000) {
        yield* rt.pollBothTilEmpty();
        rt.compute(20);
        polls++;
      }
      yield* rt.barrier();
      if (rt.self === 3) yield* rt.setAsyncGlobalOR(true);
      // Bounded, as the first: a wrong count at node 0 left this loop spinning forever.
      let again = 0;
      while (!(yield* rt.getAsyncGlobalOR()) && again < 10_000) {
        yield* rt.pollBothTilEmpty();
        rt.compute(20);
        again++;
      }
      return [initially, polls > 0 && polls < 10_000, again < 10_000];
    });
    for (const r of results) expect(r).toEqual([true, true, true]);
  });

  it('the asynchronous global OR tells the nodes only when it changes', () => {
    const { results, summary } = runInline(platform, 4, function* (rt) {
      if (rt.self !== 0) yield* rt.setAsyncGlobalOR(false);
      for (let i = 0; i < 50; i++) {
        yield* rt.pollBothTilEmpty();
        rt.compute(100);
      }
      return yield* rt.getAsyncGlobalOR();
    });
    expect(results).toEqual([true, true, true, true]);
    // Three nodes' bits cleared, node 0's still set: the OR stays true, and on the data
    // network the only packets are the three changes reported to node 0.
    expect(summary.packetsSent).toBe(platform === 'cm5' ? 0 : 3);
  });

  // C's Bool is an int, True (1) or False (0). On the data-network platforms setting 1 over
  // the initial true counted a second set bit, and the OR stayed true after every node set 0.
  it("takes C's True and False (1 and 0) as true and false", () => {
    const { results } = runInline(platform, 4, function* (rt) {
      yield* rt.setAsyncGlobalOR(1 as unknown as boolean);
      yield* rt.barrier();
      yield* rt.setAsyncGlobalOR(0 as unknown as boolean);
      for (let i = 0; i < 50 && (yield* rt.getAsyncGlobalOR()); i++) {
        yield* rt.pollBothTilEmpty();
        rt.compute(2000);
      }
      return yield* rt.getAsyncGlobalOR();
    });
    expect(results).toEqual([false, false, false, false]);
  });
});

describe.each(PLATFORM_NAMES)('broadcasts on %s (Appendix A 4.4)', (platform) => {
  it('deliver a word, a double and a long vector from any node to all the others, in order', () => {
    const nodes = platform === 'cm5' ? 8 : 6;
    const vector = Array.from({ length: 45 }, (_, i) => word(9, i));
    const { results } = runInline(platform, nodes, function* (rt) {
      const got: number[] = [];
      for (const root of [0, 3, 5]) {
        if (rt.self === root) {
          yield* rt.broadcast(root * 100 - 7);
          yield* rt.broadcastDouble(Math.PI * root);
          const to = new Int32Array(vector.length);
          yield* rt.broadcastVector(to, vector);
          got.push(root * 100 - 7, Math.PI * root, ...to);
          while (!(yield* rt.queryBroadcast())) yield* rt.pollBothTilEmpty();
        } else {
          got.push(yield* rt.receiveBroadcast());
          got.push(yield* rt.receiveBroadcastDouble());
          const to = new Int32Array(vector.length);
          yield* rt.receiveBroadcastVector(to);
          got.push(...to);
        }
        yield* rt.barrier();
      }
      return got;
    });
    const expected = [0, 3, 5].flatMap((root) => [root * 100 - 7, Math.PI * root, ...vector]);
    for (const r of results) expect(r).toEqual(expected);
  });

  // Without a control network these are local: QueryBroadcast a call, GetAsyncGlobalOR a
  // load, SetAsyncGlobalOR of the bit it holds a call and a store (none was checked).
  it('charge QueryBroadcast and the asynchronous global OR their local costs', () => {
    const p = loadTestPlatform(platform);
    const { results } = runInline(platform, 2, function* (rt) {
      const took: number[] = [];
      for (const call of [() => rt.queryBroadcast(), () => rt.getAsyncGlobalOR(), () => rt.setAsyncGlobalOR(true)]) {
        const start = rt.cycleCount();
        yield* call();
        took.push(rt.elapsedCycles(start));
      }
      return took;
    });
    const c = p.controlNetwork;
    expect(results[0]).toEqual(c == null ? [p.cpu.callCycles, p.cpu.loadCycles, p.cpu.callCycles + p.cpu.storeCycles] : [c.queryCycles, c.queryCycles, c.startCycles]);
  });

  // Taken when all but one word had come, a vector one word longer than a message carries
  // ended in 0 (a mutation audit: nothing caught it).
  it('deliver a vector whose last message carries one word', () => {
    const { results } = runInline(platform, 2, function* (rt) {
      const length = rt.maxArgWords - COMBINE_HEADER_WORDS + 1;
      const from = Array.from({ length }, (_, i) => i + 1);
      const to = new Array<number>(length).fill(0);
      if (rt.self === 0) yield* rt.broadcastVector(to, from);
      else yield* rt.receiveBroadcastVector(to);
      return to.at(-1);
    });
    expect(results[1]).toBe(results[0]);
  });

  it('wait in state 7 (Barrier) for a barrier and 6 (Combine) for a combine while traced, then go back', () => {
    const states: number[] = [];
    runInline(
      platform,
      2,
      function* (rt) {
        rt.setState(9);
        if (rt.self === 0) rt.compute(1000);
        yield* rt.barrier();
        if (rt.self === 0) rt.compute(1000);
        yield* rt.combineInt(1, CombineOp.ReduceAdd);
      },
      { trace: { state: (node, _cycle, state) => void (node === 1 && states.push(state)) } },
    );
    expect(states).toEqual([9, 7, 9, 6, 9]);
  });

  // As a C int, 0xffffffff arrived as -1, where the same word in a message arrives as itself.
  it('deliver a word as it was broadcast (0xffffffff as itself), and wait in state 5 (Broadcasting) while traced', () => {
    const states: number[] = [];
    const { results } = runInline(
      platform,
      2,
      function* (rt) {
        rt.setState(9);
        if (rt.self === 0) {
          rt.compute(1000);
          yield* rt.broadcast(0xffffffff);
          return 0;
        }
        return yield* rt.receiveBroadcast();
      },
      { trace: { state: (node, _cycle, state) => void (node === 1 && states.push(state)) } },
    );
    expect(results[1]).toBe(0xffffffff);
    expect(states).toEqual([9, 5, 9]);
  });
});

/** Direct statistics over all nodes' values, as Appendix A 5 defines them. */
function direct(values: number[], op: CompositeOp, kind: 'int' | 'uint' | 'float'): number {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  switch (op) {
    case CompositeOp.Min:
      return sorted[0];
    case CompositeOp.Max:
      return sorted[n - 1];
    case CompositeOp.Average: {
      const sum = values.reduce((a, b) => a + b, 0);
      return kind === 'float' ? Math.fround(sum / n) : Math.trunc(sum / n);
    }
    case CompositeOp.Variance: {
      const mean = values.reduce((a, b) => a + b, 0) / n;
      return values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
    }
    default:
      return sorted[Math.ceil(n / 2) - 1];
  }
}

describe.each(SIZES)('composite reductions on %s (%i nodes)', (platform, nodes) => {
  const cases = {
    int: (i: number) => [-40, 7, 7, 1000, -3, 7, 55, 0, -40, 12, 9, 7, 3, 18, -1, 2][i % 16] * (i < 16 ? 1 : 3),
    uint: (i: number) => [4000000000, 3, 3, 77, 2500000000, 9, 0, 120][i % 8] + i,
    float: (i: number) => Math.fround([2.5, -0.75, 1e3, 3.25, 3.25, -8, 0.125, 42][i % 8] * (1 + i / 16)),
  };
  for (const [kind, valueOf] of Object.entries(cases) as ['int' | 'uint' | 'float', (i: number) => number][]) {
    it(`${kind}: Min, Max, Average, Variance and Median agree with direct computation`, () => {
      const ops = Object.values(CompositeOp);
      const { results } = runInline(platform, nodes, function* (rt) {
        const out: number[] = [];
        for (const op of ops) {
          const x = valueOf(rt.self);
          out.push(
            kind === 'int'
              ? yield* rt.compositeInt(x, op)
              : kind === 'uint'
                ? yield* rt.compositeUint(x, op)
                : yield* rt.compositeFloat(x, op),
          );
        }
        return out;
      });
      const values = Array.from({ length: nodes }, (_, i) => valueOf(i));
      for (const r of results) expect(r).toEqual(results[0]);
      ops.forEach((op, k) => {
        const expected = direct(values, op, kind);
        if (op === CompositeOp.Variance) {
          // Integer variances saturate at the type's largest value.
          const limit = kind === 'uint' ? 0xffffffff : kind === 'int' ? 0x7fffffff : Infinity;
          expect(results[0][k] / Math.min(expected, limit)).toBeCloseTo(1, 3);
        } else if (kind === 'uint' && op === CompositeOp.Average) {
          // The sum wraps modulo 2^32 like ReduceUadd (Appendix A 5).
          const sum = values.reduce((a, b) => (a + b) % 2 ** 32, 0);
          expect(results[0][k]).toBe(Math.floor(sum / nodes));
        } else if (kind === 'float' && op === CompositeOp.Average) {
          expect(results[0][k]).toBeCloseTo(expected, 3);
        } else {
          expect(results[0][k], Object.keys(CompositeOp)[op]).toBe(expected);
        }
      });
    });
  }
});

describe('the global median (thesis Fig. 6-2)', () => {
  it.each([
    ['all equal', () => 5],
    ['a skewed tail', (i: number) => (i === 0 ? 1_000_000 : i % 3)],
    ['descending with ties', (i: number) => 20 - 2 * Math.floor(i / 3)],
  ])('finds the lower middle value: %s', (_name, valueOf) => {
    for (const nodes of [1, 2, 9, 16]) {
      const { results } = runInline('paragon', nodes, function* (rt) {
        return yield* rt.compositeInt(valueOf(rt.self), CompositeOp.Median);
      });
      const values = Array.from({ length: nodes }, (_, i) => valueOf(i));
      expect(results[0]).toBe(direct(values, CompositeOp.Median, 'int'));
    }
  });

  it('returns zero variance on one node', () => {
    expect(runInline('cm5', 1, (rt) => rt.compositeFloat(3.5, CompositeOp.Variance)).results).toEqual([0]);
  });
});
