/**
 * The forgotten-`yield*` guard. A Strata call that takes time is a generator: written
 * without `yield*`, it is created and never runs, and the program silently skips it.
 * Every such call an app makes goes through `op(body)`, which counts it when created
 * and uncounts it when it starts; a count left over at the next operation, after a
 * plain handler, or when main returns names the mistake. Engines run the operations
 * they start inside others through `nested(body)`. Starting an operation outside a
 * handler is also when the node's queued Qprintf output is flushed (Appendix A 9.1).
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';

/** Where queued output goes when an operation starts outside a handler. */
export interface PrintQueue {
  readonly isEmpty: boolean;
  flush(): void;
}

export class OpGuard {
  /** How many handlers are running on this node (nested when a handler polls). */
  handlerDepth = 0;
  private unstarted = 0;
  private readonly self: number;
  private readonly prints: PrintQueue;

  constructor(self: number, prints: PrintQueue) {
    this.self = self;
    this.prints = prints;
  }

  /** Counts `body` as created; it counts as started when its first step runs. For the calls apps make. */
  op<T>(body: Op<T>): Op<T> {
    this.unstarted++;
    return new GuardedOp(this, body);
  }

  /** Called by a GuardedOp at its first step. */
  started(): void {
    this.unstarted--;
    this.begin();
  }

  /**
   * An operation that engine code starts inside another and runs at once
   * (`yield* guard.nested(x)`): the same checks as at the start of one made through
   * `op`, without a generator around it, since it cannot be forgotten.
   */
  nested<T>(body: Op<T>): Op<T> {
    this.begin();
    return body;
  }

  private begin(): void {
    if (this.unstarted !== 0) this.fail('the program');
    if (this.handlerDepth === 0 && !this.prints.isEmpty) this.prints.flush();
  }

  /** After a plain (non-generator) handler returns: it must not have created an operation. */
  checkHandler(name: string): void {
    if (this.unstarted !== 0) this.fail(`handler ${name}`);
  }

  /** When main returns: it must not have created an operation it did not run. */
  checkMain(): void {
    if (this.unstarted !== 0) this.fail('main');
  }

  /** StrataExit(0) abandons whatever operation was in progress. */
  forget(): void {
    this.unstarted = 0;
  }

  private fail(where: string): never {
    throw new RunFailure(
      `node ${this.self}: ${where} created a Strata operation without running it; write \`yield* rt.<call>(...)\` (a handler that sends or polls must be a generator function)`,
    );
  }
}

/**
 * What `op` returns: the body itself, stepped through a plain object that marks the
 * operation started at its first step. Not a generator wrapping the body: a program
 * resumes through every generator it is inside (`yield*`), and this one sat on the
 * path of every resume of every operation an app makes.
 */
class GuardedOp<T> implements Generator<number, T, undefined> {
  private readonly guard: OpGuard;
  private readonly body: Op<T>;
  private isStarted = false;

  constructor(guard: OpGuard, body: Op<T>) {
    this.guard = guard;
    this.body = body;
  }

  next(): IteratorResult<number, T> {
    if (!this.isStarted) {
      this.isStarted = true;
      this.guard.started();
    }
    return this.body.next();
  }

  return(value: T): IteratorResult<number, T> {
    return this.body.return(value);
  }

  throw(e: unknown): IteratorResult<number, T> {
    return this.body.throw(e);
  }

  [Symbol.iterator](): Generator<number, T, undefined> {
    return this;
  }
}
