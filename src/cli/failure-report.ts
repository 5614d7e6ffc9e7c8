/**
 * How `sim` tells a person that a simulated program failed: the failure's first
 * line on stderr, where in the app it happened if the app's code threw, and, when
 * anything was logged, each node's last log entry (Strata's loglast). Shared by the dispatcher's last-resort handler and the run command.
 */
import type { RunFailure } from '../kernel/errors.ts';
import { appFrames } from './app-location.ts';
import type { Io } from './io.ts';

/**
 * Writes the failure line, the app's own stack frames when its code threw (file and
 * line), then each node's last log entry if any were logged.
 */
export function reportFailure(e: RunFailure, io: Io): void {
  io.err(`sim: run failed: ${e.message}`);
  const frames = appFrames(e);
  if (frames.length > 0) io.err(frames.map((f) => `  ${f}`).join('\n'));
  const limit = sizeLimit(e);
  if (limit === 'memory') {
    io.err('sim: the host could not allocate the memory this run asks for: make the input smaller, or give Node more with NODE_OPTIONS=--max-old-space-size=<MB>');
  } else if (limit === 'length') {
    // A limit of the language, not of the heap: advice to give Node more memory could not help.
    io.err('sim: the app asked for an array of a length JavaScript does not take (negative, not whole, or past its largest: 2^32 - 1 elements for an Array), whatever the memory: expected a length it takes');
  }
  if (e.lastLogEntries.length > 0) io.err(formatLoglast(e.lastLogEntries));
}

/**
 * Whether what the app threw is the host running out of memory (a catchable allocation
 * failure), or a length past what the language allows (`new Float64Array(2 ** 33)`,
 * `a.length = 2 ** 32`), which a larger heap does not lift; null for anything else.
 */
function sizeLimit(e: Error): 'memory' | 'length' | null {
  const cause = e.cause;
  if (!(cause instanceof RangeError)) return null;
  if (/allocation failed|out of memory/i.test(cause.message)) return 'memory';
  return /Invalid (typed )?array length/i.test(cause.message) ? 'length' : null;
}

/** The loglast report: a title line, then one indented entry per node. */
export function formatLoglast(entries: readonly string[]): string {
  return ['last log entry of each node (loglast):', ...entries.map((e) => `  ${e}`)].join('\n');
}
