/**
 * Drives a run (src/runtime/run-app.ts's AppRun) from the CLI in chunks of events,
 * yielding to Node's event loop between chunks so that the process can take SIGINT
 * and SIGTERM and show a progress line. The chunks change nothing of the run: the
 * kernel checks its event limit between events anyway, so the events, their order
 * and the fingerprint are those of one uninterrupted call; a chunk costs one
 * macrotask (about 10 us) per quarter of a million events. The wall clock is read
 * here, in the CLI, and never reaches the simulation.
 */
import { RunInterrupted } from '../kernel/errors.ts';
import type { AppRun } from '../runtime/run-app.ts';
import { formatNodeClocks } from '../runtime/run-stop.ts';

/** Events per chunk: a few tenths of a second of simulation at most between looks at the outside world. */
const CHUNK_EVENTS = 1 << 18;
/** The progress line appears once a run has taken this long... */
const PROGRESS_AFTER_MS = 2000;
/** ...and is redrawn at most this often. */
const PROGRESS_EVERY_MS = 250;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Exit status of a run stopped by `signal` (128 + its number, as shells report it). */
export function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/**
 * Catches SIGINT and SIGTERM from start() to stop(), so that a run stops between two
 * chunks of events with its files complete, instead of the process dying mid-write.
 * Started before the run's files are opened, so a signal during loading is caught too.
 */
export class SignalWatch {
  caught: 'SIGINT' | 'SIGTERM' | null = null;
  private readonly handlers = SIGNALS.map((signal) => [signal, (): void => void (this.caught ??= signal)] as const);

  start(): this {
    for (const [signal, handler] of this.handlers) process.on(signal, handler);
    return this;
  }

  stop(): void {
    for (const [signal, handler] of this.handlers) process.off(signal, handler);
  }
}

/**
 * Runs `run` to its end. `progress` receives a one-line status ("\r"-redrawn by the
 * caller's terminal) once the run has taken `progressAfterMs` of wall time (2 s), and
 * null to clear it.
 * @throws what AppRun.advance throws; RunInterrupted once `signals` caught one
 */
export async function driveRun(run: AppRun, signals: SignalWatch, progress: ((line: string | null) => void) | null, progressAfterMs = PROGRESS_AFTER_MS): Promise<void> {
  const start = performance.now();
  let shownAt = 0;
  try {
    while (!run.advance(CHUNK_EVENTS)) {
      // A macrotask, not a microtask: only then do signal handlers and timers run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const caught = signals.caught;
      if (caught !== null) {
        const r = run.report();
        const e = new RunInterrupted(
          `interrupted by ${caught} at cycle ${r.cycle} after ${r.events} events\n${formatNodeClocks(r.nodes)}`,
          { signal: caught, cycle: r.cycle, events: r.events, fingerprint: r.fingerprint },
        );
        e.lastLogEntries = r.nodes.flatMap((n) => (n.lastLog === null ? [] : [n.lastLog]));
        throw e;
      }
      const now = performance.now();
      if (progress !== null && now - start >= progressAfterMs && now - shownAt >= PROGRESS_EVERY_MS) {
        shownAt = now;
        const rate = run.events / ((now - start) / 1000);
        progress(`sim: cycle ${run.cycle.toLocaleString('en-US')}, ${run.events.toLocaleString('en-US')} events, ${formatRate(rate)} events/s, ${((now - start) / 1000).toFixed(0)} s`);
      }
    }
  } finally {
    if (shownAt > 0) progress?.(null);
  }
}

function formatRate(rate: number): string {
  if (rate >= 1e6) return `${(rate / 1e6).toFixed(1)} M`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(0)} k`;
  return rate.toFixed(0);
}
