/**
 * A node's thread as the kernel runs it: the app's `main`, then Strata's StrataExit
 * (keep serving messages until every node has exited); `rt.exit()` inside main skips
 * to the exit. A resume goes straight to the innermost operation waiting, if any
 * (OpGuard.waiting). Written as a plain iterator over the two phases rather than a
 * generator around main, because every resume of a generator passes through each
 * generator it is inside: this one would sit on the path of every event a node runs.
 */
import type { Op } from '../machine/node.ts';
import type { SimProcess } from '../kernel/simulation.ts';
import { StrataExitSignal, type NodeEngines } from './engines.ts';
import type { OpGuard } from './op-guard.ts';
import { AppError } from '../kernel/errors.ts';

export class NodeProgram implements SimProcess {
  private readonly engines: NodeEngines;
  /** engines.guard, held here: every resume of the node starts with it. */
  private readonly guard: OpGuard;
  private readonly startMain: () => Op<unknown>;
  private readonly onResult: (result: unknown) => void;
  /** The phase running: main (made at the first step, as a generator's body would), then the exit. */
  private main: Op<unknown> | null = null;
  private exit: Op | null = null;

  /**
   * @param startMain makes main's generator (called at the thread's first step)
   * @param onResult receives main's return value when it returns normally
   */
  constructor(engines: NodeEngines, startMain: () => Op<unknown>, onResult: (result: unknown) => void) {
    this.engines = engines;
    this.guard = engines.guard;
    this.startMain = startMain;
    this.onResult = onResult;
  }

  next(): IteratorResult<number, void> {
    const guard = this.guard;
    const waiting = guard.waiting;
    guard.waiting = null;
    if (waiting !== null) {
      // Straight to the innermost waiting operation (see GuardedOp, StepOp); when it has ended,
      // the whole chain below takes its outcome.
      const r = waiting.resume();
      if (r !== null) return r as IteratorResult<number, void>;
    }
    if (this.exit !== null) return this.exit.next();
    let step: IteratorResult<number, unknown>;
    try {
      this.main ??= this.startMain();
      step = this.main.next();
    } catch (e) {
      if (!(e instanceof StrataExitSignal)) throw e;
      this.guard.forget();
      return this.startExit();
    }
    if (step.done !== true) {
      // Every wait of main is a runtime call's, which names itself the waiting operation.
      // A bare yield was not: `yield rt.barrier()` (no *) yielded the call's generator,
      // which the kernel refused as a delay "outside any node", and `yield 42` passed
      // time on no clock.
      if (this.guard.waiting === null) throw this.bareYield(step.value);
      return step;
    }
    this.onResult(step.value);
    return this.startExit();
  }

  private bareYield(value: unknown): AppError {
    const what = value !== null && typeof value === 'object' && typeof (value as { next?: unknown }).next === 'function' ? "a runtime call's generator" : `${typeof value} ${String(value)}`;
    return new AppError(`node ${this.engines.node.id}: main yielded ${what}; runtime calls are made with yield* (yield* rt.barrier(), not yield rt.barrier()), and main yields nothing itself`);
  }

  private startExit(): IteratorResult<number, void> {
    this.exit = this.engines.exit();
    return this.exit.next();
  }

  return(value: void): IteratorResult<number, void> {
    return { done: true, value };
  }

  throw(e: unknown): IteratorResult<number, void> {
    throw e;
  }

  [Symbol.iterator](): SimProcess {
    return this;
  }
}
