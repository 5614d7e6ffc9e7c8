/**
 * Progress of a sweep: a bar with ETA on an interactive stderr (cli-progress), nothing
 * otherwise (the command prints a one-line summary at the end).
 */
import { Presets, SingleBar } from 'cli-progress';

export interface Progress {
  tick(): void;
  stop(): void;
}

/** A progress reporter for `total` runs, `done` of them already recorded. */
export function progress(label: string, total: number, done: number, show: boolean): Progress {
  if (!show || total === 0) return { tick: () => {}, stop: () => {} };
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} runs | {percentage}% | ETA {eta_formatted}`, hideCursor: true, etaBuffer: 50 }, Presets.shades_classic);
  bar.start(total, done);
  let value = done;
  return { tick: () => bar.update(++value), stop: () => bar.stop() };
}

/**
 * Progress of a slow planning (a study's trials, minutes for 100,000 stencil trials,
 * silent before): on an interactive stderr, once planning has taken a second, a bar
 * that is cleared when it ends; nothing otherwise. The cursor stays visible: planning
 * runs without a turn of the event loop, so Ctrl-C ends the process there, and a
 * hidden cursor would stay hidden.
 */
export function planningProgress(label: string, show: boolean): { onPlanned: (planned: number, total: number) => void; stop: () => void } {
  if (!show) return { onPlanned: () => {}, stop: () => {} };
  let startedAt: number | null = null;
  let bar: SingleBar | null = null;
  const stop = (): void => {
    bar?.stop();
    bar = null;
  };
  const onPlanned = (planned: number, total: number): void => {
    startedAt ??= performance.now();
    if (bar === null && planned < total && performance.now() - startedAt >= 1000) {
      bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} trials | ETA {eta_formatted}`, hideCursor: false, clearOnComplete: true, etaBuffer: 1000 }, Presets.shades_classic);
      bar.start(total, planned);
    } else bar?.update(planned);
    if (planned >= total) stop();
  };
  return { onPlanned, stop };
}
