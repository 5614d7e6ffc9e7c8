/**
 * Misuse of the collectives (Appendix A 4): vector combines, broadcasts, global ORs and
 * composite reductions called wrongly fail the run with one message naming the call and
 * what was expected. Their correct use is collectives.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { CombineOp, SegmentType } from '../../src/network/combine.ts';
import { CompositeOp, type Op, type Runtime } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';
import { PLATFORM_NAMES } from '../support/platforms.ts';

describe('misuse of the collectives fails the run with a clear message', () => {
  it.each(PLATFORM_NAMES)('on %s, vector combines of different lengths', (platform) => {
    expect(() =>
      runInline(platform, 4, function* (rt) {
        const v = new Array<number>(rt.self === 2 ? 3 : 5).fill(1);
        yield* rt.combineVector(v, v, CombineOp.ReduceAdd);
      }),
    ).toThrow(/vector combine of \d elements while another node used \d/);
  });

  it('a vector combine called with its arguments out of order (it said "(undefined elements): expected 1 to NaN")', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        yield* rt.combineVector(CombineOp.ReduceAdd as never, [1, 2] as never, CombineOp.ReduceAdd);
      }),
    ).toThrow(/^node 0: combineVector\(to, from, op, count\?\): expected arrays for to and from, got number and object/);
  });

  it('a vector combine longer than a combining tree\'s header can announce (2^19 - 1 elements), where there is no control network', () => {
    // One more, and the header word passed 2^32: a child's message was refused as not a word.
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        const v = new Int32Array(524_288);
        yield* rt.combineVector(v, v, CombineOp.ReduceAdd);
      }),
    ).toThrow(/^node 0: a vector combine of 524288 elements; at most 524287 here$/);
  });

  it('a receive broadcast that expects a different length', () => {
    expect(() =>
      runInline('atm', 3, function* (rt) {
        if (rt.self === 0) yield* rt.broadcastVector([0, 0], [1, 2]);
        else yield* rt.receiveBroadcastVector(new Int32Array(3));
      }),
    ).toThrow(/receiveBroadcastVector expected 3 words but the broadcast carried 2/);
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 0) yield* rt.broadcastVector([0, 0, 0], [1, 2, 3]);
        else yield* rt.receiveBroadcastVector([0, 0]);
      }),
    ).toThrow(/^node 1: receiveBroadcastVector expected 2 words but the broadcast carried 3$/);
  });

  it('a broadcast of what is not a 32-bit word, or a double that is not a number', () => {
    const cases: [(rt: Runtime) => Op, RegExp][] = [
      [(rt) => rt.broadcast(1.5), /^node 0: broadcast value 1\.5 is not a 32-bit word$/],
      [(rt) => rt.broadcast(2 ** 32), /^node 0: broadcast value 4294967296 is not a 32-bit word$/],
      [(rt) => rt.broadcastVector([0, 0], [1, 1.5]), /^node 0: broadcast value 1\.5 is not a 32-bit word$/],
      [(rt) => rt.broadcastDouble('x' as never), /^node 0: broadcastDouble\(x\): expected a number$/],
    ];
    for (const [call, message] of cases) {
      expect(() =>
        runInline('atm', 2, function* (rt) {
          if (rt.self === 0) yield* call(rt);
          else yield* rt.receiveBroadcast();
        }),
      ).toThrow(message);
    }
  });

  // It said "Composite: -1 is not a unsigned value".
  it('a composite reduction of a value its type does not hold, naming the call and the range', () => {
    const cases: [(rt: Runtime) => Op<number>, string][] = [
      [(rt) => rt.compositeUint(-1, CompositeOp.Max), 'node 0: compositeUint(-1, ...): expected an unsigned int, an integer from 0 to 4294967295'],
      [(rt) => rt.compositeInt(0x80000000, CompositeOp.Min), 'node 0: compositeInt(2147483648, ...): expected an int, an integer from -2147483648 to 2147483647'],
      [(rt) => rt.compositeInt(1.5, CompositeOp.Median), 'node 0: compositeInt(1.5, ...): expected an int'],
      [(rt) => rt.compositeFloat(NaN, CompositeOp.Average), 'node 0: compositeFloat(NaN, ...): expected a number (not NaN)'],
      [(rt) => rt.compositeFloat('2' as never, CompositeOp.Average), 'node 0: compositeFloat("2" (a string), ...): expected a number (not NaN)'],
    ];
    for (const [call, message] of cases) expect(() => runInline('cm5', 2, (rt) => call(rt))).toThrow(message);
  });

  it('a bad segment type', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        rt.setSegment(7 as SegmentType);
      }),
    ).toThrow(/setSegment\(7\): expected NoBoundary \(0\), ElementBoundary \(1\) or ArrayBoundary \(2\)/);
  });

  it('a vector combine with an op that is not one of the fifteen, from an Int32Array or Uint32Array (whose elements are not checked one by one) as from an array', () => {
    for (const from of [new Int32Array([1, -2]), new Uint32Array([1, 0xffffffff]), [1, 2]]) {
      expect(() =>
        runInline('cm5', 2, function* (rt) {
          yield* rt.combineVector([0, 0], from, 15 as CombineOp);
        }),
      ).toThrow(/^node 0: vector combine op 15 is not one of the fifteen CombineOps/);
    }
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        yield* rt.combineVector([0, 0], new Float64Array([1, 2.5]), CombineOp.ReduceAdd);
      }),
    ).toThrow(/^node 0: vector combine value 2.5 is not a 32-bit word/);
  });

  it('a vector count of zero, or more than the result array holds', () => {
    const run = (toLength: number, count: number) => () =>
      runInline('cm5', 2, function* (rt) {
        yield* rt.combineVector(new Int32Array(toLength), [1, 2, 3], CombineOp.ReduceAdd, count);
      });
    expect(run(3, 3)).not.toThrow();
    expect(run(3, 0)).toThrow(/^node 0: combineVector\(0 elements\): expected 1 to 3 \(the arrays' lengths\)/);
    expect(run(2, 3)).toThrow(/^node 0: combineVector\(3 elements\): expected 1 to 2 \(the arrays' lengths\)/);
    // Not refused, a count of 1.5 made "RangeError: Invalid array length" (a mutation audit).
    expect(run(3, 1.5)).toThrow(/^node 0: combineVector\(1\.5 elements\): expected 1 to 3 \(the arrays' lengths\)/);
  });

  it('a split-phase combine of what is not a word, or with an op that is not one of the fifteen', () => {
    const start = (value: number, op: number) => () =>
      runInline('atm', 2, function* (rt) {
        yield* rt.startCombineInt(value, op as CombineOp);
        yield* rt.completeCombineInt();
      });
    expect(start(1.5, CombineOp.ReduceAdd)).toThrow(/^node 0: combine value 1\.5 is not a 32-bit word$/);
    expect(start(1, 99)).toThrow(/^node 0: combine op 99 is not one of the fifteen CombineOps$/);
  });

  // An empty vector (count defaults to its length) said "expected 1 to 0".
  it('a vector combine or broadcast of empty arrays', () => {
    const cases: [(rt: Runtime) => Op, RegExp][] = [
      [(rt) => rt.combineVector([], [], CombineOp.ReduceAdd), /^node 0: combineVector\(0 elements\): expected arrays of at least 1 element; to holds 0 and from 0$/],
      [(rt) => rt.broadcastVector([], [1, 2]), /^node 0: broadcastVector\(2 elements\): expected arrays of at least 1 element; to holds 0 and from 2$/],
      [(rt) => rt.receiveBroadcastVector([]), /^node 0: receiveBroadcastVector\(0 elements\): expected arrays of at least 1 element; the array is empty$/],
    ];
    for (const [call, message] of cases) expect(() => runInline('atm', 2, (rt) => call(rt))).toThrow(message);
  });

  // completeCombineInt before any startCombineInt returned undefined (an Op<number>), and
  // completeGlobalOR before any global OR returned true.
  it.each(PLATFORM_NAMES)('on %s, completing a combine or global OR that was never started', (platform) => {
    expect(() => runInline(platform, 4, (rt) => rt.completeCombineInt())).toThrow(/^node 0: completeCombineInt before any startCombineInt on this node$/);
    expect(() => runInline(platform, 4, (rt) => rt.completeGlobalOR())).toThrow(/^node 0: completeGlobalOR before any startGlobalOR \(or barrier\) on this node$/);
  });

  it('completing a combine twice gives its result again, as reading the result again does', () => {
    const { results } = runInline('paragon', 4, function* (rt) {
      yield* rt.startCombineInt(rt.self, CombineOp.ReduceAdd);
      return [yield* rt.completeCombineInt(), yield* rt.completeCombineInt()];
    });
    expect(results).toEqual(new Array(4).fill([6, 6]));
  });

  it('completing one split-phase vector combine twice', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        const to = [0, 0];
        yield* rt.startCombineVector(to, [1, 2], CombineOp.ReduceAdd);
        yield* rt.completeCombineVector();
        expect(to).toEqual([2, 4]);
        yield* rt.completeCombineVector();
      }),
    ).toThrow(/^node 0: completeCombineVector without a vector combine in progress/);
  });
});
