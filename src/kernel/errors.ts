/**
 * The simulator's error types, shared by every layer. Few on purpose: a base error,
 * bad user input (the CLI exits 2 with the one-line message), and a failure of the
 * simulated program (exit 1). Layers above add detail in subclasses
 * (e.g. the machine's deadlock report).
 */

/** Base class of every error the simulator raises on purpose. */
export class SimError extends Error {
  override name = 'SimError';
}

/**
 * Bad input from a user: a CLI argument, a platform file, an app parameter, a file
 * that is not what it claims. The message is one line naming what was wrong and what
 * was expected; the CLI prints it without a stack trace and exits with code 2.
 */
export class InputError extends SimError {
  override name = 'InputError';
}

/**
 * The simulated program failed: an exception in an app, a failed `assert` or
 * `StrataFail`, or a deadlock. The CLI reports it and exits with code 1.
 */
export class RunFailure extends SimError {
  override name = 'RunFailure';
  /** Each node's last log entry when the run failed (the manual's loglast report); empty if none logged. */
  lastLogEntries: string[] = [];
}
