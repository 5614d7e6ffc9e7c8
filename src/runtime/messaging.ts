/**
 * How one node sends and receives packets: the send variants' retry-and-poll steps
 * with stalls on a full network, injection with its cycle costs, the poll variants'
 * building blocks, spin-free waiting, and handler dispatch. The Runtime's public
 * calls are thin wrappers over this; it knows the network only through DataNetwork.
 */
import { RunFailure } from '../kernel/errors.ts';
import { WAKE_DATA, WAKE_INJECT_LEFT, WAKE_LEFT, type Node, type Op } from '../machine/node.ts';
import { PERTURB_NODE_CYCLES } from '../machine/machine.ts';
import type { RandomStream } from '../kernel/random-stream.ts';
import type { DataNetwork } from '../network/data-network.ts';
import { LEFT, Packet, RIGHT } from '../network/packet.ts';
import type { MessagingCosts } from '../platform/schema.ts';
import { strataXferPutHandler } from './block-transfer.ts';
import type { Handler, Runtime } from './runtime.ts';

/** Send variants as (network to try, network to poll after the try) steps, -1 for none. */
export type SendSteps = readonly (readonly [number, number])[];
export const SEND_LEFT_POLL_BOTH: SendSteps = [
  [LEFT, LEFT],
  [-1, RIGHT],
];
export const SEND_BOTH_RL_POLL_BOTH: SendSteps = [
  [RIGHT, RIGHT],
  [LEFT, LEFT],
];
export const SEND_BOTH_LR_POLL_BOTH: SendSteps = [
  [LEFT, LEFT],
  [RIGHT, RIGHT],
];
export const SEND_BOTH_RL_POLL_RIGHT: SendSteps = [
  [RIGHT, RIGHT],
  [LEFT, -1],
];
export const SEND_BOTH_LR_POLL_RIGHT: SendSteps = [
  [LEFT, -1],
  [RIGHT, RIGHT],
];


// Xfer packets try both networks without polling: the block loop's pacing step is
// the poll (thesis 6.1.3). Only when both networks refuse does the sender poll and stall.
const XFER_LR_POLL_BOTH: SendSteps = [
  [LEFT, -1],
  [RIGHT, -1],
  [-1, LEFT],
  [-1, RIGHT],
];
const XFER_RL_POLL_BOTH: SendSteps = [
  [RIGHT, -1],
  [LEFT, -1],
  [-1, LEFT],
  [-1, RIGHT],
];
const XFER_LR_POLL_RIGHT: SendSteps = [
  [LEFT, -1],
  [RIGHT, -1],
  [-1, RIGHT],
];
const XFER_RL_POLL_RIGHT: SendSteps = [
  [RIGHT, -1],
  [LEFT, -1],
  [-1, RIGHT],
];

export class Messaging<G> {
  /** How many handlers are running on this node (nested when a handler polls). */
  handlerDepth = 0;
  private readonly rt: Runtime<G>;
  private readonly node: Node;
  private readonly network: DataNetwork;
  private readonly costs: MessagingCosts;
  private readonly self: number;
  private readonly perturbation: RandomStream | null;

  constructor(rt: Runtime<G>) {
    this.rt = rt;
    this.perturbation = rt.machine.perturbation;
    this.node = rt.node;
    this.network = rt.machine.network;
    this.costs = rt.costs;
    this.self = rt.self;
  }

  *sendSteps(
    steps: SendSteps,
    dest: number,
    handler: Handler<G>,
    args: readonly number[],
    sizeBytes: number,
    overheadCycles = this.costs.sendOverheadCycles,
  ): Op {
    for (;;) {
      let handled = false;
      for (const [tryNet, pollNet] of steps) {
        const sent = tryNet >= 0 && (yield* this.inject(dest, tryNet, handler, args, sizeBytes, overheadCycles));
        if (pollNet >= 0 && (yield* this.pollOne(pollNet, true))) handled = true;
        if (sent) return;
      }
      if (!handled) yield* this.stall(steps);
    }
  }

  /** Waits, as a retry loop over `steps` would, until a retry or a poll can succeed. */
  private *stall(steps: SendSteps): Op {
    const net = this.network;
    const self = this.self;
    let period = 0;
    let wakeOn = 0;
    for (const [tryNet, pollNet] of steps) {
      if (tryNet >= 0) {
        period += this.costs.sendInjectionCycles;
        wakeOn |= WAKE_INJECT_LEFT << tryNet;
      }
      if (pollNet >= 0) {
        period += this.costs.pollEmptyCycles;
        wakeOn |= WAKE_LEFT << pollNet;
      }
    }
    const isReady = (): boolean =>
      steps.some(([tryNet, pollNet]) => (tryNet >= 0 && net.canInject(self, tryNet)) || (pollNet >= 0 && net.waiting(self, pollNet) > 0));
    yield* this.node.idle(period, wakeOn, 'a send (network full)', isReady, true);
  }

  /**
   * Tries to send one packet on `net` without polling. The first
   * `sendInjectionCycles` of the send are spent before the network is asked; if it
   * refuses, they count as stall cycles and false is returned, else the rest of the
   * send overhead follows.
   */
  *inject(
    dest: number,
    net: number,
    handler: Handler<G>,
    args: readonly number[],
    sizeBytes: number,
    overheadCycles = this.costs.sendOverheadCycles,
  ): Op<boolean> {
    const node = this.node;
    const injection = Math.min(this.costs.sendInjectionCycles, overheadCycles) + this.jitter();
    node.advance(injection, true);
    while (node.ahead > 0) yield node.ahead;
    if (!this.network.tryInject(new Packet(node.id, dest, net, sizeBytes, handler, args))) {
      node.stallCycles += injection;
      return false;
    }
    node.busyCycles += injection;
    node.charge(Math.max(0, overheadCycles - injection));
    node.packetsSent++;
    node.bytesSent += sizeBytes;
    return true;
  }

  /** Validates an active message before it is sent. */
  checkMessage(dest: number, handler: Handler<G>, args: readonly number[]): void {
    if (!Number.isInteger(dest) || dest < 0 || dest >= this.rt.partitionSize) {
      throw new RunFailure(`node ${this.self}: message to node ${dest}: expected a node number from 0 to ${this.rt.partitionSize - 1}`);
    }
    if (typeof handler !== 'function') {
      throw new RunFailure(`node ${this.self}: message to node ${dest}: the handler is not a function`);
    }
    const max = this.costs.handlerArgWords;
    if (args.length > max) {
      throw new RunFailure(
        `node ${this.self}: message to node ${dest}: ${args.length} argument words, but this platform's active messages carry at most ${max}`,
      );
    }
    for (const w of args) {
      if (!Number.isInteger(w) || w < -0x80000000 || w > 0xffffffff) {
        throw new RunFailure(`node ${this.self}: message to node ${dest}: argument ${w} is not a 32-bit word`);
      }
    }
  }

  /** Extra cycles for a send or a handler dispatch under `sim --perturb` (0 otherwise). */
  private jitter(): number {
    const p = this.perturbation;
    return p === null ? 0 : p.int(PERTURB_NODE_CYCLES + 1);
  }

  /** The body of pollBothUntil (the caller counts it as one operation). */
  *pollUntil(isDone: () => boolean, waitingIn: string): Op {
    const node = this.node;
    const period = 2 * this.costs.pollEmptyCycles;
    while (!isDone()) {
      if ((yield* this.drainBoth()) === 0) {
        yield* node.idle(period, WAKE_DATA, waitingIn, () => this.hasWaitingPacket());
      }
    }
  }

  /**
   * One PollBoth round. Both interfaces are sampled when the round starts: a left
   * poll that finds nothing does not advance global time before the right poll, so a
   * fruitless round is one observation costing 2 x pollEmptyCycles.
   */
  *pollBothRound(): Op<number> {
    const left = yield* this.pollOne(LEFT, true);
    const right = yield* this.pollOne(RIGHT, left);
    return (left ? 1 : 0) + (right ? 1 : 0);
  }

  /** PollBoth rounds until one finds nothing; returns messages handled. */
  *drainBoth(): Op<number> {
    let handled = 0;
    for (;;) {
      const n = yield* this.pollBothRound();
      if (n === 0) return handled;
      handled += n;
    }
  }

  /** Whether a packet waits on either network of this node. */
  private hasWaitingPacket(): boolean {
    return this.waitingPackets(-1) > 0;
  }

  /**
   * Polls `net` once: handles one waiting message (receive overhead plus
   * the handler's own work) or charges a fruitless poll. With `doSync` false the
   * poll samples the interface at the current global time (see pollBothRound).
   */
  *pollOne(net: number, doSync: boolean): Op<boolean> {
    const node = this.node;
    if (doSync) {
      while (node.ahead > 0) yield node.ahead;
    }
    const p = this.network.receive(node.id, net);
    if (p === null) {
      node.chargeSpin(this.costs.pollEmptyCycles);
      return false;
    }
    node.packetsReceived++;
    this.rt.machine.trace?.message?.(p.src, node.id, p.injectedAt, node.time);
    node.charge(this.costs.receiveOverheadCycles + this.jitter());
    yield* this.dispatch(p);
    return true;
  }

  private *dispatch(p: Packet): Op {
    const h = p.handler as Handler<G>;
    this.handlerDepth++;
    const a = p.args;
    let r: void | Op;
    switch (a.length) {
      case 0:
        r = h(this.rt);
        break;
      case 1:
        r = h(this.rt, a[0]);
        break;
      case 2:
        r = h(this.rt, a[0], a[1]);
        break;
      case 3:
        r = h(this.rt, a[0], a[1], a[2]);
        break;
      case 4:
        r = h(this.rt, a[0], a[1], a[2], a[3]);
        break;
      default:
        r = h(this.rt, ...a);
    }
    if (r === undefined) {
      if (this.rt.hasUnstartedOps()) this.rt.failUnstartedOps(`handler ${h.name || '(anonymous)'}`);
      this.handlerDepth--;
      return;
    }
    if (typeof r !== 'object' || r === null || typeof (r as Op).next !== 'function') {
      throw new RunFailure(`node ${this.self}: handler ${h.name || '(anonymous)'} returned a value; handlers return nothing (or are generator functions)`);
    }
    yield* r;
    this.handlerDepth--;
  }

  /**
   * Sends one Xfer packet: a port-and-offset word and data words, with the
   * Xfer handler implied rather than sent (Appendix A 7.1), starting on `firstNet`.
   * DMA packets pass their own handler and launch cost.
   */
  *sendXferPacket(
    proc: number,
    firstNet: number,
    words: readonly number[],
    pollRightOnly: boolean,
    handler: Handler<G> = strataXferPutHandler as Handler<G>,
    overheadCycles = this.costs.xferSendOverheadCycles,
  ): Op {
    const steps = pollRightOnly
      ? firstNet === LEFT
        ? XFER_LR_POLL_RIGHT
        : XFER_RL_POLL_RIGHT
      : firstNet === LEFT
        ? XFER_LR_POLL_BOTH
        : XFER_RL_POLL_BOTH;
    yield* this.sendSteps(steps, proc, handler, words, 4 * words.length, overheadCycles);
  }

  /**
   * Block transfers' polling between packets (thesis 6.1.3): while a packet waits on
   * `nets`, handle it (left first), up to `max`; each check of the interface status
   * is part of a successful receive, and only the final check that finds nothing
   * costs a failed poll. Returns how many it handled.
   */
  *handleWaiting(nets: 'both' | 'right', max: number): Op<number> {
    const node = this.node;
    let handled = 0;
    for (;;) {
      while (node.ahead > 0) yield node.ahead;
      if (handled === max) return handled;
      const net = nets === 'right' || this.network.waiting(node.id, LEFT) === 0 ? RIGHT : LEFT;
      if (!(yield* this.pollOne(net, false))) return handled;
      handled++;
    }
  }

  /** Packets waiting at this node on `net` (-1: both) as of global time. */
  waitingPackets(net: number): number {
    const n = this.network;
    return net === -1 ? n.waiting(this.self, LEFT) + n.waiting(this.self, RIGHT) : n.waiting(this.self, net);
  }
}
