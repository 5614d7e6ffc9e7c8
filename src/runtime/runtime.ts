/**
 * Strata on one node, as an app's `main` and its message handlers see it: a thin
 * façade over the node's engines (engines.ts). Names follow Appendix A in camelCase
 * (the mapping is in index.ts). Calls that take time or touch the network are
 * generators, run with `yield*`; each passes through the node's OpGuard (`#op`),
 * which catches one created and never run.
 * Nothing of the machine is reachable from here: the engines sit in a private field.
 */
import { RunFailure, StrataFailure } from '../kernel/errors.ts';
import { smallInteger } from '../kernel/event-queue.ts';
import type { Op } from '../machine/node.ts';
import { COMBINE_CHANNEL, GLOBAL_OR_CHANNEL, type CombineOp, type SegmentType } from '../network/combine.ts';
import { LEFT, RIGHT } from '../network/packet.ts';
import type { BlockTransferOptions } from './block-transfer.ts';
import { formatC } from './c-format.ts';
import type { WordArray } from './collectives.ts';
import { composite, FLOAT, INT, UINT, type CompositeOp } from './composite.ts';
import type { NodeEngines } from './engines.ts';
import { StrataExitSignal } from './node-program.ts';
import type { OpCounts } from './local-work.ts';
import type { StrataPort } from './ports.ts';
import type { OutputStream } from './printing.ts';
import { SEND_BOTH_LR_POLL_BOTH, SEND_BOTH_LR_POLL_RIGHT, SEND_BOTH_RL_POLL_BOTH, SEND_BOTH_RL_POLL_RIGHT, SEND_LEFT_POLL_BOTH } from './send-steps.ts';
import { shownArgument } from './words.ts';

/**
 * An active-message handler: runs atomically on the receiving node when it polls.
 * A handler that sends or polls must be a generator function and run those calls
 * with `yield*`.
 */
export type Handler<G = unknown> = (rt: Runtime<G>, ...args: number[]) => void | Op;

/** Called on the receiver when a port's count reaches zero, with the port number. */
export type PortHandler<G = unknown> = (rt: Runtime<G>, port: number) => void | Op;

/** Called on the sender when an asynchronous transfer has sent its last word. */
export type AbxCompletion<G = unknown> = (rt: Runtime<G>, id: number, buffer: ArrayLike<number>) => void;

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
  readonly #e: NodeEngines;

  constructor(engines: NodeEngines, globals: G) {
    this.#e = engines;
    this.globals = globals;
    this.self = engines.self;
    this.partitionSize = engines.nodes;
    // As small integers: Math.log2's result kept in a field is a number object per node.
    this.logP = smallInteger(Math.ceil(Math.log2(engines.nodes)));
    this.partitionMask = smallInteger(2 ** this.logP - 1);
    engines.connect(this);
  }

  #op<T>(body: Op<T>): Op<T> {
    return this.#e.guard.op(body);
  }

  // ---- computation --------------------------------------------------------------------

  /** Charges `cycles` (a non-negative integer) of local computation. */
  compute(cycles: number): void { this.#e.work.compute(cycles); }

  /** Cycles the given operation counts cost on this platform, rounded to an integer. */
  cost(ops: OpCounts): number { return this.#e.work.cost(ops); }

  /** Charges the cost of the given operation counts. */
  computeOps(ops: OpCounts): void { this.#e.work.computeOps(ops); }

  // ---- active messages (Appendix A 6.1) ------------------------------------------------

  /** Sends on the left network, polling the left after each try and the right between tries. */
  sendLeftPollBoth(dest: number, handler: Handler<G>, ...args: number[]): Op { return this.#op(this.#e.messaging.send(SEND_LEFT_POLL_BOTH, dest, handler, args)); }

  /** Tries right then left, polling the network just tried. */
  sendBothRLPollBoth(dest: number, handler: Handler<G>, ...args: number[]): Op { return this.#op(this.#e.messaging.send(SEND_BOTH_RL_POLL_BOTH, dest, handler, args)); }

  /** Tries left then right, polling the network just tried. */
  sendBothLRPollBoth(dest: number, handler: Handler<G>, ...args: number[]): Op { return this.#op(this.#e.messaging.send(SEND_BOTH_LR_POLL_BOTH, dest, handler, args)); }

  /** Tries right (then polls right), then left without polling. */
  sendBothRLPollRight(dest: number, handler: Handler<G>, ...args: number[]): Op { return this.#op(this.#e.messaging.send(SEND_BOTH_RL_POLL_RIGHT, dest, handler, args)); }

  /** Tries left without polling, then right (then polls right). */
  sendBothLRPollRight(dest: number, handler: Handler<G>, ...args: number[]): Op { return this.#op(this.#e.messaging.send(SEND_BOTH_LR_POLL_RIGHT, dest, handler, args)); }

  // ---- polling (Appendix A 6.2) ----------------------------------------------------------

  /** Handles at most one message from the left network. */
  pollLeft(): Op<boolean> { return this.#op(this.#e.messaging.pollOne(LEFT, true)); }

  /** Handles at most one message from the right network. */
  pollRight(): Op<boolean> { return this.#op(this.#e.messaging.pollOne(RIGHT, true)); }

  /** PollLeft then PollRight. Returns how many messages it handled. */
  pollBoth(): Op<number> { return this.#op(this.#e.messaging.pollBothRound()); }

  /** Handles left-network messages until none is pending. Returns how many it handled. */
  pollLeftTilEmpty(): Op<number> { return this.#op(this.#e.messaging.pollNetTilEmpty(LEFT)); }

  /** Handles right-network messages until none is pending. Returns how many it handled. */
  pollRightTilEmpty(): Op<number> { return this.#op(this.#e.messaging.pollNetTilEmpty(RIGHT)); }

  /** Handles messages from both networks until neither has one pending. Returns how many. */
  pollBothTilEmpty(): Op<number> { return this.#op(this.#e.messaging.drainBoth()); }

  /** Polls the left network once; if it had a message, polls both until empty. */
  pollLeftThenBothTilEmpty(): Op<number> { return this.#op(this.#e.messaging.pollThenBoth(LEFT)); }

  /** Polls the right network once; if it had a message, polls both until empty. */
  pollRightThenBothTilEmpty(): Op<number> { return this.#op(this.#e.messaging.pollThenBoth(RIGHT)); }

  /**
   * Polls both networks until `isDone()` holds, like `while (!isDone()) yield*
   * rt.pollBothTilEmpty()` without an event per fruitless iteration (an extension for
   * simulation). `isDone` may depend only on state this node's handlers change.
   */
  pollBothUntil(isDone: () => boolean, waitingIn = 'pollBothUntil'): Op { return this.#op(this.#e.messaging.pollUntil(isDone, waitingIn)); }

  // ---- block transfers (Appendix A 7) ----------------------------------------------------

  /** Entry `n` of this node's StrataPortTable (0..4095). */
  port(n: number): StrataPort { return this.#e.ports.port(n); }

  /** How this node's block transfers pace themselves (bandwidth matching, thesis 6.1.3). */
  get blockTransferOptions(): BlockTransferOptions { return this.#e.blocks.options; }
  set blockTransferOptions(options: BlockTransferOptions) { this.#e.blocks.setOptions(options); }

  /** Sends `size` words of `buffer` to `port` at `proc` (at `offset` words), on both networks, polling both. */
  sendBlockXferPollBoth(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size = buffer.length): Op {
    return this.#op(this.#e.blocks.send(proc, port, offset, buffer, size, false));
  }

  /** The same, polling only the right network. */
  sendBlockXferPollRight(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size = buffer.length): Op {
    return this.#op(this.#e.blocks.send(proc, port, offset, buffer, size, true));
  }

  /**
   * SendXferBothRLPollBoth (Appendix A 7.1): one Xfer packet of up to packetWords - 1
   * data words for the port and offset packed in `portAndOffset`, sent like
   * SendBothRLPollBoth. The receiver stores and counts the words as for block data.
   */
  sendXferBothRLPollBoth(proc: number, portAndOffset: number, ...data: number[]): Op { return this.#op(this.#e.blocks.xfer(SEND_BOTH_RL_POLL_BOTH, proc, portAndOffset, data)); }

  /** The same, trying the left network first. */
  sendXferBothLRPollBoth(proc: number, portAndOffset: number, ...data: number[]): Op { return this.#op(this.#e.blocks.xfer(SEND_BOTH_LR_POLL_BOTH, proc, portAndOffset, data)); }

  /** The same, polling only the right network (as SendBothRLPollRight). */
  sendXferBothRLPollRight(proc: number, portAndOffset: number, ...data: number[]): Op { return this.#op(this.#e.blocks.xfer(SEND_BOTH_RL_POLL_RIGHT, proc, portAndOffset, data)); }

  /** The same, trying left (no poll) then right (polling right). */
  sendXferBothLRPollRight(proc: number, portAndOffset: number, ...data: number[]): Op { return this.#op(this.#e.blocks.xfer(SEND_BOTH_LR_POLL_RIGHT, proc, portAndOffset, data)); }

  // ---- asynchronous block transfers (Appendix A 8) -----------------------------------------

  /**
   * Queues a transfer of `size` words of `buffer` to `port` at `proc`; nothing is sent
   * until serviceAllTransfers or completeTransfer. `complete` runs here when the last
   * word has been sent. Returns the transfer's id.
   */
  asyncBlockXfer(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size = buffer.length, complete: AbxCompletion<G> | null = null): number {
    return this.#e.asyncTransfers.queue(proc, port, offset, buffer, size, complete);
  }

  /** Sends two packets of every pending transfer per round, interleaved; `rounds` -1 sends everything. */
  serviceAllTransfers(rounds: number): Op {
    this.#e.asyncTransfers.checkRounds(rounds);
    return this.#op(this.#e.asyncTransfers.serviceAll(rounds));
  }

  /** Sends the rest of transfer `id` now (nothing, if it has finished). */
  completeTransfer(id: number): Op {
    this.#e.asyncTransfers.find(id);
    return this.#op(this.#e.asyncTransfers.completeOne(id));
  }

  /** GetABXproc / GetABXport / GetABXoffset / GetABXbuffer / GetABXremaining: of a pending or finished transfer (remaining 0). */
  getAbxProc(id: number): number { return this.#e.asyncTransfers.find(id).proc; }
  getAbxPort(id: number): number { return this.#e.asyncTransfers.find(id).port; }
  getAbxOffset(id: number): number { return this.#e.asyncTransfers.find(id).offset; }
  getAbxBuffer(id: number): ArrayLike<number> { return this.#e.asyncTransfers.find(id).buffer; }
  getAbxRemaining(id: number): number { return this.#e.asyncTransfers.find(id).remaining; }

  /** The word that names `handler` in a message (C Strata passes handler addresses). */
  handlerWord(handler: Handler<G> | PortHandler<G> | null): number { return this.#e.handlers.wordOf(handler); }

  /** The handler a word names (null for 0). */
  handlerOf(word: number): unknown { return this.#e.handlers.handlerOf(word); }

  // ---- barriers and global OR (Appendix A 4.1, 4.2) ------------------------------------

  /** Tells the others this node reached the barrier (split-phase). */
  startBarrier(): Op { return this.#op(this.#e.collectives.startBarrier()); }

  /** Whether the last barrier (or global OR) has completed. */
  queryBarrier(): Op<boolean> { return this.#op(this.#e.collectives.query(GLOBAL_OR_CHANNEL)); }

  /** Waits until the last barrier has completed. */
  completeBarrier(): Op { return this.#op(this.#e.collectives.completeBarrier()); }

  /** Returns when every node has reached the barrier; the same as globalOR(false). */
  barrier(): Op { return this.#op(this.#e.collectives.barrier()); }

  /** Returns the OR of every node's `notDone` (Appendix A 4.2). */
  globalOR(notDone: boolean): Op<boolean> { return this.#op(this.#e.collectives.globalOR(notDone)); }

  /** Starts a global OR and returns at once (split-phase). */
  startGlobalOR(notDone: boolean): Op { return this.#op(this.#e.collectives.startGlobalOR(notDone)); }

  /** Whether the last global OR has completed. */
  queryGlobalOR(): Op<boolean> { return this.#op(this.#e.collectives.query(GLOBAL_OR_CHANNEL)); }

  /** Waits for the last global OR and returns its result. */
  completeGlobalOR(): Op<boolean> { return this.#op(this.#e.collectives.completeGlobalOR()); }

  /** Sets this node's asynchronous-global-OR bit (initially true everywhere); others see the OR change later. */
  setAsyncGlobalOR(notDone: boolean): Op { return this.#op(this.#e.broadcasting.setAsyncGlobalOR(notDone)); }

  /** Whether at least one node's asynchronous-global-OR bit is set, as this node sees it now. */
  getAsyncGlobalOR(): Op<boolean> { return this.#op(this.#e.broadcasting.getAsyncGlobalOR()); }

  // ---- combines and scans (Appendix A 4.3) ------------------------------------------------

  /** Sets this node's segment boundary for the scans that start after it (Appendix A 4.3.1). */
  setSegment(boundary: SegmentType): void { this.#e.collectives.setSegment(boundary); }

  /** This node's current segment boundary. */
  currentSegment(): SegmentType { return this.#e.collectives.currentSegment; }

  /** Starts a combine: every node contributes `value`; `op` says what comes back (split-phase). */
  startCombineInt(value: number, op: CombineOp): Op { return this.#op(this.#e.collectives.startCombineInt(value, op)); }

  /** Whether the last combine has completed. */
  queryCombineInt(): Op<boolean> { return this.#op(this.#e.collectives.query(COMBINE_CHANNEL)); }

  /** Waits for the last combine and returns this node's result. */
  completeCombineInt(): Op<number> { return this.#op(this.#e.collectives.completeCombineInt()); }

  /**
   * Combine in one call: scans get the combination of lower (BackScan: higher) nodes'
   * values within the current segment, reductions all values.
   */
  combineInt(value: number, op: CombineOp): Op<number> { return this.#op(this.#e.collectives.combineInt(value, op)); }

  /**
   * Combines the first `count` elements of `from` element-wise across the nodes and
   * writes the results to `to` (which may be `from`), using the current segments.
   */
  combineVector(to: WordArray, from: ArrayLike<number>, op: CombineOp, count = from.length): Op { return this.#op(this.#e.collectives.combineVector(to, from, op, count)); }

  /** Starts a vector combine (split-phase); completeCombineVector fills `to`. */
  startCombineVector(to: WordArray, from: ArrayLike<number>, op: CombineOp, count = from.length): Op { return this.#op(this.#e.collectives.startCombineVector(to, from, op, count)); }

  /** Waits for the pending vector combine and writes its results (there is no queryCombineVector). */
  completeCombineVector(): Op { return this.#op(this.#e.collectives.completeCombineVector()); }

  // ---- composite reductions (Appendix A 5) -------------------------------------------------

  /** Min, Max, Average, Variance or Median of one signed integer per node. */
  compositeInt(value: number, op: CompositeOp): Op<number> { return this.#op(composite(this.#e, INT, value, op)); }

  /** The same for unsigned integers. */
  compositeUint(value: number, op: CompositeOp): Op<number> { return this.#op(composite(this.#e, UINT, value, op)); }

  /** The same for single-precision floats. */
  compositeFloat(value: number, op: CompositeOp): Op<number> { return this.#op(composite(this.#e, FLOAT, value, op)); }

  // ---- broadcasts (Appendix A 4.4) -----------------------------------------------------------

  /** Sends one word to every other node; they call receiveBroadcast. */
  broadcast(value: number): Op { return this.#op(this.#e.broadcasting.broadcast(value)); }

  /** Whether this node's last broadcast has completed (on the data-network platforms: has been sent). */
  queryBroadcast(): Op<boolean> { return this.#op(this.#e.broadcasting.queryBroadcast()); }

  /** Waits for another node's broadcast word. */
  receiveBroadcast(): Op<number> { return this.#op(this.#e.broadcasting.receiveBroadcast()); }

  /** Sends a double (two words) to every other node. */
  broadcastDouble(value: number): Op { return this.#op(this.#e.broadcasting.broadcastDouble(value)); }

  /** Waits for another node's broadcast double. */
  receiveBroadcastDouble(): Op<number> { return this.#op(this.#e.broadcasting.receiveBroadcastDouble()); }

  /** Sends the first `count` words of `from` to every other node, and copies them to `to` here. */
  broadcastVector(to: WordArray, from: ArrayLike<number>, count = from.length): Op { return this.#op(this.#e.broadcasting.broadcastVector(to, from, count)); }

  /** Waits for another node's vector broadcast of `count` words and writes it to `to`. */
  receiveBroadcastVector(to: WordArray, count = to.length): Op { return this.#op(this.#e.broadcasting.receiveBroadcastVector(to, count)); }

  // ---- basics, assertions, exit (Appendix A 3.5, 9.2) ----------------------------------------

  /**
   * Stops the whole run with a failure naming this node, its cycle and the message
   * (StrataFail; its arguments work like printf's, Appendix A 3.5).
   */
  strataFail(format: string, ...args: unknown[]): never {
    this.#fail(`StrataFail: ${typeof format === 'string' ? formatC(format, ...args) : String(format)}`);
  }

  /** Fails the run as strataFail does when `condition` is false (Strata's assert); `message` is not a format. */
  assert(condition: unknown, message = 'assertion failed'): void {
    if (!condition) this.#fail(`StrataFail: ${message}`);
  }

  /** StrataExit: with 0, this node leaves main and serves messages until all have exited; any other code fails the run. */
  strataExit(code: number): never {
    if (code !== 0) this.#fail(`StrataExit(${code})`);
    // In a handler its StrataExit loop ran, the node had no main left to leave: the signal
    // escaped, and the run failed "[object Object]".
    if (this.#e.node.hasExited) this.#fail("StrataExit(0) in a handler run after this node had returned from main (it is in StrataExit already); expected it in main, or in a handler main's polls run");
    throw new StrataExitSignal(this.self);
  }

  /**
   * Ends the run with a StrataFailure, after writing out this node's queued Qprintf
   * text: StrataExit leaves "after cleaning up" (Appendix A 3.5), and the lines a node
   * printed just before its failed check were lost.
   */
  #fail(what: string): never {
    this.#e.output.flushFinal();
    throw new StrataFailure(`node ${this.self} at cycle ${this.#e.node.time}: ${what}`);
  }

  /**
   * Zeroes the first `lengthBytes` bytes (whole words) of `region`, charging the
   * platform's ClearMemory cost: start + length x per-byte cycles (thesis Fig. 6-6).
   */
  clearMemory(region: Uint32Array | Int32Array | number[], lengthBytes: number): void {
    // null was "TypeError: Cannot read properties of null (reading 'length')".
    if (!Array.isArray(region) && !(region instanceof Uint32Array) && !(region instanceof Int32Array)) throw new RunFailure(`node ${this.self}: clearMemory(${shownArgument(region)}, ...): expected an array of words to clear`);
    if (!this.#e.work.clearMemory(region, lengthBytes)) this.#fail(`StrataFail: clearMemory(${lengthBytes} bytes): expected 0 to ${region.length * 4} bytes for this region`);
  }

  // ---- printing and logging (Appendix A 9.1, 9.3) ------------------------------------------

  /**
   * Queues printf-style output for stdout; safe anywhere, including handlers, as it
   * neither polls nor takes simulated time beyond formatting. Returns its length.
   */
  qprintf(format: string, ...args: unknown[]): number { return this.#e.output.qfprintf('stdout', format, args); }

  /** Queues printf-style output for `stream` ('stdout' or 'stderr'). */
  qfprintf(stream: OutputStream, format: string, ...args: unknown[]): number { return this.#e.output.qfprintf(stream, format, args); }

  /** Outputs the queued messages, then polls; returns how many there were. Not for handlers. */
  emptyPrintQ(): Op<number> { return this.#op(this.#e.emptyPrintQ()); }

  /**
   * Adds a printf-style entry to the run's log, prefixed with this node and its cycle
   * (StrataLog). Allowed anywhere; expensive, as in Strata: ten calls' worth of cycles
   * plus a store per word of text.
   */
  strataLog(format: string, ...args: unknown[]): void { this.#e.output.strataLog(format, args); }

  // ---- timing (Appendix A 9.4) ----------------------------------------------------------------

  /** The node's 32-bit cycle counter. */
  cycleCount(): number { return this.#e.work.cycleCount(); }

  /** Cycles since `start` (a cycleCount value), modulo 2^32; adjacent calls give 0. */
  elapsedCycles(start: number): number { return (this.#e.work.cycleCount() - start) >>> 0; }

  /** Cycles since initialization or the last cycle reset, modulo 2^32. */
  currentCycle(): number { return this.#e.work.currentCycle(); }

  /** Cycles since initialization, full precision. */
  currentCycle64(): number { return this.#e.node.time; }

  /** Makes currentCycle count from now; a synchronous operation every node must call (a barrier). */
  resetCurrentCycle(): Op { return this.#op(this.#e.resetCurrentCycle()); }

  /** Seconds taken by `cycles` at this platform's clock. */
  cyclesToSeconds(cycles: number): number { return cycles / (this.#e.clockMHz * 1e6); }

  // ---- random numbers (Appendix A 3.6) ----------------------------------------------------------

  /** Next value of this node's Park-Miller generator, in [1, 2^31 - 2] (default seed self + 1), at Schrage's method's cost. */
  random(): number { return this.#e.work.random(); }

  /** Reseeds this node's generator; returns the seed used (TIME_BASED_SEED: from the node and its clock, Appendix A 3.6). */
  setRandomSeed(seed: number): number { return this.#e.work.setRandomSeed(seed); }

  // ---- state graphs (Appendix A 10) ----------------------------------------------------------

  /**
   * Sets this node's state (0 idle, 1 busy, 2-7 Strata's, 8 and up the app's); returns
   * the old one. A traced run records the change at this node's cycle.
   */
  setState(state: number): number { return this.#e.states.set(state); }

  /** Turns recording of this node's state changes on or off (RecordStates); returns the old setting. */
  recordStates(on: boolean): boolean { return this.#e.states.record(on); }

  /** The node's current state. */
  getState(): number { return this.#e.states.current; }

  // ---- machine facts ----------------------------------------------------------------------

  /** Argument words an active message can carry on this platform (4 on the CM-5, 20 elsewhere). */
  get maxArgWords(): number { return this.#e.maxArgWords; }

  /** Network hops from this node to `dest` (0 for itself). */
  hopsTo(dest: number): number {
    // hopsTo(99) on 4 nodes gave a distance (8) in a machine that has no node 99.
    if (!Number.isInteger(dest) || dest < 0 || dest >= this.partitionSize) throw new RunFailure(`node ${this.self}: hopsTo(${shownArgument(dest)}): expected a node number from 0 to ${this.partitionSize - 1}`);
    return this.#e.topology.hops(this.self, dest);
  }
}
