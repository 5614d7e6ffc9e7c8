/**
 * Active messages and polling on one node (Appendix A 6): the send variants'
 * retry-and-poll steps with stalls on a full network, injection with its cycle costs,
 * the poll variants, spin-free waiting, and handler dispatch. It knows the network
 * only through DataNetwork and the rest of the runtime only through the OpGuard (for
 * the handlers it runs) and the targets handlers receive.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { RandomStream } from '../kernel/random-stream.ts';
import { PERTURB_NODE_CYCLES, type TraceSink } from '../machine/machine.ts';
import { type Node, type Op } from '../machine/node.ts';
import type { DataNetwork } from '../network/data-network.ts';
import { LEFT, RIGHT, type Packet } from '../network/packet.ts';
import type { PacketPool } from '../network/packet-pool.ts';
import type { MessagingCosts } from '../platform/schema.ts';
import { arrayFormOf, isEngineHandler, type PacketHandler } from './handler-table.ts';
import { GuardedHandler, type OpGuard } from './op-guard.ts';
import { PollUntilOp } from './poll-until-op.ts';
import { SendOp, type SendPath } from './send-op.ts';
import type { SendSteps } from './send-steps.ts';
import { firstNonWord, notAWord, shownArgument } from './words.ts';

/** A handler as messaging calls it, with the receiving node's Runtime or engines first. */
type Dispatchable = (target: unknown, ...args: number[]) => void | Op;

export class Messaging implements SendPath {
  readonly node: Node;
  private readonly nodes: number;
  readonly network: DataNetwork;
  /** The machine's spare packets and block-packet words (packet-pool.ts). */
  readonly packets: PacketPool;
  readonly costs: MessagingCosts;
  private readonly perturbation: RandomStream | null;
  private readonly trace: TraceSink | null;
  readonly guard: OpGuard;
  /** What app handlers and engine handlers receive first (set once both exist). */
  private appTarget: unknown = null;
  private engineTarget: unknown = null;
  /**
   * What the block-data handlers' array forms receive: the node's port table, their only
   * use of the engines. Handed to them directly: reading it from the engines was one more
   * object, a cache line missed per packet on a 4096-node machine.
   */
  private arrayTarget: unknown = null;

  constructor(node: Node, nodes: number, network: DataNetwork, packets: PacketPool, costs: MessagingCosts, perturbation: RandomStream | null, trace: TraceSink | null, guard: OpGuard) {
    this.node = node;
    this.nodes = nodes;
    this.network = network;
    this.packets = packets;
    this.costs = costs;
    this.perturbation = perturbation;
    this.trace = trace;
    this.guard = guard;
  }

  /** Sets what handlers receive: the app's Runtime, or (engine handlers) the node's engines, or (array forms) its port table. */
  setTargets(app: unknown, engines: unknown, ports: unknown): void {
    this.appTarget = app;
    this.engineTarget = engines;
    this.arrayTarget = ports;
  }

  // ---- sending --------------------------------------------------------------------

  /** A send variant (Appendix A 6.1): checks the message when it starts, then runs `steps` until it is out. */
  send(steps: SendSteps, dest: number, handler: PacketHandler, args: readonly number[]): Op {
    return this.sendSteps(steps, dest, handler, args, 4 * (1 + args.length), this.costs.sendOverheadCycles, true);
  }

  /**
   * Runs a send variant's steps until the packet is out, checking the message first
   * when `isChecked`; the first round starts at step `from` (a caller that made the
   * first try itself passes 1). A state machine, not a generator: see send-op.ts.
   */
  sendSteps(
    steps: SendSteps,
    dest: number,
    handler: PacketHandler,
    args: readonly number[],
    sizeBytes: number,
    overheadCycles: number,
    isChecked = false,
    from = 0,
  ): Op {
    return new SendOp(this, steps, dest, handler, args, sizeBytes, overheadCycles, isChecked, from);
  }

  /**
   * Trying to send one packet without polling: the first `sendInjectionCycles` of the
   * send are spent before the network is asked (the caller then syncs). Returns them.
   */
  startInjection(overheadCycles: number): number {
    const injection = Math.min(this.costs.sendInjectionCycles, overheadCycles) + this.jitter();
    this.node.advance(injection, true);
    return injection;
  }

  /**
   * Offers the packet to the network: if it refuses, the injection cycles count as
   * stall cycles and false is returned, else the rest of the send overhead follows.
   */
  finishInjection(packet: Packet, injection: number, overheadCycles: number): boolean {
    const node = this.node;
    if (!this.network.tryInject(packet)) {
      node.stallCycles += injection;
      return false;
    }
    node.busyCycles += injection;
    node.charge(Math.max(0, overheadCycles - injection));
    node.packetsSent++;
    node.bytesSent += packet.sizeBytes;
    return true;
  }

  /**
   * A packet of `words` from this node to `dest` on `net`, for finishInjection;
   * `wordsArePooled`: the words came from `this.packets.wordsOf` and go back with the packet.
   */
  packet(dest: number, net: number, handler: PacketHandler, words: readonly number[], wordsArePooled = false): Packet {
    return this.packets.packet(this.node.id, dest, net, 4 * words.length, handler, words, wordsArePooled);
  }

  /** Validates an active message before it is sent. */
  checkMessage(dest: number, handler: PacketHandler, args: readonly number[]): void {
    const self = this.node.id;
    if (!Number.isInteger(dest) || dest < 0 || dest >= this.nodes) {
      throw new RunFailure(`node ${self}: message to node ${shownArgument(dest)}: expected a node number from 0 to ${this.nodes - 1}`);
    }
    if (typeof handler !== 'function') {
      throw new RunFailure(`node ${self}: message to node ${dest}: the handler is not a function`);
    }
    const max = this.costs.handlerArgWords;
    if (args.length > max) {
      throw new RunFailure(
        `node ${self}: message to node ${dest}: ${args.length} argument words, but this platform's active messages carry at most ${max}`,
      );
    }
    const bad = firstNonWord(args);
    if (bad >= 0) throw notAWord(`node ${self}: message to node ${dest}: argument`, args[bad]);
  }

  /** Extra cycles for a send or a handler dispatch under `sim --perturb` (0 otherwise). */
  private jitter(): number {
    const p = this.perturbation;
    return p === null ? 0 : p.int(PERTURB_NODE_CYCLES + 1);
  }

  // ---- polling (Appendix A 6.2) -----------------------------------------------------

  /** PollLeftTilEmpty / PollRightTilEmpty: handles `net`'s messages until none is pending. */
  *pollNetTilEmpty(net: number): Op<number> {
    let handled = 0;
    while (yield* this.pollOne(net, true)) handled++;
    return handled;
  }

  /** PollLeftThenBothTilEmpty / PollRightThenBothTilEmpty. */
  *pollThenBoth(first: number): Op<number> {
    if (!(yield* this.pollOne(first, true))) return 0;
    return 1 + (yield* this.drainBoth());
  }

  /** pollBothUntil's body: polls both networks until `isDone()`, idling while nothing arrives (a state machine: poll-until-op.ts). */
  pollUntil(isDone: () => boolean, waitingIn: string): Op {
    // Anything else failed at the first poll as "TypeError: this.condition is not a function".
    if (typeof isDone !== 'function') throw new RunFailure(`node ${this.node.id}: pollBothUntil(${shownArgument(isDone)}): expected a function that returns true when the wait is over`);
    if (typeof waitingIn !== 'string') throw new RunFailure(`node ${this.node.id}: pollBothUntil's label ${shownArgument(waitingIn)}: expected a string naming the wait`);
    return new PollUntilOp(this, isDone, waitingIn);
  }

  /** Cycles of a PollBoth round that finds nothing: both interfaces are sampled at once (see pollBothRound). */
  get emptyRoundCycles(): number {
    return 2 * this.costs.pollEmptyCycles;
  }

  /**
   * One PollBoth round. Both interfaces are sampled when the round starts: a left
   * poll that finds nothing does not advance global time before the right poll, so a
   * fruitless round is one observation costing 2 x pollEmptyCycles.
   */
  *pollBothRound(): Op<number> {
    // pollOne(LEFT, true) then pollOne(RIGHT, left), inline: no generator per poll.
    const node = this.node;
    while (node.ahead > 0) yield node.ahead;
    const left = this.pollNow(LEFT);
    if (left === false) {
      const right = this.pollNow(RIGHT);
      if (right === false) return 0;
      if (right !== true) yield* this.finishHandler(right);
      return 1;
    }
    if (left !== true) yield* this.finishHandler(left);
    while (node.ahead > 0) yield node.ahead;
    const right = this.pollNow(RIGHT);
    if (right === false) return 1;
    if (right !== true) yield* this.finishHandler(right);
    return 2;
  }

  /** PollBoth rounds until one finds nothing (PollBothTilEmpty); returns messages handled (a state machine: poll-until-op.ts). */
  drainBoth(): Op<number> {
    return PollUntilOp.drain(this);
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
    const r = this.pollNow(net);
    if (typeof r === 'boolean') return r;
    yield* this.finishHandler(r);
    return true;
  }

  /** Runs the rest of a generator handler that pollNow started, and ends it. */
  *finishHandler(run: Op): Op {
    yield* run;
    this.guard.handlerDepth--;
  }

  /**
   * The poll itself, without syncing and without a generator (the per-packet path):
   * false when nothing waited (a failed poll is charged), true when a message was
   * handled by a plain handler, or the generator of a generator handler, which the
   * caller runs with `yield* this.finishHandler(r)`.
   */
  pollNow(net: number): Op | boolean {
    const node = this.node;
    const p = this.network.receive(node.id, net);
    if (p === null) {
      node.chargeSpin(this.costs.pollEmptyCycles);
      return false;
    }
    node.packetsReceived++;
    this.trace?.message?.(p.src, node.id, p.injectedAt, node.time);
    node.charge(this.costs.receiveOverheadCycles + this.jitter());
    const g = this.invoke(p);
    if (g !== null) return g;
    // Handled to its end: nothing refers to the packet now (packet-pool.ts).
    this.packets.release(p);
    return true;
  }

  /** Calls the packet's handler; returns its generator (handler still counted as running) or null when it has finished. */
  private invoke(p: Packet): Op | null {
    const handler = p.handler as PacketHandler;
    const h = handler as Dispatchable;
    const guard = this.guard;
    guard.handlerDepth++;
    const a = p.args;
    // The block-data handlers take the port table and the packet's words as one array (see withArrayForm).
    const arrayForm = arrayFormOf(handler);
    if (arrayForm !== undefined) {
      const g = guard.handlerResult(h, arrayForm(this.arrayTarget, a));
      if (g === null) guard.handlerDepth--;
      // An engine's handler: it may yield delays itself.
      return g;
    }
    const target = isEngineHandler(handler) ? this.engineTarget : this.appTarget;
    const r = callSpread(h, target, a);
    const g = guard.handlerResult(h, r);
    if (g === null) {
      guard.handlerDepth--;
      return null;
    }
    // Engine handlers may yield delays themselves; an app's yields are its runtime calls'.
    return target === this.appTarget ? new GuardedHandler(guard, h.name, g) : g;
  }

  /** The network block transfers' pacing polls next: the right only, or the left while it has a packet. */
  pacingNet(rightOnly: boolean): number {
    return rightOnly || this.network.waiting(this.node.id, LEFT) === 0 ? RIGHT : LEFT;
  }

  /** Whether a packet waits at this node on either network, as of global time. */
  hasWaitingPacket(): boolean {
    const self = this.node.id;
    return this.network.waiting(self, LEFT) + this.network.waiting(self, RIGHT) > 0;
  }
}

/** Calls `h` with the target and the words as separate arguments. */
function callSpread(h: Dispatchable, target: unknown, a: readonly number[]): void | Op {
  switch (a.length) {
    case 0:
      return h(target);
    case 1:
      return h(target, a[0]);
    case 2:
      return h(target, a[0], a[1]);
    case 3:
      return h(target, a[0], a[1], a[2]);
    case 4:
      return h(target, a[0], a[1], a[2], a[3]);
    case 5:
      return h(target, a[0], a[1], a[2], a[3], a[4]);
    default:
      return h(target, ...a);
  }
}
