/**
 * Where an app made the Strata operation it never ran. A forgotten `yield*`
 * (`rt.barrier();`) is found later than it was made: at the node's next operation, when
 * a plain handler returns, or when main does (op-guard.ts); a bare `yield rt.barrier()`
 * when the node's thread sees the generator. By then the app's line is gone from the
 * stack, and keeping a stack for every operation of every run would cost each run's
 * every call.
 *
 * A run is deterministic, so the run that failed is made again (run-app.ts failAgain),
 * quietly and no further than the failure, each node's guard keeping, in the failing
 * event's step alone (where the operation was made: its node cannot yield before the
 * mistake is found), the stack of every operation it makes (OpSites). The failure then
 * names the call and carries that stack as its cause, whose frames the CLI shows as the
 * app's line (`at main (index.ts:8:8)`). A failure whose run does not fail the same way
 * at the same event again (an app whose module-level state changed between the runs)
 * keeps its message without them.
 */
import type { RunFailure } from '../kernel/errors.ts';

/** Frames kept of a stack: the app's line lies under the runtime's few and its own helpers. */
const STACK_FRAMES = 40;

/** A node's record of the operations it made, kept only in the run made again. */
export class OpSites {
  /** The stack where the first operation not yet started was made (the forgotten one). */
  firstUnstarted: Error | null = null;
  private readonly made = new WeakMap<object, Error>();

  /** Records where `op` is being made; `first`: no other operation of the node is waiting to start. */
  record(op: object, first: boolean): void {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = STACK_FRAMES;
    const here = new Error('the operation was made here');
    Error.stackTraceLimit = limit;
    this.made.set(op, here);
    if (first) this.firstUnstarted = here;
  }

  /** Where `value` was made, if it is an operation this node made. */
  of(value: unknown): Error | null {
    return value !== null && typeof value === 'object' ? (this.made.get(value) ?? null) : null;
  }
}

/**
 * The failures a run made again can place, each with its message as made without a
 * place: the run made again must fail with the same one for its place to be taken.
 */
const placeable = new WeakMap<RunFailure, string>();

/** Marks `failure` as one OpSites can place (`site` null: it has no place yet). */
export function placeableFailure<E extends RunFailure>(failure: E, unplaced: string, site: Error | null): E {
  placeable.set(failure, unplaced);
  if (site !== null) failure.cause = site;
  return failure;
}

/** Whether `failure` is an unrun operation's, still without the place it was made. */
export function needsPlace(failure: unknown): failure is RunFailure {
  return failure instanceof Error && placeable.has(failure as RunFailure) && failure.cause === undefined;
}

/**
 * Gives `failure` the place `again` (the same run's failure, made again with OpSites)
 * found: its message naming the call, and its stack as the cause. Nothing when `again`
 * is another failure, or found no place.
 */
export function takePlace(failure: RunFailure, again: unknown): void {
  if (!(again instanceof Error) || again.cause === undefined) return;
  const unplaced = placeable.get(again as RunFailure);
  if (unplaced === undefined || unplaced !== placeable.get(failure)) return;
  failure.message = again.message;
  failure.cause = again.cause;
}

/**
 * The runtime call (`barrier`) a stack was made in: the outermost of the innermost run
 * of frames of the Runtime class (a call that calls another, barrier's globalOR, is
 * the call the app made), its private helpers (`#op`) passed over. Null if none.
 */
export function callIn(site: Error | null): string | null {
  if (site === null || typeof site.stack !== 'string') return null;
  let call: string | null = null;
  for (const line of site.stack.split('\n').slice(1)) {
    const m = /^\s*at Runtime\.(#?)([A-Za-z_$][\w$]*) /.exec(line);
    if (m === null) {
      if (call !== null) break;
      continue;
    }
    if (m[1] === '') call = m[2];
  }
  return call;
}
