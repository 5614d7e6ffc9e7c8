/**
 * The forgotten-`yield*` guard (src/runtime/op-guard.ts) on real runs: an operation
 * created and never run is named where it is found — at the next operation, when
 * main returns, after a plain handler — whichever Strata call it was, with the app's
 * line where it was made (op-sites.ts: the run made again); StrataExit(0) abandons an
 * operation in progress without complaint.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CombineOp, type Op, type Runtime } from '../../src/runtime/index.ts';
import { RunFailure } from '../../src/kernel/errors.ts';
import { runInline } from '../support/inline-app.ts';

/** What `run` throws (it must throw). */
function failureOf(run: () => unknown): RunFailure {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(RunFailure);
    return e as RunFailure;
  }
  throw new Error('the run passed');
}

/**
 * What a 2-node CM-5 run of `main` throws, and how many nodes' globals were made: each run
 * (the one that failed, then the one made again to place its failure) numbered in rt.globals.run.
 */
function failureOfRuns(main: (rt: Runtime<{ run: number }>) => Op<void>): { e: RunFailure; runs: number } {
  let runs = 0;
  const e = failureOf(() => runInline('cm5', 2, main, { globals: () => ({ run: Math.floor(runs++ / 2) }) }));
  return { e, runs };
}

/** The first frame of `e`'s cause, the stack where the operation was made, that lies in this file. */
function lineHere(e: Error): string | undefined {
  const stack = (e.cause as Error | undefined)?.stack ?? '';
  return stack.split('\n').find((l) => l.includes('op-guard.test.ts'));
}

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
    it(`names main and ${name}() when it is created and main returns without running it`, () => {
      expect(() =>
        runInline('paragon', 2, function* (rt) {
          if (rt.self === 0) void create(rt);
        }),
      ).toThrow(new RegExp(`^node 0: main created rt\\.${name}\\(\\.\\.\\.\\) without running it; write \`yield\\* rt\\.${name}\\(\\.\\.\\.\\)\``));
    });
  }

  it('names the program and the call when the next operation starts, with the line that made it', () => {
    const e = failureOf(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 1) void rt.queryBarrier(); // the forgotten call
        yield* rt.barrier();
      }),
    );
    expect(e.message).toMatch(/^node 1: the program created rt\.queryBarrier\(\.\.\.\) without running it/);
    // Its cause is the stack where queryBarrier was made: the line above, not barrier's below it.
    expect(lineHere(e)).toMatch(/op-guard\.test\.ts:(\d+):/);
    const line = Number(/op-guard\.test\.ts:(\d+):/.exec(lineHere(e)!)![1]);
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    expect(source[line - 1]).toContain('// the forgotten call');
  });

  it('names the call a plain handler made and did not run, with its line', () => {
    const forgetful = (rt: Runtime): void => {
      void rt.sendLeftPollBoth(1, () => undefined);
    };
    const e = failureOf(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, forgetful);
        else yield* rt.pollBothUntil(() => false);
      }),
    );
    expect(e.message).toMatch(/^node 0: handler forgetful created rt\.sendLeftPollBoth\(\.\.\.\) without running it/);
    expect(lineHere(e)).toMatch(/at forgetful \(/);
  });

  it('keeps the plain message when the run made again does not fail alike', () => {
    // Every run made in this test is counted outside it: the first forgets its barrier on
    // node 0, the run made again to place it on node 1. The place found would be another
    // failure's, so none is given.
    const { e, runs } = failureOfRuns(function* (rt) {
      if (rt.self === rt.globals.run % 2) void rt.barrier();
      yield* rt.pollBoth();
    });
    expect(runs).toBe(4);
    expect(e.message).toMatch(/^node 0: the program created a Strata operation without running it; write `yield\* rt\.<call>\(\.\.\.\)`/);
    expect(e.cause).toBeUndefined();
  });

  // The same node forgetting another call at another event was taken as the same failure:
  // "created rt.barrier(...)" with barrier's line, of a run that forgot combineInt.
  it('keeps the plain message when the run made again forgets another call elsewhere on the same node', () => {
    const { e } = failureOfRuns(function* (rt) {
      if (rt.globals.run === 0) {
        yield* rt.barrier();
        if (rt.self === 1) void rt.combineInt(1, CombineOp.ReduceAdd);
      } else if (rt.self === 1) void rt.barrier();
      yield* rt.pollBoth();
    });
    expect(e.message).toMatch(/^node 1: the program created a Strata operation without running it/);
    expect(e.cause).toBeUndefined();
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
    ["a call's generator", (rt: Runtime): unknown => rt.barrier(), /^node 0: handler bump yielded rt\.barrier\(\.\.\.\)'s generator; runtime calls are made with yield\* /],
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
