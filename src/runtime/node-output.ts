/**
 * One node's printing and logging (Appendix A 9.1, 9.3): Qprintf queues text, which
 * reaches the run's output when the node flushes (an operation starting outside a
 * handler, EmptyPrintQ, exit); StrataLog writes a log entry at once; global
 * operations log their progress when the run logs them. The run-wide destinations
 * are printing.ts's RunOutput.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Node } from '../machine/node.ts';
import type { LocalWork } from './local-work.ts';
import type { PrintQueue } from './op-guard.ts';
import { formatC } from './c-format.ts';
import type { OutputStream, RunOutput } from './printing.ts';
import { State, type NodeStates } from './states.ts';
import { shownArgument } from './words.ts';

export class NodeOutput implements PrintQueue {
  /**
   * Queued text, or null until the first Qprintf: most nodes print nothing, and whether
   * it is empty is asked before every operation (no array to read then).
   */
  private queue: { stream: OutputStream; text: string }[] | null = null;
  private readonly node: Node;
  private readonly output: RunOutput;
  private readonly states: NodeStates;
  private readonly work: LocalWork;

  constructor(node: Node, output: RunOutput, states: NodeStates, work: LocalWork) {
    this.node = node;
    this.output = output;
    this.states = states;
    this.work = work;
  }

  get isEmpty(): boolean {
    return this.queue === null || this.queue.length === 0;
  }

  get queued(): number {
    return this.queue === null ? 0 : this.queue.length;
  }

  /** Qfprintf: queues formatted text for `stream`, charging a call and a store per word; returns its length. */
  qfprintf(stream: OutputStream, format: string, args: unknown[]): number {
    if (stream !== 'stdout' && stream !== 'stderr') {
      throw new RunFailure(`node ${this.node.id}: qfprintf to ${String(stream)}: expected 'stdout' or 'stderr'`);
    }
    const text = this.format('qprintf', format, args);
    (this.queue ??= []).push({ stream, text });
    const previous = this.states.enter(State.Qprintf);
    this.work.computeOps({ calls: 1, stores: Math.ceil(text.length / 4) });
    this.states.leave(previous);
    this.logGlobal(`qprintf: ${text}`);
    return text.length;
  }

  /** Writes the queued output to the run's output, charging a call per message. */
  flush(): void {
    const queued = this.queued;
    this.print();
    this.work.computeOps({ calls: queued });
  }

  /**
   * Writes the queue as the run ends (StrataExit leaves "after cleaning up", Appendix
   * A 3.5): at its end what handlers queued while the node waited in StrataExit, which
   * nothing flushed after the exit began; at a StrataFail what the node queued before
   * it. The text was lost. The run is over, so no time is charged.
   */
  flushFinal(): void {
    this.print();
  }

  private print(): void {
    if (this.queue === null) return;
    for (const { stream, text } of this.queue) this.output.print(stream, text);
    this.queue.length = 0;
  }

  /**
   * StrataLog: a log entry prefixed with this node and its cycle; as expensive as in
   * Strata, ten calls' worth of cycles plus a store per word of text.
   */
  strataLog(format: string, args: unknown[]): void {
    const text = this.format('strataLog', format, args);
    this.output.log(this.node.id, this.node.time, text);
    const previous = this.states.enter(State.Logging);
    this.work.computeOps({ calls: 10, stores: Math.ceil(text.length / 4) });
    this.states.leave(previous);
  }

  /**
   * The text C's printf makes of `format` and `args`. A format that is not a string is
   * refused: a number printed nothing and undefined failed inside the formatter
   * ("TypeError: Cannot read properties of undefined (reading 'length')").
   */
  private format(call: string, format: unknown, args: unknown[]): string {
    if (typeof format !== 'string') throw new RunFailure(`node ${this.node.id}: ${call} format ${shownArgument(format)}: expected a string (C printf's format)`);
    try {
      return formatC(format, ...args);
    } catch (e) {
      if (e instanceof RangeError) throw new RunFailure(`node ${this.node.id}: ${call}: ${e.message}`);
      throw e;
    }
  }

  /** Logs the progress of a global operation when the run logs them (free: an observation). */
  logGlobal(text: string): void {
    if (this.output.logsGlobalOps) this.output.log(this.node.id, this.node.time, text);
  }
}
