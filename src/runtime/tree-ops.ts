/**
 * Global operations as combining trees of active messages over the data network, for
 * the platforms without a control network (thesis 6.2: Strata on PROTEUS). Their cost
 * therefore grows with log P and depends on polling: a node that is not polling
 * holds up its subtree. Vectors travel in chunks of as many words as an active
 * message carries and are not pipelined up or down the tree, which is what gives
 * the PROTEUS platforms' CombineVector models their length·logP term (thesis 6.2).
 *
 * The tree is binomial and rooted at node 0: parent(i) is i with its lowest set bit
 * cleared, and the children of i are i + 2^j for every 2^j below i's lowest set bit
 * (every 2^j < P for node 0). Each subtree is a contiguous range of node numbers, so
 * scans come out in node order without commutativity. Values go up as subtree
 * summaries; the root sends down what each subtree needs: the summary of everything
 * before it (scans), after it (back-scans), or the total (reductions).
 *
 * Segmented scans (Appendix A 4.3.1) make a range's summary more than its
 * combination: for forward scans, whether the range holds a segment start and the
 * combination since its last one; for back-scans, the first node's boundary, whether
 * a later node starts a segment, and the combination up to that node. Composing
 * summaries stays associative, so the tree computes exactly combineAll's semantics.
 *
 * Broadcasts use the same binomial shape over node numbers relative to the
 * broadcaster. The asynchronous global OR keeps the count of set bits at node 0,
 * which tells every node when the OR changes.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import {
  asWord,
  BACKSCAN,
  COMBINE_OP_NAMES,
  combineWords,
  identityOf,
  modeOf,
  REDUCE,
  SCAN,
  SegmentType,
  type ReduceOp,
} from '../network/combine.ts';
import { CHANNEL_NAMES } from '../network/control-network.ts';
import type { Channel, GlobalOps } from './global-ops.ts';
import type { Runtime } from './runtime.ts';

/** Summary flags. EMPTY marks the summary of no nodes. */
const EMPTY = -1;
/** Forward: some node of the range starts a segment. */
const ANY_BOUNDARY = 1;
/** Backward: some node after the range's first starts a segment. */
const LATER_BOUNDARY = 2;
/** Bits 2-3: the SegmentType of the range's first node. */
const FIRST_SHIFT = 2;

/** A range of nodes, as far as a combine needs to know it. */
interface Summary {
  flags: number;
  values: number[];
}

function firstBoundary(flags: number): number {
  return flags >> FIRST_SHIFT;
}

function ownFlags(segment: SegmentType): number {
  return (segment !== SegmentType.NoBoundary ? ANY_BOUNDARY : 0) | (segment << FIRST_SHIFT);
}

/** The summary of range l followed by range r. */
function compose(op: ReduceOp, l: Summary, r: Summary): Summary {
  if (l.flags === EMPTY) return r;
  if (r.flags === EMPTY) return l;
  const flags =
    ((l.flags | r.flags) & ANY_BOUNDARY) |
    (l.flags & LATER_BOUNDARY) |
    (r.flags & LATER_BOUNDARY) |
    (firstBoundary(r.flags) !== SegmentType.NoBoundary ? LATER_BOUNDARY : 0) |
    (firstBoundary(l.flags) << FIRST_SHIFT);
  // A forward scan restarts at r's last boundary; a backward one stops at l's first.
  const keepLeft = modeOf(op) === BACKSCAN && ((l.flags & LATER_BOUNDARY) !== 0 || firstBoundary(r.flags) !== SegmentType.NoBoundary);
  const keepRight = modeOf(op) !== BACKSCAN && (r.flags & ANY_BOUNDARY) !== 0;
  const values = new Array<number>(l.values.length);
  for (let e = 0; e < values.length; e++) {
    values[e] = keepLeft ? l.values[e] : keepRight ? r.values[e] : combineWords(op, l.values[e], r.values[e]);
  }
  return { flags, values };
}

function emptySummary(op: ReduceOp, length: number): Summary {
  return { flags: EMPTY, values: new Array<number>(length).fill(identityOf(op)) };
}

/** What the children of one episode have reported (kept per episode parity). */
class ChildReports {
  readonly summaries: (Summary | null)[];
  readonly received: number[];
  /** Vector length each child announced. */
  readonly lengths: number[];
  complete = 0;

  constructor(children: number) {
    this.summaries = new Array<Summary | null>(children).fill(null);
    this.received = new Array<number>(children).fill(0);
    this.lengths = new Array<number>(children).fill(0);
  }

  reset(): void {
    this.summaries.fill(null);
    this.received.fill(0);
    this.complete = 0;
  }
}

/** One kind of global operation at one node. */
class ChannelState {
  /** Last episode this node started (-1: none). */
  episode = -1;
  isDone = true;
  isWaitingForChildren = false;
  op: ReduceOp = 0;
  own: Summary = { flags: 0, values: [] };
  result: readonly number[] = [];
  readonly reports: [ChildReports, ChildReports];
  /** The summary coming down from the parent, assembled from its chunks. */
  down: Summary | null = null;
  downReceived = 0;

  constructor(children: number) {
    this.reports = [new ChildReports(children), new ChildReports(children)];
  }

  get length(): number {
    return this.own.values.length;
  }
}

/** A broadcast being assembled from its chunks. */
interface Incoming {
  words: number[];
  received: number;
}

/** Header words: channel (2 bits), episode parity, op (5 bits), child index (5 bits), then the vector length. */
const HEADER_LENGTH_SCALE = 8192;
/** Longest vector a header can announce. */
const MAX_TREE_VECTOR = 2 ** 19 - 1;

function header(ch: number, slot: number, op: number, child: number, length: number): number {
  return (ch | (slot << 2) | (op << 3) | (child << 8)) + length * HEADER_LENGTH_SCALE;
}

/** Words of a vector each message carries after the header, offset and flags words. */
function chunkWords(rt: Runtime): number {
  return rt.maxArgWords - 3;
}

export class TreeOps implements GlobalOps {
  readonly parent: number;
  /** Children in ascending node order; child k's subtree is [children[k], children[k] + size). */
  readonly children: readonly number[];
  private readonly channels: ChannelState[];
  private broadcastsSent = 0;
  private readonly incoming = new Map<number, Incoming>();
  private readonly inbox: number[][] = [];
  private asyncBit = true;
  /** Node 0 only: how many nodes' asynchronous-global-OR bits are set (all, after StrataInit). */
  private asyncSetCount: number;
  private asyncView = true;
  private asyncVersion = 0;

  /** The platform carries at least 4 argument words (checked when it is loaded). */
  constructor(self: number, nodes: number) {
    this.parent = self === 0 ? -1 : self - (self & -self);
    this.children = binomialChildren(self, nodes);
    this.channels = [0, 1, 2].map(() => new ChannelState(this.children.length));
    this.asyncSetCount = nodes;
  }

  // ---- combines ----------------------------------------------------------------------

  *start(rt: Runtime, ch: Channel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op {
    rt.opStarted();
    const c = this.channels[ch];
    if (!c.isDone) {
      throw new RunFailure(`node ${rt.self}: started a ${CHANNEL_NAMES[ch]} before its previous one completed`);
    }
    if (words.length > MAX_TREE_VECTOR) {
      throw new RunFailure(`node ${rt.self}: a ${CHANNEL_NAMES[ch]} of ${words.length} elements; at most ${MAX_TREE_VECTOR} here`);
    }
    c.episode++;
    c.isDone = false;
    c.isWaitingForChildren = true;
    c.op = op;
    const seg = modeOf(op) === REDUCE ? SegmentType.NoBoundary : segment;
    c.own = { flags: ownFlags(seg), values: words.map((w) => asWord(op, w)) };
    const reports = c.reports[c.episode & 1];
    for (let k = 0; k < this.children.length; k++) {
      if (reports.received[k] > 0) this.checkSame(rt, ch, c.op, op, c.length, reports.lengths[k]);
    }
    rt.computeOps({ calls: 1, stores: 3 + words.length });
    yield* this.sendUpIfReady(rt, ch);
  }

  *query(rt: Runtime, ch: Channel): Op<boolean> {
    rt.opStarted();
    yield* rt.pollBothTilEmpty();
    return this.channels[ch].isDone;
  }

  *complete(rt: Runtime, ch: Channel, what: string): Op<readonly number[]> {
    rt.opStarted();
    const c = this.channels[ch];
    yield* rt.pollBothUntil(() => c.isDone, what);
    return c.result;
  }

  /** Once this node has started and all children reported, passes the subtree summary up (or, at the root, down). */
  private *sendUpIfReady(rt: Runtime, ch: number): Op {
    const c = this.channels[ch];
    const reports = c.reports[c.episode & 1];
    if (!c.isWaitingForChildren || reports.complete < this.children.length) return;
    c.isWaitingForChildren = false;
    let total = c.own;
    for (const s of reports.summaries) total = compose(c.op, total, s!);
    rt.computeOps({ intOps: this.children.length * c.length, loads: this.children.length * c.length });
    if (this.parent < 0) {
      yield* this.distribute(rt, ch, modeOf(c.op) === REDUCE ? total : emptySummary(c.op, c.length));
    } else {
      const hdr = header(ch, c.episode & 1, c.op, this.childIndexAtParent(rt.self), c.length);
      yield* this.sendChunks(rt, this.parent, treeUp, hdr, total, false);
    }
  }

  private childIndexAtParent(self: number): number {
    // Children of p are p + 2^j in ascending order, so self = parent + 2^index.
    return Math.log2(self - this.parent);
  }

  /** Sends a summary in chunks of whole messages: [header, offset, flags, words...]. */
  private *sendChunks(rt: Runtime, dest: number, handler: typeof treeUp, hdr: number, s: Summary, rightToLeft: boolean): Op {
    const chunk = chunkWords(rt);
    const flags = s.flags === EMPTY ? 0xffffffff : s.flags;
    for (let offset = 0; offset < s.values.length; offset += chunk) {
      const words = s.values.slice(offset, offset + chunk);
      if (rightToLeft) yield* rt.sendBothRLPollBoth(dest, handler, hdr, offset, flags, ...words);
      else yield* rt.sendBothLRPollBoth(dest, handler, hdr, offset, flags, ...words);
    }
  }

  /** A chunk of a child's subtree summary arrived. */
  *receiveUp(rt: Runtime, hdr: number, offset: number, flags: number, words: readonly number[]): Op {
    const { ch, slot, op, child, length } = decodeHeader(hdr);
    const c = this.channels[ch];
    const reports = c.reports[slot];
    const started = !c.isDone && (c.episode & 1) === slot;
    if (started) this.checkSame(rt, ch, c.op, op, c.length, length);
    let s = reports.summaries[child];
    if (s === null) {
      s = { flags: flags === 0xffffffff ? EMPTY : flags, values: new Array<number>(length).fill(0) };
      reports.summaries[child] = s;
      reports.lengths[child] = length;
    }
    for (let i = 0; i < words.length; i++) s.values[offset + i] = words[i];
    reports.received[child] += words.length;
    rt.computeOps({ stores: words.length + 2, intOps: 1 });
    if (reports.received[child] === length) {
      reports.complete++;
      if (started) yield* this.sendUpIfReady(rt, ch);
    }
  }

  /** A chunk of what the parent sends down arrived; the whole of it starts the distribution. */
  *receiveDown(rt: Runtime, hdr: number, offset: number, flags: number, words: readonly number[]): Op {
    const { ch, op, length } = decodeHeader(hdr);
    const c = this.channels[ch];
    this.checkSame(rt, ch, c.op, op, c.length, length);
    if (c.down === null) {
      c.down = { flags: flags === 0xffffffff ? EMPTY : flags, values: new Array<number>(length).fill(0) };
      c.downReceived = 0;
    }
    for (let i = 0; i < words.length; i++) c.down.values[offset + i] = words[i];
    c.downReceived += words.length;
    rt.computeOps({ stores: words.length + 2, intOps: 1 });
    if (c.downReceived === length) {
      const down = c.down;
      c.down = null;
      yield* this.distribute(rt, ch, down);
    }
  }

  /**
   * This node learns what its subtree needs from outside it — the summary of all
   * nodes before it (scans), after it (back-scans) or the total (reductions) — takes
   * its own result and passes each child the same for the child's range, largest
   * subtree first.
   */
  private *distribute(rt: Runtime, ch: number, carried: Summary): Op {
    const c = this.channels[ch];
    const slot = c.episode & 1;
    const totals = c.reports[slot].summaries as Summary[];
    const n = totals.length;
    const toChild = new Array<Summary>(n);
    const mode = modeOf(c.op);
    const identity = (): number[] => new Array<number>(c.length).fill(identityOf(c.op));
    if (mode === SCAN) {
      c.result = firstBoundary(c.own.flags) === SegmentType.ElementBoundary ? identity() : carried.values;
      let run = compose(c.op, carried, c.own);
      for (let k = 0; k < n; k++) {
        toChild[k] = run;
        run = compose(c.op, run, totals[k]);
      }
    } else if (mode === BACKSCAN) {
      let after = carried;
      for (let k = n - 1; k >= 0; k--) {
        toChild[k] = after;
        after = compose(c.op, totals[k], after);
      }
      const restart = after.flags !== EMPTY && firstBoundary(after.flags) === SegmentType.ElementBoundary;
      c.result = restart ? identity() : after.values;
    } else {
      c.result = carried.values;
      toChild.fill(carried);
    }
    c.reports[slot].reset();
    c.isDone = true;
    rt.computeOps({ intOps: (2 * n + 2) * Math.max(1, c.length), loads: n * c.length });
    const hdr = header(ch, slot, c.op, 0, c.length);
    for (let k = n - 1; k >= 0; k--) yield* this.sendChunks(rt, this.children[k], treeDown, hdr, toChild[k], true);
  }

  /** Fails the run when another node used a different op or vector length in the same episode. */
  private checkSame(rt: Runtime, ch: number, mine: ReduceOp, theirs: number, myLength: number, theirLength: number): void {
    if (theirs !== mine) {
      throw new RunFailure(
        `node ${rt.self}: joined a ${CHANNEL_NAMES[ch]} with ${COMBINE_OP_NAMES[mine]} while another node used ${COMBINE_OP_NAMES[theirs] ?? theirs}`,
      );
    }
    if (theirLength !== myLength) {
      throw new RunFailure(
        `node ${rt.self}: joined a ${CHANNEL_NAMES[ch]} of ${myLength} elements while another node used ${theirLength}`,
      );
    }
  }

  // ---- broadcasts ----------------------------------------------------------------------

  *broadcast(rt: Runtime, words: readonly number[]): Op {
    rt.opStarted();
    const seq = this.broadcastsSent++ & 0xffff;
    yield* this.forwardBroadcast(rt, rt.self, 0, seq, words.length, 0, words);
  }

  *queryBroadcast(rt: Runtime): Op<boolean> {
    rt.opStarted();
    // On the data network a broadcast is complete, as far as the sender can know, once sent.
    rt.computeOps({ calls: 1 });
    return true;
  }

  *receiveBroadcast(rt: Runtime, what: string): Op<readonly number[]> {
    rt.opStarted();
    yield* rt.pollBothUntil(() => this.inbox.length > 0, what);
    rt.computeOps({ loads: 1 });
    return this.inbox.shift()!;
  }

  /** A chunk of a broadcast from `root` arrived: pass it on down the root's tree and keep it. */
  *receiveBroadcastChunk(rt: Runtime, rootAndSeq: number, length: number, offset: number, words: readonly number[]): Op {
    const root = rootAndSeq & 0xffff;
    const seq = rootAndSeq >>> 16;
    const rank = (rt.self - root + rt.partitionSize) % rt.partitionSize;
    yield* this.forwardBroadcast(rt, root, rank, seq, length, offset, words);
    let assembly = this.incoming.get(rootAndSeq);
    if (assembly === undefined) {
      assembly = { words: new Array<number>(length).fill(0), received: 0 };
      this.incoming.set(rootAndSeq, assembly);
    }
    for (let i = 0; i < words.length; i++) assembly.words[offset + i] = words[i];
    assembly.received += words.length;
    rt.computeOps({ stores: words.length + 2 });
    if (assembly.received === length) {
      this.incoming.delete(rootAndSeq);
      this.inbox.push(assembly.words);
    }
  }

  /** Sends words[offset...] of a broadcast to this node's children in the tree rooted at `root`, in chunks. */
  private *forwardBroadcast(rt: Runtime, root: number, rank: number, seq: number, length: number, offset: number, words: readonly number[]): Op {
    const p = rt.partitionSize;
    const kids = binomialChildren(rank, p);
    const chunk = chunkWords(rt);
    for (let k = kids.length - 1; k >= 0; k--) {
      const dest = (kids[k] + root) % p;
      for (let i = 0; i < words.length; i += chunk) {
        yield* rt.sendBothRLPollBoth(dest, treeBroadcast, root | (seq << 16), length, offset + i, ...words.slice(i, i + chunk));
      }
    }
  }

  // ---- asynchronous global OR --------------------------------------------------------

  *setAsyncOr(rt: Runtime, bit: boolean): Op {
    rt.opStarted();
    rt.computeOps({ calls: 1, stores: 1 });
    if (bit === this.asyncBit) return;
    this.asyncBit = bit;
    const delta = bit ? 1 : -1;
    if (rt.self === 0) yield* this.countAsync(rt, delta);
    else yield* rt.sendBothLRPollBoth(0, asyncDelta, delta);
  }

  *asyncOr(rt: Runtime): Op<boolean> {
    rt.opStarted();
    rt.computeOps({ loads: 1 });
    return this.asyncView;
  }

  /** Node 0: a node's bit changed by `delta`; when the OR changes, tell everyone. */
  *countAsync(rt: Runtime, delta: number): Op {
    this.asyncSetCount += delta;
    const view = this.asyncSetCount > 0;
    if (view === this.asyncView) return;
    this.asyncVersion++;
    yield* this.learnAsync(rt, this.asyncVersion, view);
  }

  /** The OR is `view` as of `version`; pass it down the tree unless already known. */
  *learnAsync(rt: Runtime, version: number, view: boolean): Op {
    if (rt.self !== 0 && version <= this.asyncVersion) return;
    this.asyncVersion = version;
    this.asyncView = view;
    for (let k = this.children.length - 1; k >= 0; k--) {
      yield* rt.sendBothRLPollBoth(this.children[k], asyncView, version, view ? 1 : 0);
    }
  }
}

/** Children of `rank` in a binomial tree of `size` ranks rooted at 0, ascending. */
function binomialChildren(rank: number, size: number): number[] {
  const children: number[] = [];
  const limit = rank === 0 ? size : rank & -rank;
  for (let step = 1; step < limit && rank + step < size; step *= 2) children.push(rank + step);
  return children;
}

function decodeHeader(hdr: number): { ch: number; slot: number; op: number; child: number; length: number } {
  const low = hdr % HEADER_LENGTH_SCALE;
  return {
    ch: low & 3,
    slot: (low >> 2) & 1,
    op: (low >> 3) & 31,
    child: (low >> 8) & 31,
    length: Math.floor(hdr / HEADER_LENGTH_SCALE),
  };
}

function ops(rt: Runtime): TreeOps {
  return rt.globalOps as TreeOps;
}

function* treeUp(rt: Runtime, hdr: number, offset: number, flags: number, ...words: number[]): Op {
  yield* ops(rt).receiveUp(rt, hdr, offset, flags, words);
}

function* treeDown(rt: Runtime, hdr: number, offset: number, flags: number, ...words: number[]): Op {
  yield* ops(rt).receiveDown(rt, hdr, offset, flags, words);
}

function* treeBroadcast(rt: Runtime, rootAndSeq: number, length: number, offset: number, ...words: number[]): Op {
  yield* ops(rt).receiveBroadcastChunk(rt, rootAndSeq, length, offset, words);
}

function* asyncDelta(rt: Runtime, delta: number): Op {
  yield* ops(rt).countAsync(rt, delta);
}

function* asyncView(rt: Runtime, version: number, view: number): Op {
  yield* ops(rt).learnAsync(rt, version, view !== 0);
}
