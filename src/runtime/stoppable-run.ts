/**
 * Running calibration in the main thread so that Ctrl-C or SIGTERM can stop it
 * (`sim calibrate --workers 1`): a signal's handler runs only when the event loop
 * turns, so a unit's run gives it a turn every STOP_CHECK_EVENTS events and between
 * samples, and gives up once `stop` is aborted. Yielding changes nothing in a run:
 * the same events in the same order, the same samples byte for byte.
 */
import type { AppRun } from '../runtime/index.ts';

/** A unit given up part-way because its command was asked to stop. */
export class UnitStopped extends Error {
  override name = 'UnitStopped';
}

/** Events between two looks at `stop` (as a sweep's run in the main thread, src/sweep/run-one.ts). */
const STOP_CHECK_EVENTS = 1 << 18;

/** Lets the event loop turn (a macrotask, not a microtask: only then do signal handlers run); throws UnitStopped if `stop` was aborted meanwhile. */
export async function stopPoint(stop: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (stop.aborted) throw new UnitStopped('stopped');
}

/** Runs `run` to its end; given `stop`, in chunks with a stop point between them. */
export async function advanceToEnd(run: AppRun, stop: AbortSignal | undefined): Promise<void> {
  if (stop === undefined) {
    run.advance(Infinity);
    return;
  }
  while (!run.advance(STOP_CHECK_EVENTS)) await stopPoint(stop);
}
