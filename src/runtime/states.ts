/**
 * Node states for state graphs (Appendix A 10): the one home of Strata's predefined
 * state numbers and names, and each node's current state with its recording switch.
 * A traced run records every change at the node's own cycle; while it records,
 * Strata's own operations show as states 2-7 (`enter` / `leave`).
 */
import { RunFailure } from '../kernel/errors.ts';
import type { TraceSink } from '../machine/machine.ts';
import type { Node } from '../machine/node.ts';
import { shownArgument } from './words.ts';

/** Strata's predefined states (Appendix A 10); apps number their own from 8. */
// Frozen: the package's one copy serves every run, and a program that set State.Barrier = 1 made later runs trace their barriers as Busy.
export const State = Object.freeze({
  Idle: 0,
  Busy: 1,
  Logging: 2,
  Qprintf: 3,
  EmptyPrintQ: 4,
  Broadcasting: 5,
  Combine: 6,
  Barrier: 7,
} as const);

/** The first state number an app names for itself. */
export const FIRST_APP_STATE = 8;

/** The predefined states' names, indexed by number. */
export const STRATA_STATE_NAMES: readonly string[] = Object.keys(State);

/** The largest state number a trace can hold (one byte); setState takes no larger, and the trace reader refuses one. */
export const MAX_STATE = 255;

/** One node's state and whether its changes are recorded (RecordStates). */
export class NodeStates {
  private state: number = State.Idle;
  private isRecording = true;
  private readonly node: Node;
  private readonly trace: TraceSink | null;

  constructor(node: Node, trace: TraceSink | null) {
    this.node = node;
    this.trace = trace;
  }

  /** SetState: the new state (0..255); returns the old one. */
  set(state: number): number {
    if (!Number.isInteger(state) || state < 0 || state > MAX_STATE) {
      throw new RunFailure(`node ${this.node.id}: setState(${shownArgument(state)}): expected an integer from 0 to ${MAX_STATE}`);
    }
    const old = this.state;
    this.state = state;
    if (this.isRecording && state !== old) this.trace?.state(this.node.id, this.node.time, state);
    return old;
  }

  get current(): number {
    return this.state;
  }

  /** RecordStates: turns recording on or off; returns the old setting. */
  record(on: boolean): boolean {
    const old = this.isRecording;
    this.isRecording = on;
    return old;
  }

  /** Switches to one of Strata's own states while a traced run records; returns the state to go back to, or -1. */
  enter(state: number): number {
    if (!this.isRecording || this.trace === null) return -1;
    return this.set(state);
  }

  /** Goes back to what `enter` returned. */
  leave(previous: number): void {
    if (previous >= 0) this.set(previous);
  }
}
