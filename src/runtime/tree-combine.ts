/**
 * Global ORs and combines as combining trees of active messages over the data
 * network, for the platforms without a control network (thesis 6.2: Strata on
 * PROTEUS). Their cost therefore grows with log P and depends on polling: a node that
 * is not polling holds up its subtree. Vectors travel in chunks of as many words as
 * an active message carries and are not pipelined up or down the tree, which is what
 * gives the PROTEUS platforms' CombineVector models their length·logP term (6.2).
 *
 * The tree is binomial and rooted at node 0: parent(i) is i with its lowest set bit
 * cleared, and the children of i are i + 2^j for every 2^j below i's lowest set bit
 * (every 2^j < P for node 0). Each subtree is a contiguous range of node numbers, so
 * scans come out in node order; values go up as subtree summaries (scan-algebra.ts)
 * and the root sends down what each subtree needs.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { asWord, CHANNEL_NAMES, COMBINE_OP_NAMES, modeOf, REDUCE, SegmentType, type CombineChannel, type ReduceOp } from '../network/combine.ts';
import type { CombineEngine } from './global-ops.ts';
import { engineHandler, type PacketHandler } from './handler-table.ts';
import type { LocalWork } from './local-work.ts';
import type { Messaging } from './messaging.ts';
import type { OpGuard } from './op-guard.ts';
import { compose, distribute, emptySummary, flagsFromWord, flagsToWord, ownFlags, type Summary } from './scan-algebra.ts';
import { SEND_BOTH_LR_POLL_BOTH, SEND_BOTH_RL_POLL_BOTH } from './send-steps.ts';

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

/** A chunk's message arguments: [header, offset, flags, values[offset .. offset + chunkWords)], made in one array rather than sliced and spread. */
function chunkArgs(hdr: number, offset: number, flags: number, values: readonly number[], chunkWords: number): number[] {
  const args = [hdr, offset, flags];
  const end = Math.min(offset + chunkWords, values.length);
  for (let e = offset; e < end; e++) args.push(values[e]);
  return args;
}

/** Header words: channel (2 bits), episode parity, op (5 bits), child index (5 bits), then the vector length. */
const HEADER_LENGTH_SCALE = 8192;
/** Longest vector a header can announce. */
export const MAX_TREE_VECTOR = 2 ** 19 - 1;

function header(ch: number, slot: number, op: number, child: number, length: number): number {
  return (ch | (slot << 2) | (op << 3) | (child << 8)) + length * HEADER_LENGTH_SCALE;
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

/** Children of `rank` in a binomial tree of `size` ranks rooted at 0, ascending. */
export function binomialChildren(rank: number, size: number): number[] {
  const children: number[] = [];
  const limit = rank === 0 ? size : rank & -rank;
  for (let step = 1; step < limit && rank + step < size; step *= 2) children.push(rank + step);
  return children;
}

/** What a tree node needs of the rest of its node's runtime. */
export interface TreeContext {
  readonly self: number;
  readonly nodes: number;
  /** Vector words per message after the header, offset and flags words (the platform carries at least 4 argument words). */
  readonly chunkWords: number;
  readonly guard: OpGuard;
  readonly messaging: Messaging;
  readonly work: LocalWork;
}

export class TreeCombine implements CombineEngine {
  readonly parent: number;
  /** Children in ascending node order; child k's subtree is [children[k], children[k] + size). */
  readonly children: readonly number[];
  private readonly channels: ChannelState[];
  private readonly ctx: TreeContext;

  constructor(ctx: TreeContext) {
    const self = ctx.self;
    this.ctx = ctx;
    this.parent = self === 0 ? -1 : self - (self & -self);
    this.children = binomialChildren(self, ctx.nodes);
    this.channels = [0, 1, 2].map(() => new ChannelState(this.children.length));
  }

  *start(ch: CombineChannel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op {
    const self = this.ctx.self;
    const c = this.channels[ch];
    if (!c.isDone) {
      throw new RunFailure(`node ${self}: started a ${CHANNEL_NAMES[ch]} before its previous one completed`);
    }
    if (words.length > MAX_TREE_VECTOR) {
      throw new RunFailure(`node ${self}: a ${CHANNEL_NAMES[ch]} of ${words.length} elements; at most ${MAX_TREE_VECTOR} here`);
    }
    c.episode++;
    c.isDone = false;
    c.isWaitingForChildren = true;
    c.op = op;
    const seg = modeOf(op) === REDUCE ? SegmentType.NoBoundary : segment;
    c.own = { flags: ownFlags(seg), values: words.map((w) => asWord(op, w)) };
    const reports = c.reports[c.episode & 1];
    for (let k = 0; k < this.children.length; k++) {
      if (reports.received[k] > 0) this.checkSame(ch, c.op, op, c.length, reports.lengths[k]);
    }
    this.ctx.work.computeOps({ calls: 1, stores: 3 + words.length });
    yield* this.sendUpIfReady(ch);
  }

  *query(ch: CombineChannel): Op<boolean> {
    const { guard, messaging } = this.ctx;
    yield* guard.nested(messaging.drainBoth());
    return this.channels[ch].isDone;
  }

  *complete(ch: CombineChannel, what: string): Op<readonly number[]> {
    const { guard, messaging } = this.ctx;
    const c = this.channels[ch];
    yield* guard.nested(messaging.pollUntil(() => c.isDone, what));
    return c.result;
  }

  /** Once this node has started and all children reported, passes the subtree summary up (or, at the root, down). */
  private *sendUpIfReady(ch: number): Op {
    const c = this.channels[ch];
    const reports = c.reports[c.episode & 1];
    if (!c.isWaitingForChildren || reports.complete < this.children.length) return;
    c.isWaitingForChildren = false;
    let total = c.own;
    for (const s of reports.summaries) total = compose(c.op, total, s!);
    this.ctx.work.computeOps({ intOps: this.children.length * c.length, loads: this.children.length * c.length });
    if (this.parent < 0) {
      yield* this.distributeDown(ch, modeOf(c.op) === REDUCE ? total : emptySummary(c.op, c.length));
    } else {
      // Children of p are p + 2^j in ascending order, so self = parent + 2^index.
      const index = Math.log2(this.ctx.self - this.parent);
      yield* this.sendChunks(this.parent, treeUp, header(ch, c.episode & 1, c.op, index, c.length), total, false);
    }
  }

  /** Sends a summary in chunks of whole messages: [header, offset, flags, words...]. */
  private *sendChunks(dest: number, handler: PacketHandler, hdr: number, s: Summary, rightToLeft: boolean): Op {
    const { guard, messaging, chunkWords } = this.ctx;
    const flags = flagsToWord(s.flags);
    const steps = rightToLeft ? SEND_BOTH_RL_POLL_BOTH : SEND_BOTH_LR_POLL_BOTH;
    for (let offset = 0; offset < s.values.length; offset += chunkWords) {
      yield* guard.nested(messaging.send(steps, dest, handler, chunkArgs(hdr, offset, flags, s.values, chunkWords)));
    }
  }

  /** A chunk of a child's subtree summary arrived. */
  *receiveUp(hdr: number, offset: number, flags: number, words: readonly number[]): Op {
    const { ch, slot, op, child, length } = decodeHeader(hdr);
    const c = this.channels[ch];
    const reports = c.reports[slot];
    const started = !c.isDone && (c.episode & 1) === slot;
    if (started) this.checkSame(ch, c.op, op, c.length, length);
    let s = reports.summaries[child];
    if (s === null) {
      s = { flags: flagsFromWord(flags), values: new Array<number>(length).fill(0) };
      reports.summaries[child] = s;
      reports.lengths[child] = length;
    }
    for (let i = 0; i < words.length; i++) s.values[offset + i] = words[i];
    reports.received[child] += words.length;
    this.ctx.work.computeOps({ stores: words.length + 2, intOps: 1 });
    if (reports.received[child] === length) {
      reports.complete++;
      if (started) yield* this.sendUpIfReady(ch);
    }
  }

  /** A chunk of what the parent sends down arrived; the whole of it starts the distribution. */
  *receiveDown(hdr: number, offset: number, flags: number, words: readonly number[]): Op {
    const { ch, op, length } = decodeHeader(hdr);
    const c = this.channels[ch];
    this.checkSame(ch, c.op, op, c.length, length);
    if (c.down === null) {
      c.down = { flags: flagsFromWord(flags), values: new Array<number>(length).fill(0) };
      c.downReceived = 0;
    }
    for (let i = 0; i < words.length; i++) c.down.values[offset + i] = words[i];
    c.downReceived += words.length;
    this.ctx.work.computeOps({ stores: words.length + 2, intOps: 1 });
    if (c.downReceived === length) {
      const down = c.down;
      c.down = null;
      yield* this.distributeDown(ch, down);
    }
  }

  /**
   * This node learns what its subtree needs from outside it, takes its own result and
   * passes each child the same for the child's range, largest subtree first.
   */
  private *distributeDown(ch: number, carried: Summary): Op {
    const c = this.channels[ch];
    const slot = c.episode & 1;
    const totals = c.reports[slot].summaries as Summary[];
    const n = totals.length;
    const { result, toChild } = distribute(c.op, carried, c.own, totals);
    c.result = result;
    c.reports[slot].reset();
    c.isDone = true;
    this.ctx.work.computeOps({ intOps: (2 * n + 2) * Math.max(1, c.length), loads: n * c.length });
    const hdr = header(ch, slot, c.op, 0, c.length);
    for (let k = n - 1; k >= 0; k--) yield* this.sendChunks(this.children[k], treeDown, hdr, toChild[k], true);
  }

  /** Fails the run when another node used a different op or vector length in the same episode. */
  private checkSame(ch: number, mine: ReduceOp, theirs: number, myLength: number, theirLength: number): void {
    const self = this.ctx.self;
    if (theirs !== mine) {
      throw new RunFailure(
        `node ${self}: joined a ${CHANNEL_NAMES[ch]} with ${COMBINE_OP_NAMES[mine]} while another node used ${COMBINE_OP_NAMES[theirs] ?? theirs}`,
      );
    }
    if (theirLength !== myLength) {
      throw new RunFailure(`node ${self}: joined a ${CHANNEL_NAMES[ch]} of ${myLength} elements while another node used ${theirLength}`);
    }
  }
}

/** What the tree's handlers reach on the receiving node. */
interface TreeEngines {
  readonly combines: unknown;
}

const treeUp = engineHandler(function* treeUp(e: TreeEngines, hdr: number, offset: number, flags: number, ...words: number[]): Op {
  yield* (e.combines as TreeCombine).receiveUp(hdr, offset, flags, words);
});

const treeDown = engineHandler(function* treeDown(e: TreeEngines, hdr: number, offset: number, flags: number, ...words: number[]): Op {
  yield* (e.combines as TreeCombine).receiveDown(hdr, offset, flags, words);
});
