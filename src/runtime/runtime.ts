/**
 * Strata on one node: the object an app's `main` and its message handlers receive.
 * It turns Strata's calls (Appendix A) into cycle charges, injections and polls on
 * the machine, delegating the mechanics to messaging.ts (sends, polls, handler
 * dispatch), block-transfer.ts (ports, Xfer packets, asynchronous transfers) and a
 * GlobalOps engine (barriers, combines). Calls that take time or touch the network
 * are generators, run with `yield*`; the rest are plain methods. The name mapping to
 * Appendix A is in index.ts.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Simulation } from '../kernel/simulation.ts';
import type { Machine } from '../machine/machine.ts';
import type { Node, Op } from '../machine/node.ts';
import { COMBINE_OP_NAMES, CombineOp, isCombineOp, isSegmentType, SegmentType, type ReduceOp } from '../network/combine.ts';
import { LEFT, RIGHT } from '../network/packet.ts';
import type { CpuCosts, MessagingCosts } from '../platform/schema.ts';
import { composite, FLOAT, INT, UINT, type CompositeOp } from './composite.ts';
import { COMBINE, GLOBAL_OR, VECTOR, type Channel, type GlobalOps } from './global-ops.ts';
import { BlockTransfers, strataXferPutHandler, type AbxCompletion, type BlockTransferOptions, type StrataPort } from './block-transfer.ts';
import type { HandlerTable } from './handler-table.ts';
import {
  Messaging,
  SEND_BOTH_LR_POLL_BOTH,
  SEND_BOTH_LR_POLL_RIGHT,
  SEND_BOTH_RL_POLL_BOTH,
  SEND_BOTH_RL_POLL_RIGHT,
  SEND_LEFT_POLL_BOTH,
  type SendSteps,
} from './messaging.ts';
import { ParkMiller } from './park-miller.ts';
import { formatC, type OutputStream, type RunOutput } from './printing.ts';

/**
 * An active-message handler: runs atomically on the receiving node when it polls.
 * A handler that sends or polls must be a generator function and run those calls
 * with `yield*`.
 */
export type Handler<G = unknown> = (rt: Runtime<G>, ...args: number[]) => void | Op;

/** Operation counts for `cost` / `computeOps`; each is multiplied by the platform's CPU table. */
export interface OpCounts {
  intOps?: number;
  floatAdds?: number;
  floatMuls?: number;
  floatDivs?: number;
  loads?: number;
  stores?: number;
  branches?: number;
  calls?: number;
}

const MAX_STATE = 255;

/** Strata's predefined states (Appendix A 10); apps number their own from 8. */
export const State = {
  Idle: 0,
  Busy: 1,
  Logging: 2,
  Qprintf: 3,
  EmptyPrintQ: 4,
  Broadcasting: 5,
  Combine: 6,
  Barrier: 7,
} as const;

/** A writable array of 32-bit words (Int32Array, Uint32Array or number[]). */
export type WordArray = { length: number; [index: number]: number };

const doubleView = new DataView(new ArrayBuffer(8));

function doubleToWords(x: number): number[] {
  doubleView.setFloat64(0, x);
  return [doubleView.getUint32(0), doubleView.getUint32(4)];
}

function wordsToDouble(words: readonly number[]): number {
  doubleView.setUint32(0, words[0] >>> 0);
  doubleView.setUint32(4, words[1] >>> 0);
  return doubleView.getFloat64(0);
}

/** What one Park-Miller step costs (Schrage's method), for `random()`. */
const RANDOM_OPS: OpCounts = { intOps: 5, floatMuls: 2, floatDivs: 2 };

/** setRandomSeed(TIME_BASED_SEED) seeds from the node and its cycle counter (Appendix A 3.6). */
export const TIME_BASED_SEED = -1;

/** A node called StrataFail, failed an assert, or called StrataExit with a non-zero code. */
export class StrataFailure extends RunFailure {
  override name = 'StrataFailure';
}

/** Thrown by StrataExit(0) to leave main early; the runtime catches it. */
export class StrataExitSignal {
  readonly node: number;

  constructor(node: number) {
    this.node = node;
  }
}

export class Runtime<G = unknown> {
  /**
   * This node's own variables, made by the app's `globals()` (C Strata programs keep
   * these in global variables, one copy per node). Handlers reach the receiving
   * node's copy through their `rt`.
   */
  readonly globals: G;
  /** This node's number (Strata's `Self`). */
  readonly self: number;
  /** Number of nodes (Strata's `PartitionSize`). */
  readonly partitionSize: number;
  /** ceil(log2(partitionSize)) (Strata's `logPartitionSize`). */
  readonly logP: number;
  /** Mask for legal node bits, 2^logP - 1 (Strata's `PartitionMask`). */
  readonly partitionMask: number;
  /** Strata's `StrataVersion`: the manual this runtime follows, and that it is simulated. */
  readonly strataVersion = 'Strata 2.0 (Appendix A), simulated';

  /** @internal the node this runtime drives */
  readonly node: Node;
  /** @internal */
  readonly machine: Machine;
  /** @internal */
  readonly sim: Simulation;
  /** @internal the platform's messaging costs */
  readonly costs: MessagingCosts;
  private readonly cpu: CpuCosts;
  private readonly global: GlobalOps;
  private readonly rng: ParkMiller;
  private readonly handlerTable: HandlerTable;
  private readonly transfers: BlockTransfers;
  /** @internal Sending and receiving packets for this node. */
  readonly messaging: Messaging<G>;
  private readonly output: RunOutput;
  /** Qprintf output not yet flushed. */
  private readonly printQueue: { stream: OutputStream; text: string }[] = [];
  private state = 0;
  private recordingStates = true;
  private cycleBase = 0;
  private segment: SegmentType = SegmentType.NoBoundary;
  /** Where completeCombineVector writes. */
  private pendingVector: WordArray | null = null;
  /** Operations created but not yet run; catches a missing `yield*`. */
  private unstartedOps = 0;

  constructor(machine: Machine, node: Node, global: GlobalOps, globals: G, handlerTable: HandlerTable, output: RunOutput) {
    this.globals = globals;
    this.output = output;
    this.handlerTable = handlerTable;
    this.transfers = new BlockTransfers({
      bandwidthMatching: true,
      delayCycles: machine.platform.messaging.bandwidthMatchDelayCycles,
      poll: 'empty', // Strata's released default (thesis 6.1.3)
    }, machine.sim.stream(`node/${node.id}/transfer-order`));
    this.machine = machine;
    this.node = node;
    this.sim = machine.sim;
    this.global = global;
    this.self = node.id;
    this.partitionSize = machine.size;
    this.logP = Math.ceil(Math.log2(machine.size));
    this.partitionMask = 2 ** this.logP - 1;
    this.costs = machine.platform.messaging;
    this.cpu = machine.platform.cpu;
    this.rng = new ParkMiller(node.id + 1);
    this.messaging = new Messaging(this);
  }

  // ---- computation -------------------------------------------------------------

  /** Charges `cycles` (a non-negative integer) of local computation. */
  compute(cycles: number): void {
    if (!(cycles >= 0) || cycles !== Math.floor(cycles)) {
      throw new RunFailure(`node ${this.self}: compute(${cycles}): expected a non-negative integer number of cycles`);
    }
    this.node.charge(cycles);
  }

  /** Cycles the given operation counts cost on this platform, rounded to an integer. */
  cost(ops: OpCounts): number {
    const c = this.cpu;
    return Math.round(
      (ops.intOps ?? 0) * c.intOpCycles +
        (ops.floatAdds ?? 0) * c.floatAddCycles +
        (ops.floatMuls ?? 0) * c.floatMulCycles +
        (ops.floatDivs ?? 0) * c.floatDivCycles +
        (ops.loads ?? 0) * c.loadCycles +
        (ops.stores ?? 0) * c.storeCycles +
        (ops.branches ?? 0) * c.branchCycles +
        (ops.calls ?? 0) * c.callCycles,
    );
  }

  /** Charges the cost of the given operation counts. */
  computeOps(ops: OpCounts): void {
    this.node.charge(this.cost(ops));
  }

  // ---- active messages (Appendix A 6.1) ------------------------------------------

  /** Sends on the left network, polling the left after each try and the right between tries. */
  sendLeftPollBoth(dest: number, handler: Handler<G>, ...args: number[]): Op {
    this.unstartedOps++;
    return this.send(SEND_LEFT_POLL_BOTH, dest, handler, args);
  }

  /** Tries right then left, polling the network just tried. */
  sendBothRLPollBoth(dest: number, handler: Handler<G>, ...args: number[]): Op {
    this.unstartedOps++;
    return this.send(SEND_BOTH_RL_POLL_BOTH, dest, handler, args);
  }

  /** Tries left then right, polling the network just tried. */
  sendBothLRPollBoth(dest: number, handler: Handler<G>, ...args: number[]): Op {
    this.unstartedOps++;
    return this.send(SEND_BOTH_LR_POLL_BOTH, dest, handler, args);
  }

  /** Tries right (then polls right), then left without polling. */
  sendBothRLPollRight(dest: number, handler: Handler<G>, ...args: number[]): Op {
    this.unstartedOps++;
    return this.send(SEND_BOTH_RL_POLL_RIGHT, dest, handler, args);
  }

  /** Tries left without polling, then right (then polls right). */
  sendBothLRPollRight(dest: number, handler: Handler<G>, ...args: number[]): Op {
    this.unstartedOps++;
    return this.send(SEND_BOTH_LR_POLL_RIGHT, dest, handler, args);
  }

  /**
   * Runs a send variant's steps until the packet is out (Appendix A 6.1). When a
   * whole round of steps finds every tried network full and every polled network
   * empty, the node stalls: it sleeps until a tried network has room or a polled one
   * has a message, resuming where a literal retry loop would have succeeded.
   */
  private *send(steps: SendSteps, dest: number, handler: Handler<G>, args: number[]): Op {
    this.opStarted();
    this.messaging.checkMessage(dest, handler, args);
    yield* this.messaging.sendSteps(steps, dest, handler, args, 4 * (1 + args.length));
  }

  // ---- polling (Appendix A 6.2) --------------------------------------------------

  /** Handles at most one message from the left network. */
  pollLeft(): Op<boolean> {
    this.unstartedOps++;
    return this.pollOnce(LEFT);
  }

  /** Handles at most one message from the right network. */
  pollRight(): Op<boolean> {
    this.unstartedOps++;
    return this.pollOnce(RIGHT);
  }

  /** PollLeft then PollRight. Returns how many messages it handled. */
  pollBoth(): Op<number> {
    this.unstartedOps++;
    return this.pollRounds(false);
  }

  /** Handles left-network messages until none is pending. Returns how many it handled. */
  pollLeftTilEmpty(): Op<number> {
    this.unstartedOps++;
    return this.pollNetTilEmpty(LEFT);
  }

  /** Handles right-network messages until none is pending. Returns how many it handled. */
  pollRightTilEmpty(): Op<number> {
    this.unstartedOps++;
    return this.pollNetTilEmpty(RIGHT);
  }

  /** Handles messages from both networks until neither has one pending. Returns how many. */
  pollBothTilEmpty(): Op<number> {
    this.unstartedOps++;
    return this.pollRounds(true);
  }

  /** Polls the left network once; if it had a message, polls both until empty. */
  pollLeftThenBothTilEmpty(): Op<number> {
    this.unstartedOps++;
    return this.pollThenBoth(LEFT);
  }

  /** Polls the right network once; if it had a message, polls both until empty. */
  pollRightThenBothTilEmpty(): Op<number> {
    this.unstartedOps++;
    return this.pollThenBoth(RIGHT);
  }

  /**
   * Polls both networks until `isDone()` holds; equivalent to
   * `while (!isDone()) yield* rt.pollBothTilEmpty()` but simulated without an event
   * per fruitless iteration. `isDone` may depend only on state this node's handlers
   * change (not on time), or the node waits for the next message to re-check it.
   * (An extension of Strata for efficient simulation.)
   */
  pollBothUntil(isDone: () => boolean, waitingIn = 'pollBothUntil'): Op {
    this.unstartedOps++;
    return this.pollUntil(isDone, waitingIn);
  }

  private *pollOnce(net: number): Op<boolean> {
    this.opStarted();
    return yield* this.messaging.pollOne(net, true);
  }

  private *pollNetTilEmpty(net: number): Op<number> {
    this.opStarted();
    let handled = 0;
    while (yield* this.messaging.pollOne(net, true)) handled++;
    return handled;
  }

  private *pollThenBoth(first: number): Op<number> {
    this.opStarted();
    if (!(yield* this.messaging.pollOne(first, true))) return 0;
    return 1 + (yield* this.messaging.drainBoth());
  }

  private *pollRounds(untilEmpty: boolean): Op<number> {
    this.opStarted();
    return untilEmpty ? yield* this.messaging.drainBoth() : yield* this.messaging.pollBothRound();
  }

  /** @internal The body of pollBothUntil, for runtime code that counts it as one operation. */
  *pollUntil(isDone: () => boolean, waitingIn: string): Op {
    this.opStarted();
    yield* this.messaging.pollUntil(isDone, waitingIn);
  }

  // ---- block transfers (Appendix A 7) --------------------------------------------

  /** Entry `n` of this node's StrataPortTable (0..4095). */
  port(n: number): StrataPort {
    return this.transfers.port(n);
  }

  /** How this node's block transfers pace themselves (bandwidth matching, thesis 6.1.3). */
  get blockTransferOptions(): BlockTransferOptions {
    return this.transfers.options;
  }

  set blockTransferOptions(options: BlockTransferOptions) {
    if (!Number.isInteger(options.delayCycles) || options.delayCycles < 0) {
      throw new RunFailure(`node ${this.self}: bandwidth-matching delay ${options.delayCycles}: expected a non-negative integer`);
    }
    this.transfers.options = { ...options };
  }

  /** Sends `size` words of `buffer` to `port` at `proc` (at `offset` words), on both networks, polling both. */
  sendBlockXferPollBoth(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size = buffer.length): Op {
    this.unstartedOps++;
    return this.blockXfer(proc, port, offset, buffer, size, false);
  }

  /** The same, polling only the right network. */
  sendBlockXferPollRight(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size = buffer.length): Op {
    this.unstartedOps++;
    return this.blockXfer(proc, port, offset, buffer, size, true);
  }

  private *blockXfer(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, pollRightOnly: boolean): Op {
    this.opStarted();
    this.messaging.checkMessage(proc, strataXferPutHandler as Handler<G>, []);
    yield* this.transfers.send(this as Runtime, proc, port, offset, buffer, size, pollRightOnly);
  }

  /**
   * SendXferBothRLPollBoth (Appendix A 7.2): one Xfer packet of up to packetWords - 1
   * data words for the port and offset packed in `portAndOffset`, sent like
   * SendBothRLPollBoth. The receiver stores and counts the words as for block data.
   */
  sendXferBothRLPollBoth(proc: number, portAndOffset: number, ...data: number[]): Op {
    this.unstartedOps++;
    return this.xfer(SEND_BOTH_RL_POLL_BOTH, proc, portAndOffset, data);
  }

  /** The same, trying the left network first. */
  sendXferBothLRPollBoth(proc: number, portAndOffset: number, ...data: number[]): Op {
    this.unstartedOps++;
    return this.xfer(SEND_BOTH_LR_POLL_BOTH, proc, portAndOffset, data);
  }

  /** The same, polling only the right network (as SendBothRLPollRight). */
  sendXferBothRLPollRight(proc: number, portAndOffset: number, ...data: number[]): Op {
    this.unstartedOps++;
    return this.xfer(SEND_BOTH_RL_POLL_RIGHT, proc, portAndOffset, data);
  }

  /** The same, trying left (no poll) then right (polling right). */
  sendXferBothLRPollRight(proc: number, portAndOffset: number, ...data: number[]): Op {
    this.unstartedOps++;
    return this.xfer(SEND_BOTH_LR_POLL_RIGHT, proc, portAndOffset, data);
  }

  private *xfer(steps: SendSteps, proc: number, portAndOffset: number, data: number[]): Op {
    this.opStarted();
    const max = this.costs.packetWords - 1;
    if (data.length < 1 || data.length > max) {
      throw new RunFailure(`node ${this.self}: an Xfer packet of ${data.length} data words: expected 1 to ${max}`);
    }
    const words = [portAndOffset, ...data];
    this.messaging.checkMessage(proc, strataXferPutHandler as Handler<G>, []);
    for (const w of words) {
      if (!Number.isInteger(w) || w < -0x80000000 || w > 0xffffffff) throw new RunFailure(`node ${this.self}: Xfer word ${w} is not a 32-bit word`);
    }
    yield* this.messaging.sendSteps(steps, proc, strataXferPutHandler as Handler<G>, words, 4 * words.length, this.costs.xferSendOverheadCycles);
  }

  // ---- asynchronous block transfers (Appendix A 8) ---------------------------------

  /**
   * Queues a transfer of `size` words of `buffer` to `port` at `proc`; nothing is sent
   * until serviceAllTransfers or completeTransfer. `complete` runs here when the last
   * word has been sent. Returns the transfer's id.
   */
  asyncBlockXfer(
    proc: number,
    port: number,
    offset: number,
    buffer: ArrayLike<number>,
    size = buffer.length,
    complete: AbxCompletion<G> | null = null,
  ): number {
    this.messaging.checkMessage(proc, strataXferPutHandler as Handler<G>, []);
    return this.transfers.queue(this as Runtime, proc, port, offset, buffer, size, complete as AbxCompletion | null);
  }

  /** Sends two packets of every pending transfer per round, interleaved; `rounds` -1 sends everything. */
  serviceAllTransfers(rounds: number): Op {
    if (!Number.isInteger(rounds) || rounds < -1) {
      throw new RunFailure(`node ${this.self}: serviceAllTransfers(${rounds}): expected a number of rounds, or -1 for all`);
    }
    this.unstartedOps++;
    return this.serviceBody(rounds);
  }

  private *serviceBody(rounds: number): Op {
    this.opStarted();
    yield* this.transfers.serviceAll(this as Runtime, rounds);
  }

  /** Sends the rest of transfer `id` now. */
  completeTransfer(id: number): Op {
    this.transfers.find(this as Runtime, id);
    this.unstartedOps++;
    return this.completeBody(id);
  }

  private *completeBody(id: number): Op {
    this.opStarted();
    yield* this.transfers.completeOne(this as Runtime, id);
  }

  /** GetABXproc / GetABXport / GetABXoffset / GetABXbuffer / GetABXremaining. */
  getAbxProc(id: number): number {
    return this.transfers.find(this as Runtime, id).proc;
  }

  getAbxPort(id: number): number {
    return this.transfers.find(this as Runtime, id).port;
  }

  getAbxOffset(id: number): number {
    return this.transfers.find(this as Runtime, id).offset;
  }

  getAbxBuffer(id: number): ArrayLike<number> {
    return this.transfers.find(this as Runtime, id).buffer;
  }

  getAbxRemaining(id: number): number {
    return this.transfers.find(this as Runtime, id).remaining;
  }

  /** The word that names `handler` in a message (C Strata passes handler addresses). */
  handlerWord(handler: Handler<G> | ((rt: Runtime<G>, port: number) => void | Op) | null): number {
    return this.handlerTable.wordOf(handler);
  }

  /** The handler a word names (null for 0). */
  handlerOf(word: number): unknown {
    return this.handlerTable.handlerOf(word);
  }

  // ---- global operations (Appendix A 4) ------------------------------------------

  /** Tells the others this node reached the barrier (split-phase). */
  startBarrier(): Op {
    return this.globalStart(GLOBAL_OR, CombineOp.ReduceOr, [0], SegmentType.NoBoundary, 'startBarrier');
  }

  /** Whether the last barrier (or global OR) has completed. */
  queryBarrier(): Op<boolean> {
    this.unstartedOps++;
    return this.global.query(this, GLOBAL_OR);
  }

  /** Waits until the last barrier has completed. */
  completeBarrier(): Op {
    this.unstartedOps++;
    return this.completeBarrierBody();
  }

  private *completeBarrierBody(): Op {
    this.opStarted();
    yield* this.completeGlobal(GLOBAL_OR, 'completeBarrier');
  }

  /** Returns when every node has reached the barrier; the same as globalOR(false). */
  barrier(): Op {
    this.unstartedOps++;
    return this.barrierBody();
  }

  private *barrierBody(): Op {
    this.opStarted();
    yield* this.startBarrier();
    yield* this.completeBarrier();
  }

  /** Returns the OR of every node's `notDone` (Appendix A 4.2). */
  globalOR(notDone: boolean): Op<boolean> {
    this.unstartedOps++;
    return this.globalOrBody(notDone);
  }

  private *globalOrBody(notDone: boolean): Op<boolean> {
    this.opStarted();
    yield* this.startGlobalOR(notDone);
    return yield* this.completeGlobalOR();
  }

  /** Starts a global OR and returns at once (split-phase). */
  startGlobalOR(notDone: boolean): Op {
    return this.globalStart(GLOBAL_OR, CombineOp.ReduceOr, [notDone ? 1 : 0], SegmentType.NoBoundary, `startGlobalOR(${notDone})`);
  }

  /** Whether the last global OR has completed. */
  queryGlobalOR(): Op<boolean> {
    return this.queryBarrier();
  }

  /** Waits for the last global OR and returns its result. */
  completeGlobalOR(): Op<boolean> {
    this.unstartedOps++;
    return this.completeGlobalOrBody();
  }

  private *completeGlobalOrBody(): Op<boolean> {
    this.opStarted();
    return (yield* this.completeGlobal(GLOBAL_OR, 'completeGlobalOR'))[0] !== 0;
  }

  /**
   * Sets this node's contribution to the asynchronous global OR (initially true on
   * every node). On the CM-5 the network sees it after the global-OR latency; on the
   * other platforms it travels as a message and others see the OR change as they poll.
   */
  setAsyncGlobalOR(notDone: boolean): Op {
    this.unstartedOps++;
    return this.global.setAsyncOr(this, notDone);
  }

  /** Whether at least one node's asynchronous-global-OR bit is set, as this node sees it now. */
  getAsyncGlobalOR(): Op<boolean> {
    this.unstartedOps++;
    return this.global.asyncOr(this);
  }

  /** Sets this node's segment boundary for the scans that start after it (Appendix A 4.3.1). */
  setSegment(boundary: SegmentType): void {
    if (!isSegmentType(boundary)) {
      throw new RunFailure(`node ${this.self}: setSegment(${boundary}): expected NoBoundary (0), ElementBoundary (1) or ArrayBoundary (2)`);
    }
    this.segment = boundary;
  }

  /** This node's current segment boundary. */
  currentSegment(): SegmentType {
    return this.segment;
  }

  /** Starts a combine: every node contributes `value`; `op` says what comes back (split-phase). */
  startCombineInt(value: number, op: CombineOp): Op {
    this.checkCombine([value], op, 'combine');
    return this.globalStart(COMBINE, op, [value], this.segment, `startCombineInt(${value}, ${COMBINE_OP_NAMES[op]})`);
  }

  /** Whether the last combine has completed. */
  queryCombineInt(): Op<boolean> {
    this.unstartedOps++;
    return this.global.query(this, COMBINE);
  }

  /** Waits for the last combine and returns this node's result. */
  completeCombineInt(): Op<number> {
    this.unstartedOps++;
    return this.completeCombineIntBody();
  }

  private *completeCombineIntBody(): Op<number> {
    this.opStarted();
    return (yield* this.completeGlobal(COMBINE, 'completeCombineInt'))[0];
  }

  /**
   * Combine in one call: scans get the combination of lower (BackScan: higher) nodes'
   * values within the current segment, reductions all values.
   */
  combineInt(value: number, op: CombineOp): Op<number> {
    this.checkCombine([value], op, 'combine');
    this.unstartedOps++;
    return this.combineIntBody(value, op);
  }

  private *combineIntBody(value: number, op: CombineOp): Op<number> {
    this.opStarted();
    yield* this.startCombineInt(value, op);
    return yield* this.completeCombineInt();
  }

  /**
   * Combines the first `count` elements of `from` element-wise across the nodes and
   * writes the results to `to` (which may be `from`), using the current segments.
   */
  combineVector(to: WordArray, from: ArrayLike<number>, op: CombineOp, count = from.length): Op {
    this.checkVector(to, from, count, 'combineVector');
    this.checkCombine(Array.from({ length: count }, (_, i) => from[i]), op, 'vector combine');
    this.unstartedOps++;
    return this.combineVectorBody(to, from, op, count);
  }

  private *combineVectorBody(to: WordArray, from: ArrayLike<number>, op: CombineOp, count: number): Op {
    this.opStarted();
    yield* this.startCombineVector(to, from, op, count);
    yield* this.completeCombineVector();
  }

  /** Starts a vector combine (split-phase); completeCombineVector fills `to`. */
  startCombineVector(to: WordArray, from: ArrayLike<number>, op: CombineOp, count = from.length): Op {
    this.checkVector(to, from, count, 'startCombineVector');
    const words = Array.from({ length: count }, (_, i) => from[i]);
    this.checkCombine(words, op, 'vector combine');
    this.pendingVector = to;
    return this.globalStart(VECTOR, op, words, this.segment, `startCombineVector(${count} elements, ${COMBINE_OP_NAMES[op]})`);
  }

  /** Waits for the pending vector combine and writes its results (there is no queryCombineVector). */
  completeCombineVector(): Op {
    const to = this.pendingVector;
    if (to === null) throw new RunFailure(`node ${this.self}: completeCombineVector without a vector combine in progress`);
    this.unstartedOps++;
    return this.completeVectorBody(to);
  }

  private *completeVectorBody(to: WordArray): Op {
    this.opStarted();
    const result = yield* this.completeGlobal(VECTOR, 'completeCombineVector');
    for (let i = 0; i < result.length; i++) to[i] = result[i];
    this.pendingVector = null;
  }

  private globalStart(ch: Channel, op: ReduceOp, words: readonly number[], segment: SegmentType, what: string): Op {
    this.logGlobal(what);
    this.unstartedOps++;
    return this.global.start(this, ch, op, words, segment);
  }

  /** Waits for `ch` inside an operation body, logging the wait when the run logs global operations. */
  private *completeGlobal(ch: Channel, what: string): Op<readonly number[]> {
    this.logGlobal(`${what}: waiting`);
    const previous = this.enterState(ch === GLOBAL_OR ? State.Barrier : State.Combine);
    this.unstartedOps++;
    const result = yield* this.global.complete(this, ch, what);
    this.leaveState(previous);
    this.logGlobal(`${what}: done`);
    return result;
  }

  /** @internal Reduces `words` element-wise across all nodes on the combine channel (for composite reductions). */
  reduceWords(op: ReduceOp, words: readonly number[]): Op<readonly number[]> {
    this.unstartedOps++;
    return this.reduceWordsBody(op, words);
  }

  private *reduceWordsBody(op: ReduceOp, words: readonly number[]): Op<readonly number[]> {
    this.opStarted();
    yield* this.globalStart(COMBINE, op, words, SegmentType.NoBoundary, `composite reduction step (${COMBINE_OP_NAMES[op]})`);
    return yield* this.completeGlobal(COMBINE, 'composite reduction step');
  }

  private checkCombine(words: readonly number[], op: number, what: string): void {
    if (!isCombineOp(op)) throw new RunFailure(`node ${this.self}: ${what} op ${op} is not one of the fifteen CombineOps`);
    for (const w of words) {
      if (!Number.isInteger(w) || w < -0x80000000 || w > 0xffffffff) {
        throw new RunFailure(`node ${this.self}: ${what} value ${w} is not a 32-bit word`);
      }
    }
  }

  private checkVector(to: WordArray, from: ArrayLike<number>, count: number, what: string): void {
    if (!Number.isInteger(count) || count < 1 || count > from.length || count > to.length) {
      throw new RunFailure(
        `node ${this.self}: ${what}(${count} elements): expected 1 to ${Math.min(from.length, to.length)} (the arrays' lengths)`,
      );
    }
  }

  // ---- composite reductions (Appendix A 5) -----------------------------------------

  /** Min, Max, Average, Variance or Median of one signed integer per node. */
  compositeInt(value: number, op: CompositeOp): Op<number> {
    this.unstartedOps++;
    return this.compositeBody(INT, value, op);
  }

  /** The same for unsigned integers. */
  compositeUint(value: number, op: CompositeOp): Op<number> {
    this.unstartedOps++;
    return this.compositeBody(UINT, value, op);
  }

  /** The same for single-precision floats. */
  compositeFloat(value: number, op: CompositeOp): Op<number> {
    this.unstartedOps++;
    return this.compositeBody(FLOAT, value, op);
  }

  private *compositeBody(type: typeof INT, value: number, op: CompositeOp): Op<number> {
    this.opStarted();
    return yield* composite(this as Runtime, type, value, op);
  }

  // ---- broadcasts (Appendix A 4.4) -------------------------------------------------

  /** Sends one word to every other node; they call receiveBroadcast. */
  broadcast(value: number): Op {
    this.checkCombine([value], CombineOp.ReduceOr, 'broadcast');
    this.logGlobal(`broadcast(${value})`);
    this.unstartedOps++;
    return this.global.broadcast(this, [value]);
  }

  /** Whether this node's last broadcast has completed (on the data-network platforms: has been sent). */
  queryBroadcast(): Op<boolean> {
    this.unstartedOps++;
    return this.global.queryBroadcast(this);
  }

  /** Waits for another node's broadcast word. */
  receiveBroadcast(): Op<number> {
    this.unstartedOps++;
    return this.receiveWordsBody(1, 'receiveBroadcast', (w) => w[0] | 0);
  }

  /** Sends a double (two words) to every other node. */
  broadcastDouble(value: number): Op {
    if (typeof value !== 'number') throw new RunFailure(`node ${this.self}: broadcastDouble(${String(value)}): expected a number`);
    this.logGlobal(`broadcastDouble(${value})`);
    this.unstartedOps++;
    return this.global.broadcast(this, doubleToWords(value));
  }

  /** Waits for another node's broadcast double. */
  receiveBroadcastDouble(): Op<number> {
    this.unstartedOps++;
    return this.receiveWordsBody(2, 'receiveBroadcastDouble', wordsToDouble);
  }

  /** Sends the first `count` words of `from` to every other node, and copies them to `to` here. */
  broadcastVector(to: WordArray, from: ArrayLike<number>, count = from.length): Op {
    this.checkVector(to, from, count, 'broadcastVector');
    const words = Array.from({ length: count }, (_, i) => from[i]);
    this.checkCombine(words, CombineOp.ReduceOr, 'broadcast');
    for (let i = 0; i < count; i++) to[i] = words[i];
    this.logGlobal(`broadcastVector(${count} words)`);
    this.unstartedOps++;
    return this.global.broadcast(this, words);
  }

  /** Waits for another node's vector broadcast of `count` words and writes it to `to`. */
  receiveBroadcastVector(to: WordArray, count = to.length): Op {
    this.checkVector(to, to, count, 'receiveBroadcastVector');
    this.unstartedOps++;
    return this.receiveWordsBody(count, 'receiveBroadcastVector', (w) => {
      for (let i = 0; i < count; i++) to[i] = w[i];
    });
  }

  private *receiveWordsBody<T>(count: number, what: string, take: (words: readonly number[]) => T): Op<T> {
    this.opStarted();
    this.logGlobal(`${what}: waiting`);
    const previous = this.enterState(State.Broadcasting);
    this.unstartedOps++;
    const words = yield* this.global.receiveBroadcast(this, what);
    this.leaveState(previous);
    this.logGlobal(`${what}: done`);
    if (words.length !== count) {
      throw new RunFailure(`node ${this.self}: ${what} expected ${count} words but the broadcast carried ${words.length}`);
    }
    this.node.charge(this.cost({ loads: count }));
    return take(words);
  }

  // ---- basics, assertions, exit (Appendix A 3.5, 9.2) -----------------------------

  /** Stops the whole run with a failure naming this node, its cycle and `message` (StrataFail). */
  strataFail(message: string): never {
    throw new StrataFailure(`node ${this.self} at cycle ${this.node.time}: StrataFail: ${message}`);
  }

  /** Calls strataFail when `condition` is false (Strata's assert). */
  assert(condition: unknown, message = 'assertion failed'): void {
    if (!condition) this.strataFail(message);
  }

  /**
   * StrataExit: with 0, this node leaves main now and serves messages until every
   * node has exited (its result is undefined); any other code ends the whole run as
   * a failure.
   */
  strataExit(code: number): never {
    if (code !== 0) throw new StrataFailure(`node ${this.self} at cycle ${this.node.time}: StrataExit(${code})`);
    throw new StrataExitSignal(this.self);
  }

  /**
   * Zeroes the first `lengthBytes` bytes (whole words) of `region`, charging the
   * platform's ClearMemory cost: start + length x per-byte cycles (thesis Fig. 6-6).
   */
  clearMemory(region: Uint32Array | Int32Array | number[], lengthBytes: number): void {
    if (!Number.isInteger(lengthBytes) || lengthBytes < 0 || Math.ceil(lengthBytes / 4) > region.length) {
      this.strataFail(`clearMemory(${lengthBytes} bytes): expected 0 to ${region.length * 4} bytes for this region`);
    }
    region.fill(0, 0, Math.ceil(lengthBytes / 4));
    this.node.charge(Math.round(this.cpu.clearMemoryStartCycles + lengthBytes * this.cpu.clearMemoryCyclesPerByte));
  }

  // ---- printing and logging (Appendix A 9.1, 9.3) --------------------------------

  /**
   * Queues printf-style output for stdout; safe anywhere, including handlers, as it
   * neither polls nor takes simulated time beyond formatting. Returns its length.
   */
  qprintf(format: string, ...args: unknown[]): number {
    return this.qfprintf('stdout', format, ...args);
  }

  /** Queues printf-style output for `stream` ('stdout' or 'stderr'). */
  qfprintf(stream: OutputStream, format: string, ...args: unknown[]): number {
    if (stream !== 'stdout' && stream !== 'stderr') {
      throw new RunFailure(`node ${this.self}: qfprintf to ${String(stream)}: expected 'stdout' or 'stderr'`);
    }
    const text = formatC(format, ...args);
    this.printQueue.push({ stream, text });
    const previous = this.enterState(State.Qprintf);
    this.node.charge(this.cost({ calls: 1, stores: Math.ceil(text.length / 4) }));
    this.leaveState(previous);
    this.logGlobal(`qprintf: ${text}`);
    return text.length;
  }

  /** Outputs the queued messages, then polls; returns how many there were. Not for handlers. */
  emptyPrintQ(): Op<number> {
    this.unstartedOps++;
    return this.emptyPrintQBody();
  }

  private *emptyPrintQBody(): Op<number> {
    const queued = this.printQueue.length;
    const previous = this.enterState(State.EmptyPrintQ);
    this.opStarted(); // flushes the queue
    this.flushPrints();
    yield* this.pollBothTilEmpty();
    this.leaveState(previous);
    return queued;
  }

  /** Writes the queued output to the run's output; returns how many messages it wrote. */
  private flushPrints(): number {
    const queued = this.printQueue.length;
    for (const { stream, text } of this.printQueue) this.output.print(stream, text);
    this.printQueue.length = 0;
    this.node.charge(this.cost({ calls: queued }));
    return queued;
  }

  /**
   * Adds a printf-style entry to the run's log, prefixed with this node and its cycle
   * (StrataLog). Allowed anywhere; expensive, as in Strata: ten calls' worth of cycles
   * plus a store per word of text.
   */
  strataLog(format: string, ...args: unknown[]): void {
    const text = formatC(format, ...args);
    this.output.log(this.self, this.node.time, text);
    const previous = this.enterState(State.Logging);
    this.node.charge(this.cost({ calls: 10, stores: Math.ceil(text.length / 4) }));
    this.leaveState(previous);
  }

  /** Logs the progress of a global operation when the run logs them (free: an observation). */
  private logGlobal(text: string): void {
    if (this.output.logsGlobalOps) this.output.log(this.self, this.node.time, text);
  }

  // ---- timing (Appendix A 9.4) ---------------------------------------------------

  /** The node's 32-bit cycle counter. */
  cycleCount(): number {
    return this.node.time >>> 0;
  }

  /** Cycles since `start` (a cycleCount value), modulo 2^32; adjacent calls give 0. */
  elapsedCycles(start: number): number {
    return ((this.node.time >>> 0) - start) >>> 0;
  }

  /** Cycles since initialization or the last cycle reset, modulo 2^32. */
  currentCycle(): number {
    return (this.node.time - this.cycleBase) >>> 0;
  }

  /** Cycles since initialization, full precision. */
  currentCycle64(): number {
    return this.node.time;
  }

  /** Makes currentCycle count from now; a synchronous operation every node must call (a barrier). */
  resetCurrentCycle(): Op {
    this.unstartedOps++;
    return this.resetBody();
  }

  private *resetBody(): Op {
    this.opStarted();
    yield* this.barrier();
    this.cycleBase = this.node.time;
  }

  /** Seconds taken by `cycles` at this platform's clock. */
  cyclesToSeconds(cycles: number): number {
    return cycles / (this.machine.platform.clockMHz * 1e6);
  }

  // ---- random numbers (Appendix A 3.6) -------------------------------------------

  /**
   * Next value of this node's Park-Miller generator, in [1, 2^31 - 2]; the default seed
   * is self + 1. Costs what Schrage's method does: two multiplies and two divides (at
   * the platform's multiply and divide costs) and five integer operations.
   */
  random(): number {
    this.node.charge(this.cost(RANDOM_OPS));
    return this.rng.next();
  }

  /**
   * Reseeds this node's generator; returns the seed actually used. TIME_BASED_SEED
   * derives a seed from this node's number and cycle counter and, so that runs stay
   * repeatable, the run seed (Appendix A 3.6 uses the time of day).
   */
  setRandomSeed(seed: number): number {
    if (seed === TIME_BASED_SEED) {
      let h = Math.imul(this.machine.sim.seed ^ 0x3c6ef372, 0x9e3779b1);
      h = Math.imul(h ^ this.self, 0x85ebca6b);
      h = Math.imul(h ^ (this.node.time >>> 0), 0xc2b2ae35);
      return this.rng.reseed((h ^ (h >>> 16)) >>> 1);
    }
    return this.rng.reseed(seed);
  }

  // ---- state graphs (Appendix A 10) ----------------------------------------------

  /**
   * Sets this node's state (0 idle, 1 busy, 2-7 Strata's, 8 and up the app's); returns
   * the old one. A traced run records the change at this node's cycle.
   */
  setState(state: number): number {
    if (!Number.isInteger(state) || state < 0 || state > MAX_STATE) {
      throw new RunFailure(`node ${this.self}: setState(${state}): expected an integer from 0 to ${MAX_STATE}`);
    }
    const old = this.state;
    this.state = state;
    if (this.recordingStates && state !== old) this.machine.trace?.state(this.self, this.node.time, state);
    return old;
  }

  /** Turns recording of this node's state changes on or off (RecordStates); returns the old setting. */
  recordStates(on: boolean): boolean {
    const old = this.recordingStates;
    this.recordingStates = on;
    return old;
  }

  /**
   * While a traced run records, Strata's own operations show as states 2-7 (Appendix A
   * 10); `enterState` switches and returns the state to go back to, or -1 untraced.
   */
  private enterState(state: number): number {
    if (!this.recordingStates || this.machine.trace === null) return -1;
    return this.setState(state);
  }

  private leaveState(previous: number): void {
    if (previous >= 0) this.setState(previous);
  }

  /** The node's current state. */
  getState(): number {
    return this.state;
  }

  // ---- machine facts -------------------------------------------------------------

  /** Argument words an active message can carry on this platform (4 on the CM-5, 20 elsewhere). */
  get maxArgWords(): number {
    return this.costs.handlerArgWords;
  }

  /** Network hops from this node to `dest` (0 for itself). */
  hopsTo(dest: number): number {
    return this.machine.topology.hops(this.self, dest);
  }

  // ---- internal ------------------------------------------------------------------

  /** @internal The engine behind the global operations (its handlers reach it here). */
  get globalOps(): GlobalOps {
    return this.global;
  }

  /**
   * @internal Every operation body calls this first; see `unstartedOps`. Non-atomic
   * calls outside handlers also flush the print queue (Appendix A 9.1).
   */
  opStarted(): void {
    if (--this.unstartedOps !== 0) this.failUnstartedOps('the program');
    if (this.printQueue.length !== 0 && this.messaging.handlerDepth === 0) this.flushPrints();
  }

  /** @internal Ends the node's program: Strata's StrataExit(0) — keep serving messages until all nodes exit. */
  *exit(): Op {
    if (this.unstartedOps !== 0) this.failUnstartedOps('main');
    this.flushPrints();
    yield* this.node.sync();
    this.machine.exit(this.node);
    if (this.machine.allExited) return;
    this.unstartedOps++;
    yield* this.pollUntil(() => false, 'StrataExit (waiting for the other nodes)');
  }

  /** @internal StrataExit(0) abandons whatever operation was in progress. */
  forgetUnstartedOps(): void {
    this.unstartedOps = 0;
  }

  /** @internal Whether an operation was created and not run (checked after plain handlers). */
  hasUnstartedOps(): boolean {
    return this.unstartedOps !== 0;
  }

  /** @internal Fails the run: `where` created an operation and did not run it. */
  failUnstartedOps(where: string): never {
    throw new RunFailure(
      `node ${this.self}: ${where} created a Strata operation without running it; write \`yield* rt.<call>(...)\` (a handler that sends or polls must be a generator function)`,
    );
  }
}
