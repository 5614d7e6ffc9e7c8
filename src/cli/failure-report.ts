/**
 * How `sim` tells a person that a simulated program failed: the failure's first
 * line on stderr and, when anything was logged, each node's last log entry (Strata's
 * loglast). Shared by the dispatcher's last-resort handler and the run command.
 */
import type { RunFailure } from '../kernel/errors.ts';
import type { Io } from './io.ts';

/** Writes the failure line, then each node's last log entry if any were logged. */
export function reportFailure(e: RunFailure, io: Io): void {
  io.err(`sim: run failed: ${e.message}`);
  if (e.lastLogEntries.length > 0) io.err(formatLoglast(e.lastLogEntries));
}

/** The loglast report: a title line, then one indented entry per node. */
export function formatLoglast(entries: readonly string[]): string {
  return ['last log entry of each node (loglast):', ...entries.map((e) => `  ${e}`)].join('\n');
}
