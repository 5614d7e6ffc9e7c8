/**
 * One simulated processor: its own cycle clock, its cycle and message counters, and
 * the two primitives every runtime call is built from — `sync` (let global time
 * catch up with this node's clock before touching shared state) and `idle` (spin in
 * a loop without simulating each iteration). It knows nothing of Strata's API.
 *
 * Clock rule: a node charges cycles to its own clock (`time`) without events; it
 * synchronizes with the kernel only when it interacts with the rest of the machine
 * (injects, polls, reads a global flag). While a node runs, time >= sim.now.
 *
 * Timer interrupts (the CM-5; thesis 3.4.1): every `periodCycles` of the node's
 * clock, from a phase of its own, the operating system takes `cycles`. Work that an
 * interrupt falls into ends that much later; a wait (spinning, stalling) ends late
 * only if the interrupt is still running when the wait would have ended.
 *
 * Pauses (the CM-5's time slices, thesis 3.4.2) come from outside, at a global time:
 * see `pause`.
 */
import { smallInteger } from '../kernel/event-queue.ts';
import { BLOCK, type Simulation } from '../kernel/simulation.ts';

/**
 * A runtime operation: a generator run with `yield*`, yielding kernel requests, or a
 * state machine with a generator's four methods (StepOp, GuardedOp). Not `Generator`
 * itself: a library's newer than ES2023 gives Generator the iterator helpers (map,
 * filter, take, ...), which the state machines lack, and a program type-checked
 * against such a library refused the package's declarations.
 */
export interface Op<T = void> extends Iterator<number, T, undefined> {
  next(...args: [] | [undefined]): IteratorResult<number, T>;
  return(value: T): IteratorResult<number, T>;
  throw(e: unknown): IteratorResult<number, T>;
  [Symbol.iterator](): Op<T>;
}

/** Bits for `idle`'s wake-up mask: a packet arrived on the left or right network. */
export const WAKE_LEFT = 1;
export const WAKE_RIGHT = 2;
export const WAKE_DATA = WAKE_LEFT | WAKE_RIGHT;
export const WAKE_CONTROL = 4;
/** Room to inject again on the left or right network (network n: WAKE_INJECT_LEFT << n). */
export const WAKE_INJECT_LEFT = 8;
export const WAKE_INJECT_RIGHT = 16;

/** A node's timer interrupts (thesis 3.4.1), the first at `phase` in [0, periodCycles). */
export interface TimerInterrupts {
  periodCycles: number;
  cycles: number;
  phase: number;
}

/** The least k >= 1 with k x step >= span (span > 0, step > 0, integers), exact below 2^53. */
function leastMultiple(span: number, step: number): number {
  let k = Math.max(1, Math.ceil(span / step));
  // The division rounds: correct the last step either way.
  while (k * step < span) k++;
  while (k > 1 && (k - 1) * step >= span) k--;
  return k;
}

/** A machine's cycle limit, shared by its nodes; `cycles` -1: none. */
export interface CycleLimit {
  cycles: number;
}

export class Node {
  readonly id: number;
  /** This node's clock in cycles. */
  time = 0;
  /** Kernel process id of the node's thread. */
  pid = -1;

  /** Cycles of computation, message overheads and handlers. */
  busyCycles = 0;
  /** Cycles spent in polls that found nothing and in spin-wait loops. */
  spinCycles = 0;
  /** Cycles spent trying to inject into a full network (thesis 7.1: senders stall). */
  stallCycles = 0;
  /** Cycles by which timer interrupts and time slices delayed this node. */
  interruptCycles = 0;
  packetsSent = 0;
  bytesSent = 0;
  packetsReceived = 0;

  /**
   * The run's cycle limit (Machine.limitCycles): local work that takes the clock past it
   * stops the run (LocalWork), as a loop of it never reaches the kernel. One record for
   * all the machine's nodes, not a field of each: a number field that holds a
   * non-integer or a large one (the default limit is 10^10) keeps it in a number object
   * of its own, a cache miss of its own on each read on a 4096-node machine.
   */
  readonly cycleLimit: CycleLimit;

  /** The runtime call this node is waiting in, while it waits (for deadlock reports). */
  waitingIn: string | null = null;
  /** Set once the node's program has returned (Strata's StrataExit(0)). */
  hasExited = false;
  /** In a handler when the last node reached StrataExit, and not yet out of it (Machine.exit). */
  isLingering = false;
  exitCycle = 0;

  private wakeMask = 0;
  /** Parked in `idle` (its clock is where the wait began). */
  private isParked = false;
  /** Set by a pause that found the node parked: it cannot go on before this cycle. */
  private pausedUntil = 0;
  private readonly sim: Simulation;
  private readonly interrupts: TimerInterrupts | null;
  /**
   * Cycle of the next timer interrupt on this node's clock; 0 and unused without
   * interrupts (not Infinity: see cycleLimit), a small integer while it is one (see
   * smallInteger).
   */
  private nextInterrupt: number;

  constructor(sim: Simulation, id: number, interrupts: TimerInterrupts | null = null, cycleLimit: CycleLimit = { cycles: -1 }) {
    this.sim = sim;
    this.id = id;
    this.interrupts = interrupts;
    this.cycleLimit = cycleLimit;
    this.nextInterrupt = interrupts === null ? 0 : smallInteger(interrupts.phase);
  }

  /** Charges `cycles` of useful work to this node's clock. */
  charge(cycles: number): void {
    this.advance(cycles, true);
    this.busyCycles += cycles;
  }

  /** Charges `cycles` of fruitless polling or spinning. */
  chargeSpin(cycles: number): void {
    this.advance(cycles, false);
    this.spinCycles += cycles;
  }

  /** Charges `cycles` of failed injection attempts. */
  chargeStall(cycles: number): void {
    this.advance(cycles, false);
    this.stallCycles += cycles;
  }

  /**
   * Moves the clock over `cycles` of work (`isWork`) or waiting, plus the timer
   * interrupts that delay it; the caller files the `cycles` under a counter.
   */
  advance(cycles: number, isWork: boolean): void {
    let end = this.time + cycles;
    const first = this.nextInterrupt;
    const interrupts = this.interrupts;
    if (interrupts !== null && first < end) {
      // Work is lengthened by each interrupt that falls inside it, so it takes the k
      // interrupts at first, first + period, ... for the least k >= 1 with
      // first + k period >= end + k length; a wait takes those before its end and lasts at
      // least to the last one's end. In closed form: a loop over the interrupts took years
      // for compute(1e20) (a period of 550,000 cycles), and --max-cycles could not stop it.
      const { periodCycles, cycles: length } = interrupts;
      const k = leastMultiple(end - first, isWork ? periodCycles - length : periodCycles);
      if (isWork) end += k * length;
      else end = Math.max(end, first + (k - 1) * periodCycles + length);
      this.nextInterrupt = smallInteger(first + k * periodCycles);
      this.interruptCycles += end - this.time - cycles;
    }
    this.time = end;
  }

  /**
   * Lets global time reach this node's clock; afterwards sim.now === time. Loops,
   * since a pause may move the clock on while the node waits.
   */
  *sync(): Op {
    while (this.ahead > 0) yield this.ahead;
  }

  /** Whether this node's clock is past the run's cycle limit (machine.limitCycles; never without one). */
  get isPastCycleLimit(): boolean {
    const limit = this.cycleLimit.cycles;
    return limit >= 0 && this.time > limit;
  }

  /**
   * Cycles this node's clock is ahead of global time. Hot paths wait with
   * `while (node.ahead > 0) yield node.ahead`, sync's loop without a generator per call.
   */
  get ahead(): number {
    return this.time - this.sim.now;
  }

  /**
   * Stops the node for `cycles` from global time `at` (now): the operating system
   * has the processor. A node whose clock is already at or past `at` (it is running,
   * or ran ahead within a charge) finishes what it was doing that much later; a
   * parked node cannot go on before `at + cycles`, whenever it is woken. The charge is
   * not known before global time reaches `at`, so a node that computed alone past `at`
   * learns of it at its next interaction: clock readings in between do not include it.
   */
  pause(at: number, cycles: number): void {
    if (this.isParked) {
      this.pausedUntil = at + cycles;
    } else {
      this.time += cycles;
      this.interruptCycles += cycles;
      // Timer interrupts due during the pause are the operating system's own business.
      const interrupts = this.interrupts;
      if (interrupts !== null) while (this.nextInterrupt < this.time) this.nextInterrupt += interrupts.periodCycles;
    }
  }

  /**
   * Models a loop whose iterations each cost `periodCycles` and whose exit condition
   * can only change when a packet arrives on a network in `wakeOn` or the control
   * network completes something for this node. Precondition: the caller's last
   * iteration failed and `time` is where the next one starts. Checks `isReady` there;
   * if false, parks the node until a wake-up, then moves its clock to the first
   * iteration boundary after the one just checked at or after the wake-up, charging
   * the spun cycles (as stall cycles when `isStall`). The result matches simulating
   * every iteration, up to the order of same-cycle events, without the events.
   */
  *idle(periodCycles: number, wakeOn: number, what: string, isReady: () => boolean, isStall = false): Op {
    yield* this.sync();
    if (isReady()) return;
    const start = this.park(wakeOn, what);
    yield BLOCK;
    this.unpark(start, periodCycles, isStall);
  }

  /**
   * `idle` without a generator, for operations written as state machines: park
   * (synced, and the check failed), yield BLOCK, then unpark with what park returned.
   * Returns the cycle the wait began at.
   */
  park(wakeOn: number, what: string): number {
    this.wakeMask = wakeOn;
    this.waitingIn = what;
    this.isParked = true;
    return this.time;
  }

  /** After park's BLOCK: charges the loop's iterations up to the wake-up (see idle). */
  unpark(start: number, periodCycles: number, isStall: boolean): void {
    this.isParked = false;
    this.wakeMask = 0;
    this.waitingIn = null;
    // The iteration at `start` has already failed, so the next check is at least one period on.
    const periods = Math.max(1, Math.ceil((this.sim.now - start) / periodCycles));
    if (isStall) this.chargeStall(periods * periodCycles);
    else this.chargeSpin(periods * periodCycles);
    if (this.time < this.pausedUntil) {
      this.interruptCycles += this.pausedUntil - this.time;
      this.time = this.pausedUntil;
    }
  }

  /** Wakes the node if it is idling on any event in `mask`. */
  notify(mask: number): void {
    if ((this.wakeMask & mask) !== 0) this.sim.wake(this.pid);
  }
}
