/**
 * Shared benchmark plumbing: time a task with tinybench and report its median, and
 * print aligned result rows. Benchmarks may read the wall clock; src/ may not.
 */
import { Bench } from 'tinybench';

export interface Timing {
  medianMs: number;
  minMs: number;
  samples: number;
}

/** Runs `fn` `iterations` times after one warm-up and returns the median wall time. */
export async function timeTask(name: string, fn: () => void, iterations: number): Promise<Timing> {
  const bench = new Bench({ name, iterations, time: 0, warmupIterations: 1, warmupTime: 0 });
  bench.add(name, fn);
  await bench.run();
  const result = bench.tasks[0].result;
  if (!('latency' in result)) throw new Error(`benchmark ${name} did not complete: ${result.state}`);
  return { medianMs: result.latency.p50, minMs: result.latency.min, samples: result.latency.samplesCount };
}

/** The median (the mean of the middle two for an even count): the simulator's own, which app calibration uses. */
export { median } from '../src/calibrate/app-tasks.ts';

export function printRows(title: string, rows: [string, string][]): void {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}

export const fmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const fmt2 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
/** Three decimals: for a ratio checked against a target it sits near (0.596 is not 0.60). */
export const fmt3 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3, minimumFractionDigits: 3 });
