/**
 * The operations a model specification can time (its Task) or run around the timing
 * (Setup, Cleanup), by name. Every node runs the operation, SPMD; the sample is node
 * 0's elapsed cycles for the task. Operations that cannot be timed from inside alone
 * give the other nodes their part (the receiver drains what node 0 sends, so samples
 * never pile up), and a few collect their own sample (thesis 6.3's custom data
 * collection): they return node 0's measurement, which replaces the elapsed time.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { CombineOp } from '../network/combine.ts';
import { CompositeOp, type Handler, type Runtime } from '../runtime/index.ts';

/** What a calibration node keeps between operations. */
export interface CalibrationGlobals {
  received: number;
  /** Release messages from node 0 (see Release) received, and expected so far. */
  released: number;
  releases: number;
  /** Messages this node has been sent so far by the samples run (it may receive them early). */
  expected: number;
  replies: number;
  scratch: Uint32Array;
  vector: Int32Array;
  /** Where BlockTransfer data lands (port 1, set up before the first sample). */
  block: Uint32Array;
  /** Words this node has been sent at port 1 by block transfers so far. */
  blockWords: number;
  /** Ready and go signals (Roundtrip, Receive): received, and expected so far. */
  signals: number;
  signalsExpected: number;
}

/** Largest BlockTransfer: the landing area every node sets aside. */
const MAX_BLOCK_WORDS = 1 << 16;

/** The node variables of a calibration run, with port 1 ready for block transfers. */
export function calibrationGlobals(): CalibrationGlobals {
  return { received: 0, released: 0, releases: 0, expected: 0, replies: 0, scratch: new Uint32Array(0), vector: new Int32Array(0), block: new Uint32Array(MAX_BLOCK_WORDS), blockWords: 0, signals: 0, signalsExpected: 0 };
}

/** Points port 1 at the node's landing area; called on every node before any sample. */
export function preparePorts(rt: Runtime<CalibrationGlobals>): void {
  rt.port(1).setBase(rt.globals.block);
}

type Rt = Runtime<CalibrationGlobals>;

export interface Operation {
  /** How many arguments it takes. */
  arity: number;
  /** Smallest machine it can run on. */
  minNodes: number;
  /** What the arguments mean, for messages. */
  signature: string;
  /** The range of each argument (one per argument), checked for every sample before anything runs. */
  args: readonly ArgRange[];
  /** Node 0 may return its own measurement in cycles (custom collection); otherwise the task is timed. */
  run(rt: Rt, args: readonly number[]): Op<number | void>;
}

const tally: Handler<CalibrationGlobals> = (rt) => {
  rt.globals.received++;
};

const reply: Handler<CalibrationGlobals> = (rt) => {
  rt.globals.replies++;
};

const release: Handler<CalibrationGlobals> = (rt) => {
  rt.globals.released++;
};

const signal: Handler<CalibrationGlobals> = (rt) => {
  rt.globals.signals++;
};

/** Waits, polling, for one more signal than this node has waited for so far. */
function* awaitSignal(rt: Rt, what: string): Op {
  const g = rt.globals;
  g.signalsExpected++;
  yield* rt.pollBothUntil(() => g.signals >= g.signalsExpected, what);
}

/**
 * Waits until `words` more words have landed at port 1 than this node waited for
 * before, then tells node 0. With no header the port's count only falls as words
 * land, and some may land before this node gets here.
 */
function* awaitBlockWords(rt: Rt, words: number, what: string): Op {
  const g = rt.globals;
  g.blockWords += words;
  const port = rt.port(1);
  yield* rt.pollBothUntil(() => -port.count >= g.blockWords, what);
  yield* rt.sendLeftPollBoth(0, signal);
}

/** Round trips Roundtrip averages over (see there). */
const ROUNDTRIP_TRIPS = 8;

/** Most senders Receive uses to keep node 0's queue full. */
const RECEIVE_SENDERS = 4;

/**
 * Every node but 0 waits for node 0's next Release. While node 0 times a task, the
 * others must not send it anything — on the combining trees, a node that ran ahead
 * into the next barrier would send node 0 its tree messages in the middle of a timing.
 */
function* holdUntilReleased(rt: Rt): Op {
  if (rt.self === 0) return;
  const g = rt.globals;
  g.releases++;
  yield* rt.pollBothUntil(() => g.released >= g.releases, 'calibration: waiting for node 0');
}

function* request(rt: Rt, from: number): Op {
  rt.globals.received++;
  yield* rt.sendBothRLPollRight(from, reply);
}

/** An integer argument's range on a machine of P nodes (checked when a spec is planned, and again when it runs). */
export interface ArgRange {
  name: string;
  min: number;
  max: (P: number) => number;
}

const CLEAR_BYTES: ArgRange = { name: 'bytes', min: 0, max: () => 1 << 24 };
const VECTOR_LENGTH: ArgRange = { name: 'length', min: 1, max: () => 1 << 18 };
const ROUNDTRIP_NODE: ArgRange = { name: 'node', min: 1, max: (P) => P - 1 };
const RECEIVE_COUNT: ArgRange = { name: 'count', min: 1, max: () => 100000 };
const BLOCK_WORDS: ArgRange = { name: 'words', min: 1, max: () => MAX_BLOCK_WORDS };
/**
 * CompositeMedian's search takes at most P - ceil(P/2) steps (Fig. 6-2): from the largest
 * value, when the average lies above every other, down to the median. (The bound was one
 * less, refusing the longest search, which the task arranges and times as it does the rest.)
 */
const MEDIAN_STEPS: ArgRange = { name: 'steps', min: 0, max: (P) => P - Math.ceil(P / 2) };
const QPRINTF_CHARS: ArgRange = { name: 'chars', min: 0, max: () => 4096 };
const ASYNC_COUNT: ArgRange = { name: 'count', min: 1, max: () => 4096 };

/** Why `value` is not in `range` on P nodes, or null if it is. */
export function argProblem(range: ArgRange, value: number, P: number): string | null {
  const max = range.max(P);
  return Number.isInteger(value) && value >= range.min && value <= max ? null : `${range.name} ${value}: expected an integer from ${range.min} to ${max}`;
}

function wholeArg(rt: Rt, op: string, range: ArgRange, value: number): number {
  const problem = argProblem(range, value, rt.partitionSize);
  if (problem !== null) throw new RunFailure(`node ${rt.self}: ${op} ${problem}`);
  return value;
}

/**
 * `node` counts `count` more messages sent to it and waits until all it has been sent
 * have arrived (they may arrive before it gets here, while it polls in a barrier).
 */
function* receiveMessages(rt: Rt, node: number, what: string, count = 1): Op {
  if (rt.self !== node) return;
  const g = rt.globals;
  g.expected += count;
  yield* rt.pollBothUntil(() => g.received >= g.expected, what);
}

export const OPERATIONS: Record<string, Operation> = {
  Barrier: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'Barrier()',
    *run(rt) {
      yield* rt.barrier();
    },
  },
  ClearMemory: {
    minNodes: 1,
    arity: 1,
    args: [CLEAR_BYTES],
    signature: 'ClearMemory(bytes)',
    *run(rt, [bytes]) {
      const n = wholeArg(rt, 'ClearMemory', CLEAR_BYTES, bytes);
      if (rt.globals.scratch.length * 4 < n) rt.globals.scratch = new Uint32Array(Math.ceil(n / 4));
      if (rt.self === 0) rt.clearMemory(rt.globals.scratch, n);
    },
  },
  CombineInt: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'CombineInt()',
    *run(rt) {
      yield* rt.combineInt(rt.self, CombineOp.ScanAdd);
    },
  },
  CombineVector: {
    minNodes: 1,
    arity: 1,
    args: [VECTOR_LENGTH],
    signature: 'CombineVector(length)',
    *run(rt, [length]) {
      const n = wholeArg(rt, 'CombineVector', VECTOR_LENGTH, length);
      if (rt.globals.vector.length !== n) rt.globals.vector = new Int32Array(n);
      yield* rt.combineVector(rt.globals.vector, rt.globals.vector, CombineOp.ScanAdd);
    },
  },
  Broadcast: {
    minNodes: 2,
    arity: 0,
    args: [],
    signature: 'Broadcast()',
    *run(rt) {
      if (rt.self === 0) yield* rt.broadcast(42);
      else yield* rt.receiveBroadcast();
    },
  },
  BroadcastVector: {
    minNodes: 2,
    arity: 1,
    args: [VECTOR_LENGTH],
    signature: 'BroadcastVector(length)',
    *run(rt, [length]) {
      const n = wholeArg(rt, 'BroadcastVector', VECTOR_LENGTH, length);
      if (rt.globals.vector.length !== n) rt.globals.vector = new Int32Array(n);
      if (rt.self === 0) yield* rt.broadcastVector(rt.globals.vector, rt.globals.vector);
      else yield* rt.receiveBroadcastVector(rt.globals.vector);
    },
  },
  SendRequest: {
    minNodes: 2,
    arity: 0,
    args: [],
    signature: 'SendRequest()',
    *run(rt) {
      if (rt.self === 0) {
        yield* rt.sendLeftPollBoth(1, tally);
        yield* rt.pollBothTilEmpty();
      }
      yield* receiveMessages(rt, 1, 'calibration: receiving');
    },
  },
  SendRPC: {
    minNodes: 2,
    arity: 0,
    args: [],
    signature: 'SendRPC()',
    *run(rt) {
      if (rt.self === 0) yield* rt.sendBothRLPollBoth(1, tally);
      yield* receiveMessages(rt, 1, 'calibration: receiving');
    },
  },
  Roundtrip: {
    minNodes: 2,
    arity: 1,
    args: [ROUNDTRIP_NODE],
    signature: 'Roundtrip(node): node 0 to that node and back (report hops(node) as an input; the others wait for Release)',
    // Custom collection: the partner first tells node 0 it is waiting, so no sample
    // includes what it still had to do for the setup (on the combining trees, passing
    // a barrier's release down its subtree); node 0 then reports the mean of
    // ROUNDTRIP_TRIPS trips back to back. A trip ends on the poll that finds the reply,
    // so it is rounded up to the polling loop's period (22 cycles on the CM-5) at a
    // phase fixed by the setup. On a quiet machine every trip then takes a whole
    // number of periods, so the next starts at the same phase and the mean is rounded
    // as one trip is (partners at the same distance can differ by up to a period:
    // 319 and 327 cycles on a 16-node Paragon).
    *run(rt, [node]) {
      const partner = wholeArg(rt, 'Roundtrip', ROUNDTRIP_NODE, node);
      let mean: number | undefined;
      if (rt.self === 0) {
        yield* awaitSignal(rt, 'calibration: waiting for the round-trip partner');
        const start = rt.cycleCount();
        for (let trip = 0; trip < ROUNDTRIP_TRIPS; trip++) {
          const want = rt.globals.replies + 1;
          yield* rt.sendLeftPollBoth(partner, request, 0);
          yield* rt.pollBothUntil(() => rt.globals.replies >= want, 'calibration: round trip');
        }
        mean = rt.elapsedCycles(start) / ROUNDTRIP_TRIPS;
      }
      if (rt.self === partner) yield* rt.sendLeftPollBoth(0, signal);
      yield* receiveMessages(rt, partner, 'calibration: round trip', ROUNDTRIP_TRIPS);
      yield* holdUntilReleased(rt);
      return mean;
    },
  },
  Receive: {
    minNodes: 2,
    arity: 1,
    args: [RECEIVE_COUNT],
    signature: 'Receive(count): the cost of receiving a packet, from count polls with and without packets waiting',
    // Custom collection (thesis 6.3: "times a loop with and without 100 incoming
    // packets"): node 0 times `count` PollLeft calls with nothing arriving, then lets up
    // to RECEIVE_SENDERS nodes send it `count` packets and times PollLeft calls until
    // it has handled them all. The polls that found nothing cost what the empty loop's
    // did; the rest of the difference, per packet, is the receive cost.
    *run(rt, [packets]) {
      const count = wholeArg(rt, 'Receive', RECEIVE_COUNT, packets);
      const senders = Math.min(RECEIVE_SENDERS, rt.partitionSize - 1);
      if (rt.self === 0) {
        let start = rt.cycleCount();
        for (let i = 0; i < count; i++) yield* rt.pollLeft();
        const emptyPoll = rt.elapsedCycles(start) / count;
        for (let s = 1; s <= senders; s++) yield* rt.sendBothRLPollRight(s, signal);
        let handled = 0;
        let missed = 0;
        start = rt.cycleCount();
        while (handled < count) {
          if (yield* rt.pollLeft()) handled++;
          else missed++;
        }
        return (rt.elapsedCycles(start) - missed * emptyPoll) / count;
      }
      if (rt.self > senders) return;
      yield* awaitSignal(rt, 'calibration: waiting to send to node 0');
      for (let k = rt.self - 1; k < count; k += senders) yield* rt.sendLeftPollBoth(0, tally);
    },
  },
  BlockTransfer: {
    minNodes: 2,
    arity: 1,
    args: [BLOCK_WORDS],
    signature: 'BlockTransfer(words): node 0 sends node 1 a block and waits for its word that all of it landed',
    // Delivery, not just injection: on Alewife the DMA engine takes small blocks off
    // the sender's hands at once, so the sender's time alone is not the transfer's.
    *run(rt, [words]) {
      const n = wholeArg(rt, 'BlockTransfer', BLOCK_WORDS, words);
      if (rt.self === 0) {
        yield* rt.sendBlockXferPollBoth(1, 1, 0, rt.globals.block, n);
        yield* awaitSignal(rt, 'calibration: block transfer');
      }
      if (rt.self === 1) yield* awaitBlockWords(rt, n, 'calibration: block transfer');
    },
  },
  PollBothTilEmpty: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'PollBothTilEmpty(): with nothing arriving',
    *run(rt) {
      if (rt.self === 0) yield* rt.pollBothTilEmpty();
    },
  },
  SendLeftPollBoth: {
    minNodes: 2,
    arity: 0,
    args: [],
    signature: 'SendLeftPollBoth()',
    *run(rt) {
      if (rt.self === 0) yield* rt.sendLeftPollBoth(1, tally);
      yield* receiveMessages(rt, 1, 'calibration: receiving');
    },
  },
  BroadcastDouble: {
    minNodes: 2,
    arity: 0,
    args: [],
    signature: 'BroadcastDouble()',
    *run(rt) {
      if (rt.self === 0) yield* rt.broadcastDouble(Math.PI);
      else yield* rt.receiveBroadcastDouble();
    },
  },
  GlobalOR: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'GlobalOR()',
    *run(rt) {
      yield* rt.globalOR(rt.self === 0);
    },
  },
  CompositeMedian: {
    minNodes: 4,
    arity: 1,
    args: [MEDIAN_STEPS],
    signature: 'CompositeMedian(steps): CompositeInt(..., Median) of values whose average lies steps values above the median (0 to P - ceil(P/2))',
    // Fig. 6-2's search starts at the smallest value at or above the average and steps
    // one value at a time to the median, so its cost follows the number of steps, which
    // depends on the data. Nodes hold 0, 1, ..., P - 2 and one large value chosen so
    // that the average is exactly the value `steps` places above the median (for the
    // most steps, P - 1, above every value but the large one, where the search starts).
    *run(rt, [steps]) {
      const P = rt.partitionSize;
      const k = Math.ceil(P / 2);
      const n = wholeArg(rt, 'CompositeMedian', MEDIAN_STEPS, steps);
      const value = rt.self < P - 1 ? rt.self : P * (k - 1 + n) - ((P - 1) * (P - 2)) / 2;
      const median = yield* rt.compositeInt(value, CompositeOp.Median);
      if (median !== k - 1) throw new RunFailure(`node ${rt.self}: CompositeMedian found ${median}, expected ${k - 1}`);
    },
  },
  CompositeVariance: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'CompositeVariance(): CompositeFloat(..., Variance)',
    *run(rt) {
      yield* rt.compositeFloat(rt.self * 0.5, CompositeOp.Variance);
    },
  },
  Random: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'Random()',
    *run(rt) {
      if (rt.self === 0) rt.random();
    },
  },
  Qprintf: {
    minNodes: 1,
    arity: 1,
    args: [QPRINTF_CHARS],
    signature: 'Qprintf(chars): queue chars characters of output',
    *run(rt, [chars]) {
      const n = wholeArg(rt, 'Qprintf', QPRINTF_CHARS, chars);
      if (rt.self === 0) rt.qprintf('%s', 'x'.repeat(n));
    },
  },
  ExchangeBlocks: {
    minNodes: 2,
    arity: 1,
    args: [BLOCK_WORDS],
    signature: 'ExchangeBlocks(words): nodes 0 and 1 send each other a block (two-way)',
    *run(rt, [words]) {
      const n = wholeArg(rt, 'ExchangeBlocks', BLOCK_WORDS, words);
      if (rt.self > 1) return;
      const g = rt.globals;
      g.blockWords += n;
      const port = rt.port(1);
      yield* rt.sendBlockXferPollBoth(1 - rt.self, 1, 0, g.block, n);
      yield* rt.pollBothUntil(() => -port.count >= g.blockWords, 'calibration: exchange');
    },
  },
  AsyncTransfers: {
    minNodes: 2,
    arity: 2,
    args: [ASYNC_COUNT, BLOCK_WORDS],
    signature: 'AsyncTransfers(count, words): node 0 queues count transfers to nodes 1, 2, ..., services them all and waits until each target says its blocks landed',
    *run(rt, [transfers, words]) {
      const k = wholeArg(rt, 'AsyncTransfers', ASYNC_COUNT, transfers);
      const n = wholeArg(rt, 'AsyncTransfers', BLOCK_WORDS, words);
      const target = (i: number) => 1 + (i % (rt.partitionSize - 1));
      if (rt.self === 0) {
        for (let i = 0; i < k; i++) rt.asyncBlockXfer(target(i), 1, 0, rt.globals.block, n);
        yield* rt.serviceAllTransfers(-1);
        for (let t = Math.min(k, rt.partitionSize - 1); t > 0; t--) yield* awaitSignal(rt, 'calibration: asynchronous transfers');
        return;
      }
      let mine = 0;
      for (let i = 0; i < k; i++) if (target(i) === rt.self) mine += n;
      if (mine > 0) yield* awaitBlockWords(rt, mine, 'calibration: asynchronous transfers');
    },
  },
  Release: {
    minNodes: 1,
    arity: 0,
    args: [],
    signature: 'Release(): node 0 lets the others go on (cleanup after tasks that hold them, e.g. Roundtrip)',
    *run(rt) {
      if (rt.self !== 0) return;
      for (let n = 1; n < rt.partitionSize; n++) yield* rt.sendBothRLPollBoth(n, release);
    },
  },
};

/** The Strata operation a spec names, or undefined (a name every object has, such as toString, is none). */
export function operation(name: string): Operation | undefined {
  return Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
}
