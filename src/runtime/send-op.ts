/**
 * One packet sent by a send variant's steps (Appendix A 6.1), as a state machine
 * (step-op.ts): each round tries the steps' networks and polls, and when a whole round
 * finds every tried network full and every polled network empty, the node stalls:
 * it sleeps until a tried network has room or a polled one has a message, resuming
 * where a literal retry loop would have succeeded. Every active message and every
 * Xfer packet the network refuses goes through here, so it is written without a
 * generator (see StepOp); Messaging.sendSteps makes one. Its rounds are a base class
 * of their own (SendRoundsOp), which BlockSendOp extends to retry a refused block packet.
 */
import { BLOCK } from '../kernel/simulation.ts';
import { WAKE_INJECT_LEFT, WAKE_LEFT, type Node, type Op } from '../machine/node.ts';
import type { DataNetwork } from '../network/data-network.ts';
import { LEFT, Packet } from '../network/packet.ts';
import type { MessagingCosts } from '../platform/schema.ts';
import type { PacketHandler } from './handler-table.ts';
import type { OpGuard } from './op-guard.ts';
import type { SendSteps } from './send-steps.ts';
import { END, StepOp, SUB } from './step-op.ts';

/** What a send needs of the node's messaging (messaging.ts). */
export interface SendPath {
  readonly node: Node;
  readonly network: DataNetwork;
  readonly costs: MessagingCosts;
  readonly guard: OpGuard;
  checkMessage(dest: number, handler: PacketHandler, args: readonly number[]): void;
  startInjection(overheadCycles: number): number;
  finishInjection(packet: Packet, injection: number, overheadCycles: number): boolean;
  pollNow(net: number): Op | boolean;
}

// States of a send's rounds: where the next step goes on from. A subclass that goes on
// after the packet is out (BlockSendOp) numbers its own states from SEND_STATES on.
const START = 0; // SendOp's first step: check the message, make the packet
const STEP = 1; // begin step i of the round (or end the round)
const TRY = 2; // synced, offer the packet
const POLL = 3; // synced, poll
const HANDLED = 4; // a generator handler the poll started has ended
const AFTER = 5; // step i done: out, or on to the next step
const STALL = 6; // synced, park until a retry or a poll can succeed
const UNPARK = 7; // woken from the stall
/** The first state number a subclass may use for its own states. */
export const SEND_STATES = 8;

/**
 * The rounds of a send variant's steps for one packet (see the file comment): `sendStep`
 * goes on from `state` until the packet is out (END) or the node must wait. SendOp runs
 * them for one packet; BlockSendOp runs them for each block packet the network refuses
 * at the first try, in place, rather than making a SendOp per refused packet and
 * running it as a nested operation (about one refused packet in two on the 64-node
 * transpose, W1).
 */
export abstract class SendRoundsOp extends StepOp {
  protected readonly m: SendPath;
  protected state = START;
  /** The send's steps, its packet (one for every try: the network keeps only a packet it takes) and its overhead. */
  protected steps: SendSteps = [];
  protected packet: Packet | null = null;
  protected overheadCycles = 0;
  private i = 0;
  private handled = false;
  private sent = false;
  protected injection = 0;
  private parkedAt = 0;
  private stallPeriod = 0;

  constructor(m: SendPath) {
    super(m.guard);
    this.m = m;
  }

  /** Starts a round of the steps at step `first` (state STEP). */
  protected newRound(first: number): void {
    this.i = first;
    this.handled = false;
    this.state = STEP;
  }

  /** Goes on with the rounds from `state` (STEP .. UNPARK): a value to yield, SUB, or END once the packet is out. */
  protected sendStep(): number {
    const m = this.m;
    const node = m.node;
    for (;;) {
      switch (this.state) {
        case STEP:
          if (this.i === this.steps.length) {
            if (this.handled) this.newRound(0);
            else this.state = STALL;
            break;
          }
          this.sent = false;
          if (this.steps[this.i][0] >= 0) {
            this.injection = m.startInjection(this.overheadCycles);
            this.state = TRY;
          } else {
            this.state = POLL;
          }
          break;
        case TRY: {
          if (node.ahead > 0) return node.ahead;
          const packet = this.packet!;
          packet.net = this.steps[this.i][0];
          this.sent = m.finishInjection(packet, this.injection, this.overheadCycles);
          this.state = POLL;
          break;
        }
        case POLL: {
          const pollNet = this.steps[this.i][1];
          this.state = AFTER;
          if (pollNet < 0) break;
          if (node.ahead > 0) {
            this.state = POLL;
            return node.ahead;
          }
          const r = m.pollNow(pollNet);
          if (r === false) break;
          this.handled = true;
          if (r === true) break;
          this.sub = r;
          this.state = HANDLED;
          return SUB;
        }
        case HANDLED:
          m.guard.handlerDepth--;
          this.state = AFTER;
          break;
        case AFTER:
          if (this.sent) {
            // The network has it now, and its receiver may hand it to the machine's spare
            // packets once handled (packet-pool.ts): this send keeps no hold on it.
            this.packet = null;
            return END;
          }
          this.i++;
          this.state = STEP;
          break;
        case STALL: {
          if (node.ahead > 0) return node.ahead;
          if (this.canGoOn()) {
            this.newRound(0);
            break;
          }
          this.parkedAt = node.park(this.wakeMask(), 'a send (network full)');
          this.state = UNPARK;
          return BLOCK;
        }
        case UNPARK:
          node.unpark(this.parkedAt, this.stallPeriod, true);
          this.newRound(0);
          break;
        default:
          throw new Error(`unreachable: send state ${this.state}`);
      }
    }
  }

  /** The stall's wake-up mask, and its period (a retry loop's round) in stallPeriod. */
  private wakeMask(): number {
    const costs = this.m.costs;
    let period = 0;
    let wakeOn = 0;
    for (const [tryNet, pollNet] of this.steps) {
      if (tryNet >= 0) {
        period += costs.sendInjectionCycles;
        wakeOn |= WAKE_INJECT_LEFT << tryNet;
      }
      if (pollNet >= 0) {
        period += costs.pollEmptyCycles;
        wakeOn |= WAKE_LEFT << pollNet;
      }
    }
    this.stallPeriod = period;
    return wakeOn;
  }

  /** Whether a retry or a poll of the round would succeed now. */
  private canGoOn(): boolean {
    const net = this.m.network;
    const self = this.m.node.id;
    for (const step of this.steps) {
      const tryNet = step[0];
      const pollNet = step[1];
      if ((tryNet >= 0 && net.canInject(self, tryNet)) || (pollNet >= 0 && net.waiting(self, pollNet) > 0)) return true;
    }
    return false;
  }
}

/** One packet sent by a send variant's steps; Messaging.sendSteps makes one. */
export class SendOp extends SendRoundsOp {
  protected readonly dest: number;
  private readonly handler: PacketHandler;
  protected readonly args: readonly number[];
  private readonly sizeBytes: number;
  private readonly isChecked: boolean;
  private readonly from: number;

  /**
   * @param isChecked check the message at the first step (a send variant's own call)
   * @param from the step the first round starts at (1 when the caller made the first try)
   * @param packet the packet of the caller's first try, which the network refused (and so
   *   left as it was), or null to make one
   */
  constructor(
    m: SendPath,
    steps: SendSteps,
    dest: number,
    handler: PacketHandler,
    args: readonly number[],
    sizeBytes: number,
    overheadCycles: number,
    isChecked: boolean,
    from: number,
    packet: Packet | null = null,
  ) {
    super(m);
    this.packet = packet;
    this.steps = steps;
    this.dest = dest;
    this.handler = handler;
    this.args = args;
    this.sizeBytes = sizeBytes;
    this.overheadCycles = overheadCycles;
    this.isChecked = isChecked;
    this.from = from;
  }

  protected step(): number {
    if (this.state === START) {
      this.checkFirst();
      this.packet ??= new Packet(this.m.node.id, this.dest, LEFT, this.sizeBytes, this.handler, this.args);
      this.newRound(this.from);
    }
    return this.sendStep();
  }

  /** The checks of the send's first step: the message's, when the send variant's own call. */
  protected checkFirst(): void {
    if (this.isChecked) this.m.checkMessage(this.dest, this.handler, this.args);
  }
}
