/**
 * Ctrl-C and SIGTERM as a stop request for a command that runs many things (a sweep's
 * runs, calibration's units): while listening, either signal aborts `signal` (the
 * executors give up what is under way and start nothing more) and is remembered, so
 * the command can say what stopped it and exit 130 / 143 (run-driver.ts's
 * signalExitCode). Without it the signals killed such commands with nothing said and,
 * on a terminal, the progress bar's hidden cursor left hidden.
 */
export type StopSignal = 'SIGINT' | 'SIGTERM';

export class SignalStop {
  private readonly controller = new AbortController();
  private caught: StopSignal | null = null;
  private readonly handlers = (['SIGINT', 'SIGTERM'] as const).map((s) => [s, (): void => this.take(s)] as const);

  /** Starts listening for SIGINT and SIGTERM. */
  constructor() {
    for (const [s, handler] of this.handlers) process.on(s, handler);
  }

  /** Aborted once either signal has come. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The first signal that came, or null. */
  get interrupted(): StopSignal | null {
    return this.caught;
  }

  /** Stops listening (the signals' default action, or another listener's, applies again). */
  release(): void {
    for (const [s, handler] of this.handlers) process.off(s, handler);
  }

  private take(s: StopSignal): void {
    this.caught ??= s;
    this.controller.abort();
  }
}
