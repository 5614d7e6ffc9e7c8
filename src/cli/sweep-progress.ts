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
