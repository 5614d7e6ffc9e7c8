/**
 * A runtime operation written as a small state machine instead of a generator, for
 * the per-packet paths (a block's packets, a send's retries). It is an Op like any
 * other (apps and engines run it with `yield*`, the node's thread resumes it), but a
 * resume is a method call that goes on from a state field, not a generator resume:
 * no register file to restore and save at every event, no generator object per
 * packet, and no IteratorResult per yield (one object, shared by every StepOp: whoever
 * resumes an Op reads its result before resuming another). On a 4096-node machine the generators' state
 * was among the memory every event missed the cache on.
 *
 * A subclass implements `step()`: it returns a number to yield (cycles to wait, or
 * BLOCK), SUB after putting an operation in `sub` that must run to its end first (a
 * generator handler, a nested send), or END when the operation is over. `step` is
 * called again after each resume and after `sub` has ended.
 *
 * Like GuardedOp, it records itself as the node's innermost waiting operation when it
 * yields, so the node's thread resumes it directly, past the operations around it.
 */
import type { Op } from '../machine/node.ts';
import type { OpGuard, StartCounting, WaitingOp } from './op-guard.ts';

/** step(): run `sub` to its end, then step again. */
export const SUB = -2;
/** step(): the operation is over. */
export const END = -3;

const DONE: IteratorResult<number, void> = Object.freeze({ value: undefined, done: true });
/**
 * The result of every StepOp's yield, shared: whoever resumes an Op reads its result at
 * once (a generator's yield* hands it up unread to the kernel, which reads it before
 * resuming anything), and nothing keeps a yield's result. One object per operation
 * was one more cache line per node that every event touched on large machines.
 */
const YIELDED = { value: 0, done: false as const };

export abstract class StepOp implements Op, WaitingOp, StartCounting {
  /** An operation to run to its end before the next step (set by step() with SUB). */
  protected sub: Op<unknown> | null = null;
  private readonly guard: OpGuard | null;
  /** Made by the guard's `op` (an app's call): tells the guard it started at its first step (see countStart). */
  private isCounted = false;
  private isDone = false;
  /** An exception resume() caught, for the chain's next step to throw. */
  private hasThrown = false;
  private thrown: unknown = undefined;

  /**
   * @param guard the node's guard, to be resumed directly as its innermost waiting
   *   operation (see GuardedOp); null for an operation run outside a node's thread
   */
  constructor(guard: OpGuard | null) {
    this.guard = guard;
  }

  /** The next thing to do: a value to yield, SUB or END (see the file comment). */
  protected abstract step(): number;

  /**
   * What the operation returns (what `yield*` of it gives) once step() has said END:
   * nothing, unless a subclass that counts something says otherwise.
   */
  protected returned(): unknown {
    return undefined;
  }

  private doneResult(): IteratorResult<number, void> {
    const value = this.returned();
    // Typed as the void Op every StepOp is; one that returns a value says so where it is made.
    return value === undefined ? DONE : ({ value, done: true } as unknown as IteratorResult<number, void>);
  }

  /**
   * Called by `guard.op` for an app's call made as a StepOp: instead of a GuardedOp
   * around it (another object per call, and another level every step of the program
   * passes through), the operation tells the guard itself that it started, at its
   * first step, as GuardedOp does. False when it runs under another guard (or none):
   * the guard wraps it then.
   */
  countStart(guard: OpGuard): boolean {
    if (guard !== this.guard) return false;
    this.isCounted = true;
    return true;
  }

  next(): IteratorResult<number, void> {
    if (this.isCounted) {
      this.isCounted = false;
      this.guard!.started();
    }
    if (this.hasThrown) {
      this.hasThrown = false;
      const e = this.thrown;
      this.thrown = undefined;
      throw e;
    }
    // Ended, as when the node's thread resumed it directly (resume() then passed the end
    // on as null): the chain around it takes its outcome from here.
    if (this.isDone) return this.doneResult();
    const r = this.advance();
    if (r.done !== true && this.guard !== null) this.guard.waitOn(this);
    return r;
  }

  /**
   * Steps the operation for the node's thread when it is the innermost one waiting:
   * its yield, or null once it has ended (next() then gives the chain around it the
   * outcome), as GuardedOp.resume does.
   */
  resume(): IteratorResult<number, void> | null {
    let r: IteratorResult<number, void>;
    try {
      r = this.advance();
    } catch (e) {
      this.hasThrown = true;
      this.thrown = e;
      return null;
    }
    if (r.done === true) return null;
    if (this.guard !== null) this.guard.waitOn(this);
    return r;
  }

  private advance(): IteratorResult<number, void> {
    for (;;) {
      const sub = this.sub;
      if (sub !== null) {
        const r = sub.next();
        if (r.done !== true) {
          // A StepOp running another (a block packet's send retries) is the one the node
          // resumes: when the inner one ends, this one goes on at once, where the inner
          // one as the waiting operation would have the node step the whole chain.
          if (this.guard !== null) this.guard.release(sub);
          return r as IteratorResult<number, void>;
        }
        this.sub = null;
      }
      const v = this.step();
      if (v === END) {
        this.isDone = true;
        return this.doneResult();
      }
      if (v !== SUB) {
        YIELDED.value = v;
        return YIELDED;
      }
    }
  }

  return(): IteratorResult<number, void> {
    this.sub?.return(undefined);
    this.sub = null;
    this.isDone = true;
    return DONE;
  }

  throw(e: unknown): IteratorResult<number, void> {
    this.sub = null;
    this.isDone = true;
    throw e;
  }

  [Symbol.iterator](): Op {
    return this;
  }
}
