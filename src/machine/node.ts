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
 */
import { BLOCK, type Simulation } from '../kernel/simulation.ts';

/** A runtime operation: a generator run with `yield*`, yielding kernel requests. */
export type Op<T = void> = Generator<number, T, undefined>;

/** Bits for `idle`'s wake-up mask. */
export const WAKE_LEFT = 1;
export const WAKE_RIGHT = 2;
export const WAKE_DATA = WAKE_LEFT | WAKE_RIGHT;
export const WAKE_CONTROL = 4;
/** Room to inject again on the left (right: << 1). */
export const WAKE_INJECT_LEFT = 8;
export const WAKE_INJECT_RIGHT = 16;

/** A node's timer interrupts (thesis 3.4.1), the first at `phase` in [0, periodCycles). */
export interface TimerInterrupts {
  periodCycles: number;
  cycles: number;
  phase: number;
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
  /** Cycles by which timer interrupts delayed this node. */
  interruptCycles = 0;
  packetsSent = 0;
  bytesSent = 0;
  packetsReceived = 0;

  /** The runtime call this node is waiting in, while it waits (for deadlock reports). */
  waitingIn: string | null = null;
  /** Set once the node's program has returned (Strata's StrataExit(0)). */
  hasExited = false;
  exitCycle = 0;

  private wakeMask = 0;
  private readonly sim: Simulation;
  private readonly interrupts: TimerInterrupts | null;
  /** Cycle of the next timer interrupt on this node's clock. */
  private nextInterrupt: number;

  constructor(sim: Simulation, id: number, interrupts: TimerInterrupts | null = null) {
    this.sim = sim;
    this.id = id;
    this.interrupts = interrupts;
    this.nextInterrupt = interrupts?.phase ?? Infinity;
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
    if (this.nextInterrupt < end) {
      // Only a node with interrupts has a finite next interrupt.
      const { periodCycles, cycles: length } = this.interrupts!;
      let last: number;
      do {
        last = this.nextInterrupt;
        if (isWork) end += length;
        this.nextInterrupt += periodCycles;
      } while (this.nextInterrupt < end);
      if (!isWork) end = Math.max(end, last + length);
      this.interruptCycles += end - this.time - cycles;
    }
    this.time = end;
  }

  /** Lets global time reach this node's clock; afterwards sim.now === time. */
  *sync(): Op {
    const d = this.time - this.sim.now;
    if (d > 0) yield d;
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
    const start = this.time;
    this.wakeMask = wakeOn;
    this.waitingIn = what;
    yield BLOCK;
    this.wakeMask = 0;
    this.waitingIn = null;
    // The iteration at `start` has already failed, so the next check is at least one period on.
    const periods = Math.max(1, Math.ceil((this.sim.now - start) / periodCycles));
    if (isStall) this.chargeStall(periods * periodCycles);
    else this.chargeSpin(periods * periodCycles);
  }

  /** Wakes the node if it is idling on any event in `mask`. */
  notify(mask: number): void {
    if ((this.wakeMask & mask) !== 0) this.sim.wake(this.pid);
  }
}
