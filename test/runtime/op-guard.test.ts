/**
 * The forgotten-`yield*` guard (src/runtime/op-guard.ts) on real runs: an operation
 * created and never run is named where it is found — at the next operation, when
 * main returns, after a plain handler — whichever Strata call it was; StrataExit(0)
 * abandons an operation in progress without complaint.
 */
import { describe, expect, it } from 'vitest';
import { CombineOp, type Op, type Runtime } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';

/** Calls that take time, each created on node 0 and never run. */
const FORGOTTEN: [string, (rt: Runtime) => Op<unknown>][] = [
  ['barrier', (rt) => rt.barrier()],
  ['combineInt', (rt) => rt.combineInt(1, CombineOp.ReduceAdd)],
  ['startBarrier', (rt) => rt.startBarrier()],
  ['broadcast', (rt) => rt.broadcast(5)],
  ['pollBothUntil', (rt) => rt.pollBothUntil(() => true)],
  ['sendBlockXferPollBoth', (rt) => rt.sendBlockXferPollBoth(1, 0, 0, [1, 2, 3])],
  ['emptyPrintQ', (rt) => rt.emptyPrintQ()],
];

describe('the forgotten-yield* guard', () => {
  for (const [name, create] of FORGOTTEN) {
    it(`names main when ${name}() is created and main returns without running it`, () => {
      expect(() =>
        runInline('paragon', 2, function* (rt) {
          if (rt.self === 0) void create(rt);
        }),
      ).toThrow(/^node 0: main created a Strata operation without running it/);
    });
  }

  it('names the program when the next operation starts', () => {
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 1) void rt.queryBarrier();
        yield* rt.barrier();
      }),
    ).toThrow(/^node 1: the program created a Strata operation without running it/);
  });

  it('lets StrataExit(0) abandon an operation in progress', () => {
    const { results } = runInline('cm5', 2, function* (rt) {
      if (rt.self === 0) {
        void rt.pollBoth();
        rt.strataExit(0);
      }
      yield* rt.pollBoth();
      return rt.self;
    });
    expect(results).toEqual([undefined, 1]);
  });
});
