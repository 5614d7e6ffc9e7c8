/**
 * How a long command shows how far it is: a bar (or, for one run, a status line)
 * redrawn on an interactive stderr; with `--progress <seconds>`, a plain line on
 * stderr every so many seconds instead, for the log of a batch job (Slurm, CI, nohup),
 * where a bar draws nothing and the command was silent for hours; otherwise nothing.
 * The wall clock is read here, in the CLI; nothing of it reaches a simulation.
 */
import type { SingleBar } from 'cli-progress';
import { createRequire } from 'node:module';
import { InputError } from '../kernel/errors.ts';
import type { Io } from './io.ts';
import { grouped } from '../kernel/numbers.ts';

/**
 * cli-progress, loaded when a bar is first drawn: every run imports this file, and the
 * package took about 10 ms of each start (a run on a terminal draws no bar before 2 s).
 */
function bars(): typeof import('cli-progress') {
  return createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
}

/** The most `--progress` takes: a line a day. */
const MAX_PROGRESS_SECONDS = 86_400;

export type ProgressStyle =
  /** A bar redrawn on a terminal's stderr. */
  | { readonly kind: 'bar' }
  /** A line on `io.err` every `everyMs` of wall time. */
  | { readonly kind: 'lines'; readonly everyMs: number; readonly io: Io }
  | { readonly kind: 'none' };

/**
 * `--progress <seconds>`: the seconds between two progress lines, or null when not
 * given. `prefix` starts the message (parse-options.ts's messagePrefix: '' for a run,
 * "sim sweep: "); not imported here, as a run's start-up would load every command's
 * declarations with it.
 * @throws InputError for a value that is not a number of seconds from 1 to a day
 */
export function parseProgressSeconds(option: string | undefined, prefix: string): number | null {
  if (option === undefined) return null;
  const seconds = /^\d+(\.\d+)?$/.test(option) ? Number(option) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_PROGRESS_SECONDS)) {
    throw new InputError(`${prefix}--progress ${option}: expected the seconds between two progress lines, a number from 1 to ${MAX_PROGRESS_SECONDS}`);
  }
  return seconds;
}

/**
 * The style of a command given `--progress` (seconds, or null) and whether it may draw a
 * bar (an interactive stderr, not --json): the lines when asked for, else the bar.
 */
export function progressStyle(seconds: number | null, mayDrawBar: boolean, io: Io): ProgressStyle {
  if (seconds !== null) return { kind: 'lines', everyMs: seconds * 1000, io };
  return { kind: mayDrawBar ? 'bar' : 'none' };
}

/** Counts things done (runs, models, trials) out of a total, as a bar or as lines. */
export interface Counter {
  /** `value` of the total done now; `note` adds to the line (", 3 failed"). */
  update(value: number, note?: string): void;
  stop(): void;
}

/**
 * A counter for `total` things (`unit`: "runs"), `done` of them done already. A line
 * reads `label: 1,234/10,000 runs (12%), 3 failed, 5 min elapsed, about 36 min left`,
 * the time left from the rate since the counter started. Lines come from a timer, so
 * they keep coming while a long run holds the count still, and from `update` when
 * the period has passed (planning, which never gives the timer a turn).
 */
export function counter(style: ProgressStyle, label: string, unit: string, total: number, done: number): Counter {
  if (style.kind === 'none' || total === 0) return { update: () => {}, stop: () => {} };
  if (style.kind === 'bar') {
    const { SingleBar, Presets } = bars();
    const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} ${unit}{note} | {percentage}% | ETA {eta_formatted}`, hideCursor: true, etaBuffer: 50 }, Presets.shades_classic);
    bar.start(total, done, { note: '' });
    return { update: (value, note = '') => bar.update(value, { note }), stop: () => bar.stop() };
  }
  const { everyMs, io } = style;
  const startedAt = performance.now();
  let shownAt = startedAt;
  let value = done;
  let note = '';
  let timer: NodeJS.Timeout | undefined;
  const show = (): void => {
    const now = performance.now();
    shownAt = now;
    const elapsed = now - startedAt;
    const rate = (value - done) / elapsed;
    const left = rate > 0 ? `, about ${duration((total - value) / rate)} left` : '';
    const percent = Math.floor((100 * value) / total);
    io.err(`${label}: ${grouped(value)}/${grouped(total)} ${unit} (${percent}%)${note}, ${duration(elapsed)} elapsed${left}`);
    wait();
  };
  // The next line one period after this one, whoever wrote it: an update's line and an
  // overdue timer's (the thread was busy) said the same thing twice.
  const wait = (): void => {
    clearTimeout(timer);
    timer = setTimeout(show, everyMs);
    // The timer never keeps the process alive.
    timer.unref();
  };
  wait();
  return {
    update: (v, n = '') => {
      value = v;
      note = n;
      if (performance.now() - shownAt >= everyMs) show();
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * Progress of a slow planning (a study's trials, minutes for 100,000 stencil trials):
 * a bar once planning has taken a second, cleared when it ends, or lines as a counter's.
 * The bar keeps the cursor visible: planning runs without a turn of the event loop, so
 * Ctrl-C ends the process there, and a hidden cursor would stay hidden.
 */
export function planningProgress(style: ProgressStyle, label: string): { onPlanned: (planned: number, total: number) => void; stop: () => void } {
  if (style.kind === 'none') return { onPlanned: () => {}, stop: () => {} };
  if (style.kind === 'lines') {
    let lines: Counter | null = null;
    return {
      onPlanned: (planned, total) => {
        lines ??= counter(style, label, 'trials', total, 0);
        lines.update(planned);
        // Ended with planning, as the bar is: it printed "planning: 80/80 trials (100%)" beside the runs' lines until the study ended.
        if (planned >= total) {
          lines.stop();
          lines = null;
        }
      },
      stop: () => lines?.stop(),
    };
  }
  let startedAt: number | null = null;
  let bar: SingleBar | null = null;
  const stop = (): void => {
    bar?.stop();
    bar = null;
  };
  const onPlanned = (planned: number, total: number): void => {
    startedAt ??= performance.now();
    if (bar === null && planned < total && performance.now() - startedAt >= 1000) {
      const { SingleBar, Presets } = bars();
      bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} trials | ETA {eta_formatted}`, hideCursor: false, clearOnComplete: true, etaBuffer: 1000 }, Presets.shades_classic);
      bar.start(total, planned);
    } else bar?.update(planned);
    if (planned >= total) stop();
  };
  return { onPlanned, stop };
}

/** How a run's status shows: from `afterMs` of wall time on, every `everyMs`; `show(null)` clears a redrawn line. */
export interface RunStatus {
  readonly afterMs: number;
  readonly everyMs: number;
  show(line: string | null): void;
}

/**
 * A run's status for `style`: on a terminal a line redrawn four times a second once the
 * run has taken 2 s (`io.status`); as lines, one every period; none otherwise.
 */
export function runStatus(style: ProgressStyle, io: Io): RunStatus | null {
  if (style.kind === 'lines') return { afterMs: style.everyMs, everyMs: style.everyMs, show: (line) => void (line !== null && style.io.err(line)) };
  const status = io.status;
  if (style.kind === 'none' || status === undefined) return null;
  return { afterMs: 2000, everyMs: 250, show: (line) => status(line) };
}

/** A wall-clock duration for a progress line: 42 s, 5 min, 2 h 05 min. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}
