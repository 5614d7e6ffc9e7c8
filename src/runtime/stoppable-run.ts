/**
 * Running an app in the main thread so that Ctrl-C or SIGTERM can stop it (a sweep's
 * runs and calibration's units with one worker): a signal's handler runs only when
 * the event loop turns, so the run gives it a turn every STOP_CHECK_EVENTS events, and
 * gives up once `stop` is aborted. Yielding changes nothing in a run: the same events
 * in the same order, the same results byte for byte.
 */
import { InputError, kindOf } from '../kernel/errors.ts';

/** What advanceToEnd steps: an AppRun (structurally, so that run-app.ts may use this file's stop points). */
interface Advancing {
  advance(events: number): boolean;
}

/** A run (or a unit of runs) given up part-way because its command was asked to stop. */
export class RunStopped extends Error {
  override name = 'RunStopped';
}

/** Events between two looks at `stop`. */
export const STOP_CHECK_EVENTS = 1 << 18;

/** Lets the event loop turn (a macrotask, not a microtask: only then do signal handlers run); throws RunStopped if `stop` was aborted meanwhile. */
export async function stopPoint(stop: AbortSignal): Promise<void> {
  // Exported: stopPoint(null) was a TypeError once the turn was over.
  checkSignal(stop, 'stopPoint');
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (stop.aborted) throw new RunStopped('stopped');
}

/** Runs `run` to its end; given `stop`, in chunks with a stop point between them. */
export async function advanceToEnd(run: Advancing, stop: AbortSignal | undefined): Promise<void> {
  // Exported: advanceToEnd(null) was a TypeError ("Cannot read properties of null (reading 'advance')").
  if (typeof (run as Partial<Advancing> | null)?.advance !== 'function') throw new InputError(`advanceToEnd: expected an AppRun (new AppRun(config)), got ${kindOf(run)}`);
  if (stop !== undefined) checkSignal(stop, 'advanceToEnd');
  if (stop === undefined) {
    run.advance(Infinity);
    return;
  }
  while (!run.advance(STOP_CHECK_EVENTS)) await stopPoint(stop);
}

/** Refuses a `stop` that is not an AbortSignal, naming the exported function `fn`. */
function checkSignal(stop: unknown, fn: string): void {
  if (typeof (stop as Partial<AbortSignal> | null)?.aborted !== 'boolean') throw new InputError(`${fn}: expected an AbortSignal (an AbortController's signal)${fn === 'advanceToEnd' ? ' or none' : ''}, got ${kindOf(stop)}`);
}
