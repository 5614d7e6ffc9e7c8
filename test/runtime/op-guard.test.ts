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
  // Sends are state machines that count their own start (StepOp.countStart), not GuardedOps.
  ['sendLeftPollBoth', (rt) => rt.sendLeftPollBoth(1, () => undefined)],
  ['sendXferBothRLPollBoth', (rt) => rt.sendXferBothRLPollBoth(1, 0, 7)],
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

  it("hands an operation's result and exception to the app's yield* through the app's own generators", () => {
    // The node's thread resumes a waiting operation directly, past the generators of
    // the app around it; what the operation returns or throws must still arrive where
    // the app's yield* waits, through its try/catch/finally.
    function explode(): void {
      throw new Error('handler exploded');
    }
    function* sum(rt: Runtime): Op<number> {
      return yield* rt.combineInt(rt.self + 1, CombineOp.ReduceAdd);
    }
    function* program(rt: Runtime): Op<string> {
      const log: string[] = [];
      try {
        log.push(`sum ${yield* sum(rt)}`);
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, explode);
        else yield* rt.pollBothUntil(() => false);
      } catch (e) {
        log.push(`caught ${(e as Error).message}`);
      } finally {
        log.push('finally');
      }
      yield* rt.barrier();
      return log.join(', ');
    }
    const { results } = runInline('cm5', 2, function* (rt) {
      return yield* program(rt);
    });
    expect(results).toEqual(['sum 3, caught handler exploded, finally', 'sum 3, finally']);
  });

  // The bare yield was caught in main alone: in a generator handler `yield 5` passed five
  // cycles on no call and the run verified; `yield rt.barrier()` reached the kernel,
  // which refused it "outside any node: RangeError: event delay must be ...".
  it.each([
    ['a number', (): unknown => 5, /^node 0: handler bump yielded number 5; runtime calls are made with yield\* .*, and a handler yields nothing itself$/],
    ["a call's generator", (rt: Runtime): unknown => rt.barrier(), /^node 0: handler bump yielded a runtime call's generator; runtime calls are made with yield\* /],
  ])('names a generator handler that yields %s itself', (_what, yielded, message) => {
    const bump = function* (rt: Runtime): Op {
      yield* rt.pollBoth(); // a runtime call inside a handler is fine
      yield yielded(rt) as number;
    };
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, bump);
        yield* rt.barrier();
        if (rt.self === 0) yield* rt.pollBothTilEmpty();
        yield* rt.barrier();
      }),
    ).toThrow(message);
  });
});
