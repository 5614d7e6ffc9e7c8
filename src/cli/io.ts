/**
 * Where the `sim` commands write: an `Io` carries their stdout and stderr lines and
 * the simulated program's own output, so tests and other callers can capture them.
 * `processIo` is the real process's streams; no command writes to them directly.
 */

/** The output streams of a `sim` command. */
export interface Io {
  /** Writes a line to stdout. */
  out(text: string): void;
  /** Writes a line to stderr. */
  err(text: string): void;
  /** Writes the simulated program's output as it is, without adding a newline. */
  write(stream: 'stdout' | 'stderr', text: string): void;
  /** Shows a status line on a terminal's stderr, redrawn in place; null clears it. */
  status?(line: string | null): void;
}

/** The process's own stdout and stderr. */
export const processIo: Io = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  write: (stream, t) => (stream === 'stdout' ? process.stdout : process.stderr).write(t),
  status: (line) => process.stderr.write(line === null ? '\r\x1b[K' : `\r${line}\x1b[K`),
};
