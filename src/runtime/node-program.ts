/**
 * A node's thread as the kernel runs it: the app's `main`, then Strata's StrataExit
 * (keep serving messages until every node has exited); `rt.exit()` inside main skips
 * to the exit. A resume goes straight to the innermost operation waiting, if any
 * (OpGuard.waiting). Written as a plain iterator over the two phases rather than a
 * generator around main, because every resume of a generator passes through each
 * generator it is inside: this one would sit on the path of every event a node runs.
 *
 * The thread is its node's guard too (it extends OpGuard): a resume reads the waiting
 * operation from the object the kernel resumes, not from a second one. On a 4096-node
 * machine each object a resume touches is a cache miss of its own.
 */
import type { Op } from '../machine/node.ts';
import type { SimProcess } from '../kernel/simulation.ts';
import { bareYieldError, OpGuard, type PrintQueue } from './op-guard.ts';

/** Thrown by StrataExit(0) to leave main early; the node's program catches it. */
export class StrataExitSignal {
  readonly node: number;

  constructor(node: number) {
    this.node = node;
  }
}

export class NodeProgram extends OpGuard implements SimProcess {
  private readonly makeExit: () => Op;
  private startMain: (() => Op<unknown>) | null = null;
  private onResult: (result: unknown) => void = () => {};
  /** The phase running: main (made at the first step, as a generator's body would), then the exit. */
  private main: Op<unknown> | null = null;
  private exit: Op | null = null;

  /**
   * @param self the node's number
   * @param prints its queued output (see OpGuard)
   * @param exit makes StrataExit's operation (the node's engines)
   */
  constructor(self: number, prints: PrintQueue, exit: () => Op) {
    super(self, prints);
    this.makeExit = exit;
  }

  /**
   * Gives the thread its main, before the kernel first runs it.
   * @param startMain makes main's generator (called at the thread's first step)
   * @param onResult receives main's return value when it returns normally
   */
  setMain(startMain: () => Op<unknown>, onResult: (result: unknown) => void): void {
    this.startMain = startMain;
    this.onResult = onResult;
  }

  next(): IteratorResult<number, void> {
    const waiting = this.takeWaiting();
    if (waiting !== null) {
      // Straight to the innermost waiting operation (see GuardedOp, StepOp); when it has ended,
      // the whole chain below takes its outcome.
      const r = waiting.resume();
      if (r !== null) return r as IteratorResult<number, void>;
    }
    if (this.exit !== null) return this.exit.next();
    let step: IteratorResult<number, unknown>;
    try {
      if (this.main === null) {
        if (this.startMain === null) throw new Error(`unreachable: node ${this.self}'s thread ran before setMain`);
        this.main = this.startMain();
      }
      step = this.main.next();
    } catch (e) {
      if (!(e instanceof StrataExitSignal)) throw e;
      this.forget();
      return this.startExit();
    }
    if (step.done !== true) {
      // Every wait of main is a runtime call's, which names itself the waiting operation.
      // A bare yield was not: `yield rt.barrier()` (no *) yielded the call's generator,
      // which the kernel refused as a delay "outside any node", and `yield 42` passed
      // time on no clock.
      if (this.waiting === null) throw bareYieldError(this, 'main', step.value);
      return step;
    }
    this.onResult(step.value);
    return this.startExit();
  }

  private startExit(): IteratorResult<number, void> {
    this.exit = this.makeExit();
    return this.exit.next();
  }

  return(value: void): IteratorResult<number, void> {
    return { done: true, value };
  }

  throw(e: unknown): IteratorResult<number, void> {
    throw e;
  }

  [Symbol.iterator](): this {
    return this;
  }
}
