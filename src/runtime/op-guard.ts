/**
 * The forgotten-`yield*` guard. A Strata call that takes time is a generator: written
 * without `yield*`, it is created and never runs, and the program silently skips it.
 * Every such call an app makes goes through `op(body)`, which counts it when created
 * and uncounts it when it starts; a count left over at the next operation, after a
 * plain handler, or when main returns names the mistake. Engines run the operations
 * they start inside others through `nested(body)`. Starting an operation outside a
 * handler is also when the node's queued Qprintf output is flushed (Appendix A 9.1).
 *
 * A bare `yield` of the app's own (in main or a generator handler: `yield 42`, or
 * `yield rt.barrier()` without the *) is named too: see bareYieldError.
 *
 * The guard also remembers the innermost operation that is waiting (`waiting`), so
 * the node's thread can resume it directly instead of through every generator of the
 * app that is inside a `yield*` around it (see GuardedOp and NodeProgram).
 */
import { AppError, RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { callIn, OpSites, placeableFailure } from './op-sites.ts';
import { shownArgument } from './words.ts';

/** Where queued output goes when an operation starts outside a handler. */
export interface PrintQueue {
  readonly isEmpty: boolean;
  flush(): void;
}

/**
 * An operation the node's thread can resume directly (GuardedOp, StepOp): `resume()`
 * steps it and returns its yield, or null when it returned or threw, keeping that
 * outcome for the next step of the chain of operations around it.
 */
export interface WaitingOp {
  resume(): IteratorResult<number, unknown> | null;
}

/**
 * An operation that tells the guard itself that it started (StepOp): `op` then needs
 * no GuardedOp around it. countStart returns false when it cannot (it runs under
 * another guard), and the guard wraps it as any other.
 */
export interface StartCounting {
  countStart(guard: OpGuard): boolean;
}

export class OpGuard {
  /** How many handlers are running on this node (nested when a handler polls). */
  handlerDepth = 0;
  /**
   * The innermost operation whose body yielded at the node thread's last step is
   * `lastWaiting` when `isWaiting` (none otherwise; see `waiting`). Two fields, not one
   * cleared to null at every step and set again: the node's thread takes it at each
   * resume and the same operation (a block's packet loop, say) usually yields again, so
   * it is stored only when it changes. Storing it at every resume stored a young
   * operation into this long-lived object, and V8's write barrier made each such store a
   * call (about 0.7% of the 64-node transpose's samples, W1).
   */
  private lastWaiting: WaitingOp | null = null;
  private isWaiting = false;
  private unstarted = 0;
  /** Where each operation was made, in a run made again to place a failure (op-sites.ts); null in every other run. */
  sites: OpSites | null = null;
  /** The node's number. */
  readonly self: number;
  private readonly prints: PrintQueue;

  constructor(self: number, prints: PrintQueue) {
    this.self = self;
    this.prints = prints;
  }

  /** The innermost operation waiting since the node thread's last step, or null. */
  get waiting(): WaitingOp | null {
    return this.isWaiting ? this.lastWaiting : null;
  }

  /** Records `op` as the innermost waiting operation unless one inside it already is (an operation yielding calls it after its body). */
  waitOn(op: WaitingOp): void {
    if (this.isWaiting) return;
    this.isWaiting = true;
    if (this.lastWaiting !== op) this.lastWaiting = op;
  }

  /** `op` is waiting no more, if it was the innermost one (an operation that resumes it itself says so). */
  release(op: unknown): void {
    if (this.isWaiting && this.lastWaiting === op) this.isWaiting = false;
  }

  /** The innermost waiting operation, or null; none is waiting after (the node's thread, at each step). */
  protected takeWaiting(): WaitingOp | null {
    if (!this.isWaiting) return null;
    this.isWaiting = false;
    return this.lastWaiting;
  }

  /** Counts `body` as created; it counts as started when its first step runs. For the calls apps make. */
  op<T>(body: Op<T>): Op<T> {
    this.unstarted++;
    // A state machine of this node counts its own start (StepOp.countStart); generators have no countStart.
    const counting = body as Op<T> & Partial<StartCounting>;
    const made = counting.countStart !== undefined && counting.countStart(this) ? body : new GuardedOp(this, body);
    if (this.sites !== null) this.sites.record(made, this.unstarted === 1);
    return made;
  }

  /** Called by a GuardedOp (or a StepOp the guard counted) at its first step. */
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

  /**
   * What a handler returned, as its node runs it (messaging for a message's handler, the
   * port table for a port's, `port` its number): nothing, after which it must not have
   * created an operation it did not run, or its generator, to run. Anything else is
   * named: a Promise (an async handler) or a value.
   * @returns the generator, or null when the handler has finished
   */
  handlerResult(handler: { readonly name: string }, r: unknown, port = -1): Op | null {
    if (r === undefined) {
      if (this.unstarted !== 0) this.fail(handlerName(handler, port));
      return null;
    }
    if (r !== null && typeof r === 'object' && typeof (r as Op).next === 'function') return r as Op;
    const why =
      r instanceof Promise
        ? 'is an async function (it returned a Promise); a handler runs to its end when its node polls: a plain function, or a function* whose runtime calls are made with yield*'
        : `returned ${shownArgument(r)}; ${port < 0 ? 'handlers' : 'port handlers'} return nothing (or are generator functions, whose runtime calls are made with yield*)`;
    throw new RunFailure(`node ${this.self}: ${handlerName(handler, port)} ${why}`);
  }

  /** When main returns: it must not have created an operation it did not run. */
  checkMain(): void {
    if (this.unstarted !== 0) this.fail('main');
  }

  /** StrataExit(0) abandons whatever operation was in progress. */
  forget(): void {
    this.unstarted = 0;
    this.isWaiting = false;
    this.lastWaiting = null;
  }

  private fail(where: string): never {
    const site = this.sites === null ? null : this.sites.firstUnstarted;
    const message = (call: string | null) =>
      `node ${this.self}: ${where} created ${call === null ? 'a Strata operation' : `rt.${call}(...)`} without running it; write \`yield* rt.${call ?? '<call>'}(...)\` (a handler that sends or polls must be a generator function)`;
    throw placeableFailure(new RunFailure(message(callIn(site))), message(null), site);
  }
}

/**
 * What `op` returns: the body itself, stepped through a plain object that marks the
 * operation started at its first step. Not a generator wrapping the body: a program
 * resumes through every generator it is inside (`yield*`), and this one sat on the
 * path of every resume of every operation an app makes.
 *
 * The resumes that follow the first go straight to the body: each step that yields
 * records the innermost waiting operation in `guard.waiting`, and the node's thread
 * calls `resume()` on it. An app's generators around the operation only pass its
 * yields through (`yield*` forwards every value unchanged), so skipping them changes
 * nothing; when the body returns or throws, resume() keeps the outcome and the thread
 * steps the whole chain once, in which this object's next() hands the outcome to the
 * app's `yield*` exactly where the body left it.
 */
export class GuardedOp<T> implements Op<T>, WaitingOp {
  private readonly guard: OpGuard;
  private readonly body: Op<T>;
  private isStarted = false;
  /** The body's final result or exception, kept by resume() for the chain's next step. */
  private ended: IteratorResult<number, T> | null = null;
  private hasThrown = false;
  private thrown: unknown = undefined;

  constructor(guard: OpGuard, body: Op<T>) {
    this.guard = guard;
    this.body = body;
  }

  next(): IteratorResult<number, T> {
    const ended = this.ended;
    if (ended !== null) {
      this.ended = null;
      return ended;
    }
    if (this.hasThrown) {
      this.hasThrown = false;
      const e = this.thrown;
      this.thrown = undefined;
      throw e;
    }
    if (!this.isStarted) {
      this.isStarted = true;
      this.guard.started();
    }
    const r = this.body.next();
    // The innermost waiting operation records itself first; the ones around it see it set.
    if (r.done !== true) this.guard.waitOn(this);
    return r;
  }

  /**
   * Steps the body directly (the node's thread, when this is `guard.waiting`): its
   * yield, or null when it returned or threw (kept for the chain's next step).
   */
  resume(): IteratorResult<number, T> | null {
    let r: IteratorResult<number, T>;
    try {
      r = this.body.next();
    } catch (e) {
      this.hasThrown = true;
      this.thrown = e;
      return null;
    }
    if (r.done === true) {
      this.ended = r;
      return null;
    }
    this.guard.waitOn(this);
    return r;
  }

  return(value: T): IteratorResult<number, T> {
    return this.body.return(value);
  }

  throw(e: unknown): IteratorResult<number, T> {
    return this.body.throw(e);
  }

  [Symbol.iterator](): Op<T> {
    return this;
  }
}

/**
 * A handler as messages name it (port < 0: a message's). Only when failing: reading a
 * function's name is not free, and handlerResult runs per message.
 */
function handlerName(handler: { readonly name: string }, port: number): string {
  return `${port < 0 ? 'handler' : `port ${port}'s handler`} ${handler.name || '(anonymous)'}`;
}

/**
 * The error for a bare `yield` in an app's main or generator handler: every wait of
 * either is a runtime call's, which names itself the waiting operation, so a yield that
 * named none was the app's own (`yield rt.barrier()` without the *, or `yield 42`).
 */
export function bareYieldError(guard: OpGuard, where: string, value: unknown): AppError {
  const self = guard.self;
  const isOp = value !== null && typeof value === 'object' && typeof (value as { next?: unknown }).next === 'function';
  const message = (call: string | null) => {
    const what = !isOp ? `${typeof value} ${String(value)}` : call === null ? "a runtime call's generator" : `rt.${call}(...)'s generator`;
    return `node ${self}: ${where} yielded ${what}; runtime calls are made with yield* (yield* rt.${call ?? 'barrier'}(), not yield rt.${call ?? 'barrier'}()), and ${where === 'main' ? 'main' : 'a handler'} yields nothing itself`;
  };
  if (!isOp) return new AppError(message(null));
  const site = guard.sites === null ? null : guard.sites.of(value);
  return placeableFailure(new AppError(message(callIn(site))), message(null), site);
}

/**
 * An app's generator handler as the node runs it: each of its yields must come from a
 * runtime call (which records itself in `guard.waiting`, cleared at every step of the
 * node's thread). A bare yield in a handler passed its number as a delay on the
 * receiving node (`yield 5`: five cycles on no call), or the kernel refused a call's
 * generator as a delay "outside any node" (`yield rt.barrier()`), as main's did.
 */
export class GuardedHandler implements Op {
  private readonly guard: OpGuard;
  private readonly name: string;
  private readonly body: Op;
  private readonly kind: string;

  /** @param kind what the handler is, for the message: "handler", "port 3's handler" */
  constructor(guard: OpGuard, name: string, body: Op, kind = 'handler') {
    this.guard = guard;
    this.name = name;
    this.body = body;
    this.kind = kind;
  }

  next(): IteratorResult<number, void> {
    const r = this.body.next();
    if (r.done !== true && this.guard.waiting === null) throw bareYieldError(this.guard, `${this.kind} ${this.name || '(anonymous)'}`, r.value);
    return r;
  }

  return(value: void): IteratorResult<number, void> {
    return this.body.return(value);
  }

  throw(e: unknown): IteratorResult<number, void> {
    return this.body.throw(e);
  }

  [Symbol.iterator](): Op {
    return this;
  }
}
