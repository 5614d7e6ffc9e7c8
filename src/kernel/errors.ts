/**
 * The simulator's error types, all in one home: a base error, bad user input (the
 * CLI exits 2 with the one-line message), and a failure of the simulated program
 * (exit 1) with its three kinds: the app's own exception, Strata's StrataFail /
 * assert / StrataExit(n), and a deadlock with its report of every node.
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
  /**
   * Where the run stopped: the failing node's clock, or global time when it failed
   * outside any node (a deadlock); null until the failure leaves the run.
   */
  stoppedAtCycle: number | null = null;
}

/** An exception escaped a node's program (or the app's verify). */
export class AppError extends RunFailure {
  override name = 'AppError';
}

/** A node called StrataFail, failed an assert, or called StrataExit with a non-zero code. */
export class StrataFailure extends RunFailure {
  override name = 'StrataFailure';
}

/** The run found no event to dispatch while some nodes had not exited. */
export class DeadlockError extends RunFailure {
  override name = 'DeadlockError';
  /** For each node: the call it was waiting in, or "exited". */
  readonly nodeStates: string[];

  constructor(cycle: number, nodeStates: string[]) {
    const waiting = nodeStates.filter((s) => s !== 'exited').length;
    super(`deadlock at cycle ${cycle}: ${waiting} node(s) waiting with nothing left to happen\n${groupNodes(nodeStates)}`);
    this.nodeStates = nodeStates;
  }
}

/**
 * The run reached a limit on simulated cycles or on events before every node had
 * exited (a runaway program, or a platform that makes it crawl). The message ends with
 * every node's clock and call, as a deadlock's does.
 */
export class RunLimitError extends RunFailure {
  override name = 'RunLimitError';
  /** Which limit: simulated cycles, dispatched events, or the JavaScript heap (its size in bytes). */
  readonly limit: 'cycles' | 'events' | 'heap';
  /** The limit's value. */
  readonly value: number;
  /** Simulated time and events dispatched when the run stopped. */
  readonly cycle: number;
  readonly events: number;
  /** The fingerprint when the run stopped. */
  readonly fingerprint: string;

  constructor(message: string, stop: { limit: 'cycles' | 'events' | 'heap'; value: number; cycle: number; events: number; fingerprint: string }) {
    super(message);
    this.limit = stop.limit;
    this.value = stop.value;
    this.cycle = stop.cycle;
    this.events = stop.events;
    this.fingerprint = stop.fingerprint;
  }
}

/** The run was stopped by a signal (SIGINT, SIGTERM) part-way; the message ends with every node's clock and call. */
export class RunInterrupted extends RunFailure {
  override name = 'RunInterrupted';
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** Simulated time and events dispatched when the run stopped. */
  readonly cycle: number;
  readonly events: number;
  /** The fingerprint when the run stopped. */
  readonly fingerprint: string;

  constructor(message: string, stop: { signal: 'SIGINT' | 'SIGTERM'; cycle: number; events: number; fingerprint: string }) {
    super(message);
    this.signal = stop.signal;
    this.cycle = stop.cycle;
    this.events = stop.events;
    this.fingerprint = stop.fingerprint;
  }
}

/** "  nodes 0-3,5: waiting in completeBarrier" lines, one per distinct state. */
function groupNodes(states: string[]): string {
  const byState = new Map<string, number[]>();
  states.forEach((s, i) => {
    const ids = byState.get(s);
    if (ids === undefined) byState.set(s, [i]);
    else ids.push(i);
  });
  const lines: string[] = [];
  for (const [state, ids] of byState) {
    const ranges: string[] = [];
    for (let i = 0; i < ids.length; ) {
      let j = i;
      while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
      ranges.push(i === j ? `${ids[i]}` : `${ids[i]}-${ids[j]}`);
      i = j + 1;
    }
    lines.push(`  node${ids.length === 1 ? '' : 's'} ${ranges.join(',')}: ${state}`);
  }
  return lines.join('\n');
}

/**
 * What a value is, for an InputError's "got ...": null, undefined, a list, or its
 * typeof (a library caller's null was a TypeError from deep inside).
 */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return typeof value;
}

/**
 * What a program threw, as text: an Error's name and message, anything else as String
 * gives it, or, for a value that cannot be made text (a frozen object without a
 * prototype, a toString or message getter that throws), what kind of value it is.
 * Made unguarded, such a value was the simulator's "internal error" with its stack.
 */
export function describeThrown(e: unknown): string {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    return `a value that cannot be shown as text (${kindOf(e)})`;
  }
}
