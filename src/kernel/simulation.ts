/**
 * The kernel: an integer-cycle clock, the event queue, a coroutine scheduler and the
 * run fingerprint — nothing more. Layers above reach it only through this class
 * (now, schedule, spawn, block/wake, run). It imports nothing from other layers and
 * keeps no module-level state, so simulations can run side by side in one process.
 *
 * Simulated threads are generators. A process yields a number: `n >= 0` resumes it
 * after n cycles, `BLOCK` parks it until `wake()`. The run loop is synchronous; no
 * Promise, timer or wall clock is involved.
 */
import { TimingWheelQueue } from './timing-wheel.ts';
import { Fingerprint } from './fingerprint.ts';
import { RandomStream } from './random-stream.ts';

/** Yielded by a process to park until another party calls `wake()`. */
export const BLOCK = -1;

/**
 * A simulated thread: yields a delay in cycles, or BLOCK. A generator, or an object
 * with a generator's `next` (a node's program is a plain iterator: node-program.ts).
 */
export interface SimProcess {
  next(): IteratorResult<number, void>;
}

/** Handler of an event kind; runs at the event's time with its two integer arguments. */
export type EventHandler = (a0: number, a1: number, obj: unknown) => void;

export interface RunLimits {
  /** Do not dispatch events later than this cycle. */
  untilCycle?: number;
  /** Stop after this many dispatched events in total. */
  maxEvents?: number;
}

/**
 * Sees every dispatched event after it is folded into the fingerprint: its index
 * (from 1), time, kind, first argument, 16 bits of the running fingerprint, and the
 * simulation (for kind and process names).
 */
export type EventObserver = (index: number, time: number, kind: number, a0: number, digest: number, sim: Simulation) => void;

/** Why `run()` returned. */
export type RunOutcome = 'idle' | 'stopped' | 'cycle-limit' | 'event-limit';

export type ProcessState = 'scheduled' | 'running' | 'blocked' | 'done';

const RESUME = 0; // event kind reserved for resuming a process (a0 = pid)
const SCHEDULED = 0;
const BLOCKED = 1;
const DONE = 2;
/** A process's state by its code; a running one is the current process (see processState). */
const STATE_NAMES: ProcessState[] = ['scheduled', 'blocked', 'done'];

export class Simulation {
  /** Current simulated time in cycles (an integer). */
  now = 0;
  /** Number of events dispatched so far. */
  events = 0;
  /** Pid of the process being resumed, or -1 outside a process. */
  currentProcess = -1;
  readonly seed: number;

  private readonly queue = new TimingWheelQueue(1024);
  private readonly fp = new Fingerprint();
  private readonly handlers: EventHandler[] = [];
  private readonly kindNames: string[] = ['resume'];
  /** Per event kind: whether its events keep the run going (background kinds do not). */
  private readonly isForeground: boolean[] = [true];
  /** Foreground events in the queue; the run is idle when none remain. */
  private foreground = 0;
  private readonly procs: (SimProcess | null)[] = [];
  private readonly procNames: string[] = [];
  private readonly procStates: number[] = [];
  private stopRequested = false;
  /** Called for every event when set (replay recording and checking); none by default. */
  observer: EventObserver | null = null;

  /** @param seed the run seed every random stream is derived from. */
  constructor(seed: number) {
    this.seed = seed;
    this.handlers.push(() => {
      throw new Error('unreachable: resume events are dispatched by the run loop');
    });
  }

  /**
   * Registers an event kind and returns its id; `name` appears in diagnostics. Events
   * of a `background` kind (a periodic clock, say) are dispatched in order like any
   * other but do not keep the run going: `run()` is idle once only they remain, at the
   * time of the last foreground event.
   */
  defineEventKind(name: string, handler: EventHandler, options: { background?: boolean } = {}): number {
    this.handlers.push(handler);
    this.kindNames.push(name);
    this.isForeground.push(options.background !== true);
    return this.handlers.length - 1;
  }

  kindName(kind: number): string {
    return this.kindNames[kind] ?? `kind#${kind}`;
  }

  /** Schedules an event `delay` cycles from now (delay: a non-negative integer). */
  schedule(delay: number, kind: number, a0 = 0, a1 = 0, obj?: unknown): void {
    if (!(delay >= 0) || delay !== Math.floor(delay)) {
      throw new RangeError(`event delay must be a non-negative integer number of cycles, got ${delay}`);
    }
    this.queue.push(this.now + delay, kind, a0, a1, obj);
    if (this.isForeground[kind]) this.foreground++;
  }

  /** Schedules an event at absolute cycle `time` (an integer >= now). */
  scheduleAt(time: number, kind: number, a0 = 0, a1 = 0, obj?: unknown): void {
    this.schedule(time - this.now, kind, a0, a1, obj);
  }

  /** A random stream derived from this run's seed and `streamId`. */
  stream(streamId: string): RandomStream {
    return new RandomStream(this.seed, streamId);
  }

  /** Starts a process; it first runs `delay` cycles from now. Returns its pid. */
  spawn(name: string, proc: SimProcess, delay = 0): number {
    const pid = this.procs.length;
    this.procs.push(proc);
    this.procNames.push(name);
    this.procStates.push(SCHEDULED);
    this.schedule(delay, RESUME, pid);
    return pid;
  }

  /**
   * Resumes a process parked with BLOCK, `delay` cycles from now. Returns false (and
   * does nothing) if the process is not blocked, so waking twice is harmless.
   */
  wake(pid: number, delay = 0): boolean {
    if (this.procStates[pid] !== BLOCKED) return false;
    this.procStates[pid] = SCHEDULED;
    this.schedule(delay, RESUME, pid);
    return true;
  }

  processState(pid: number): ProcessState {
    return pid === this.currentProcess ? 'running' : STATE_NAMES[this.procStates[pid]];
  }

  processName(pid: number): string {
    return this.procNames[pid];
  }


  /** Number of events waiting in the queue (background ones included). */
  get pendingEvents(): number {
    return this.queue.size;
  }

  /** Makes `run()` return after the current event. */
  stop(): void {
    this.stopRequested = true;
  }

  /** The run fingerprint so far, as 16 hex digits. */
  fingerprint(): string {
    return this.fp.hex();
  }

  /**
   * Dispatches events in (time, seq) order until no foreground event remains, `stop()` is
   * called, or a limit is reached. An exception thrown by a handler or process
   * propagates; `currentProcess` then names the process that threw (or -1).
   */
  run(limits: RunLimits = {}): RunOutcome {
    const q = this.queue;
    const fp = this.fp;
    const handlers = this.handlers;
    const untilCycle = limits.untilCycle ?? Infinity;
    const maxEvents = limits.maxEvents ?? Infinity;
    const hasCycleLimit = untilCycle !== Infinity;
    const observer = this.observer;
    this.stopRequested = false;
    const isForeground = this.isForeground;
    while (this.foreground > 0) {
      if (hasCycleLimit && q.peekTime() > untilCycle) return 'cycle-limit';
      if (this.events >= maxEvents) return 'event-limit';
      q.pop();
      const time = q.popTime;
      const kind = q.popKind;
      const a0 = q.popA0;
      const a1 = q.popA1;
      if (isForeground[kind]) this.foreground--;
      this.now = time;
      this.events++;
      fp.add(time, kind, a0, a1);
      if (observer !== null) observer(this.events, time, kind, a0, fp.digest16(), this);
      const obj = q.takeObj();
      if (kind === RESUME) this.resume(a0);
      else handlers[kind](a0, a1, obj);
      if (this.stopRequested) return 'stopped';
    }
    return 'idle';
  }

  private resume(pid: number): void {
    const proc = this.procs[pid] as SimProcess;
    // Its state stays SCHEDULED while it runs (currentProcess says it is running, and wake
    // wakes only a BLOCKED process): a resume that yields a delay, most of a machine's,
    // then writes no state at all.
    this.currentProcess = pid;
    const r = proc.next();
    this.currentProcess = -1;
    if (r.done === true) {
      this.procStates[pid] = DONE;
      this.procs[pid] = null;
      return;
    }
    const v = r.value;
    if (v === BLOCK) this.procStates[pid] = BLOCKED;
    else this.schedule(v, RESUME, pid);
  }
}
