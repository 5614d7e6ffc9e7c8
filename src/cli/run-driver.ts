/**
 * Drives a run (src/runtime/run-app.ts's AppRun) from the CLI in chunks of events,
 * yielding to Node's event loop between chunks so that the process can take SIGINT
 * and SIGTERM and show a progress line. The chunks change nothing of the run: the
 * kernel checks its event limit between events anyway, so the events, their order
 * and the fingerprint are those of one uninterrupted call; a chunk costs one
 * macrotask (about 10 us) per quarter of a million events. The wall clock is read
 * here, in the CLI, and never reaches the simulation. What no signal can stop, an
 * app's code that never returns, a second thread watches for (stuck-watch.ts).
 */
import { RunInterrupted, RunLimitError } from '../kernel/errors.ts';
import type { AppRun, RunLimits } from '../runtime/run-app.ts';
import { formatNodeClocks } from '../runtime/run-stop.ts';
import type { RunStatus } from './progress.ts';
import { StuckWatch } from './stuck-watch.ts';
import { grouped } from '../kernel/numbers.ts';

/** Events per chunk: a few tenths of a second of simulation at most between looks at the outside world. */
const CHUNK_EVENTS = 1 << 18;

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
  /** Says so when the run stops moving, which signals then cannot stop (stuck-watch.ts). */
  private stuck: StuckWatch | null = null;

  /**
   * Catches the signals and, when stderr is a terminal (someone there to press Ctrl-C and
   * read the line), watches for a stuck run. Not otherwise: the watching thread costs
   * a short run about 5% of its wall time (the README's stencil: 1.06x over 11 pairs),
   * and a script's stuck run meets its own timeout.
   */
  start(): this {
    for (const [signal, handler] of this.handlers) process.on(signal, handler);
    if (process.stderr.isTTY === true) this.stuck = new StuckWatch();
    return this;
  }

  /** The run moved on (driveRun, every BEAT_EVENTS events). */
  beat(): void {
    this.stuck?.beat();
  }

  stop(): void {
    for (const [signal, handler] of this.handlers) process.off(signal, handler);
    this.stuck?.stop();
    this.stuck = null;
  }
}

/** Events between two beats of the stuck watch: about a millisecond of a typical run, 9 s of the costliest events there are. */
const BEAT_EVENTS = 1 << 10;

/** Runs up to CHUNK_EVENTS events of `run`, beating between every BEAT_EVENTS; true when the run has ended. */
function advanceChunk(run: AppRun, signals: SignalWatch): boolean {
  for (let done = 0; done < CHUNK_EVENTS; done += BEAT_EVENTS) {
    if (run.advance(BEAT_EVENTS)) return true;
    signals.beat();
  }
  return false;
}

/**
 * Runs `run` to its end, showing its status as `status` says (progress.ts): a line
 * once the run has taken `status.afterMs` of wall time, then every `status.everyMs`,
 * and null at the end (to clear a redrawn line).
 * @throws what AppRun.advance throws; RunInterrupted once `signals` caught one
 */
export async function driveRun(run: AppRun, signals: SignalWatch, status: RunStatus | null): Promise<void> {
  const start = performance.now();
  let shownAt = 0;
  try {
    while (!advanceChunk(run, signals)) {
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
      if (status !== null && now - start >= status.afterMs && now - shownAt >= status.everyMs) {
        shownAt = now;
        const rate = run.events / ((now - start) / 1000);
        status.show(`sim: cycle ${grouped(run.cycle)}, ${grouped(run.events)} events, ${formatRate(rate)} events/s, ${((now - start) / 1000).toFixed(0)} s`);
      }
    }
  } finally {
    if (shownAt > 0) status?.show(null);
  }
}

function formatRate(rate: number): string {
  if (rate >= 1e6) return `${(rate / 1e6).toFixed(1)} M`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(0)} k`;
  return rate.toFixed(0);
}

/** What to do about a run stopped at a limit: its option, or for the heap, Node's. */
export function limitAdvice(e: RunLimitError): string {
  if (e.limit === 'heap') {
    return `the run's program held ever more memory; if it needs that much, give Node a larger heap, e.g. NODE_OPTIONS=--max-old-space-size=${Math.ceil((2 * e.value) / 2 ** 20)}`;
  }
  const option = e.limit === 'cycles' ? '--max-cycles' : '--max-events';
  return `${option} ${e.value} stopped the run; if it is meant to run longer, give a larger ${option}`;
}

/**
 * The limits a stopped run's repro records: the run's own, except that one stopped at an
 * event (a signal, the heap) ends there; replayed with its own, it would run on past it
 * (and out of memory).
 */
export function reproLimits(e: RunInterrupted | RunLimitError, limits: RunLimits | undefined): RunLimits | undefined {
  return e instanceof RunInterrupted || e.limit === 'heap' ? { ...limits, maxEvents: e.events } : limits;
}
