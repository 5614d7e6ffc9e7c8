/**
 * A runtime operation written as a small state machine instead of a generator, for
 * the per-packet paths (a block's packets, a send's retries). It is an Op like any
 * other (apps and engines run it with `yield*`, the node's thread resumes it), but a
 * resume is a method call that goes on from a state field, not a generator resume:
 * no register file to restore and save at every event, no generator object per
 * packet, and no IteratorResult per yield (one is reused: whoever resumes an Op reads
 * its result before resuming it again). On a 4096-node machine the generators' state
 * was among the memory every event missed the cache on.
 *
 * A subclass implements `step()`: it returns a number to yield (cycles to wait, or
 * BLOCK), SUB after putting an operation in `sub` that must run to its end first (a
 * generator handler, a nested send), or END when the operation is over. `step` is
 * called again after each resume and after `sub` has ended.
 */
import type { Op } from '../machine/node.ts';

/** step(): run `sub` to its end, then step again. */
export const SUB = -2;
/** step(): the operation is over. */
export const END = -3;

const DONE: IteratorResult<number, void> = Object.freeze({ value: undefined, done: true });

export abstract class StepOp implements Op {
  /** An operation to run to its end before the next step (set by step() with SUB). */
  protected sub: Op<unknown> | null = null;
  private isDone = false;
  private readonly yielded = { value: 0, done: false as const };

  /** The next thing to do: a value to yield, SUB or END (see the file comment). */
  protected abstract step(): number;

  next(): IteratorResult<number, void> {
    if (this.isDone) return DONE;
    for (;;) {
      const sub = this.sub;
      if (sub !== null) {
        const r = sub.next();
        if (r.done !== true) return r as IteratorResult<number, void>;
        this.sub = null;
      }
      const v = this.step();
      if (v === END) {
        this.isDone = true;
        return DONE;
      }
      if (v !== SUB) {
        this.yielded.value = v;
        return this.yielded;
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
