/**
 * Global operations as combining trees of active messages over the data network, for
 * the platforms without a control network (thesis 6.2: Strata on PROTEUS). Their cost
 * therefore grows with log P and depends on polling: a node that is not polling
 * holds up its subtree.
 *
 * The tree is binomial and rooted at node 0: parent(i) is i with its lowest set bit
 * cleared, and the children of i are i + 2^j for every 2^j below i's lowest set bit
 * (every 2^j < P for node 0). Each subtree is a contiguous range of node numbers, so
 * scans come out in node order without commutativity. Values go up as subtree totals;
 * the root sends down, to each child, the combination of everything before and after
 * that child's range, from which each node computes its scan, back-scan or reduction.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import {
  asWord,
  BACKSCAN,
  COMBINE_OP_NAMES,
  CombineOp,
  combineWords,
  identityOf,
  modeOf,
  SCAN,
} from '../network/combine.ts';
import type { GlobalOps } from './global-ops.ts';
import type { Runtime } from './runtime.ts';

const BARRIER = 0;
const COMBINE = 1;
const CHANNEL_NAMES = ['barrier', 'combine'];

/** One kind of global operation at one node. Reports from children are kept per episode parity. */
class Channel {
  /** Last episode this node started (-1: none). */
  episode = -1;
  isDone = true;
  isWaitingForChildren = false;
  value = 0;
  op: CombineOp = CombineOp.ReduceOr;
  result = 0;
  readonly reports = [0, 0];
  readonly childTotals: number[][];

  constructor(children: number) {
    this.childTotals = [new Array<number>(children).fill(0), new Array<number>(children).fill(0)];
  }
}

export class TreeOps implements GlobalOps {
  readonly parent: number;
  /** Children in ascending node order; child k's subtree is [children[k], children[k] + size). */
  readonly children: readonly number[];
  private readonly channels: Channel[];

  constructor(self: number, nodes: number) {
    this.parent = self === 0 ? -1 : self - (self & -self);
    const children: number[] = [];
    const limit = self === 0 ? nodes : self & -self;
    for (let step = 1; step < limit && self + step < nodes; step *= 2) children.push(self + step);
    this.children = children;
    this.channels = [new Channel(children.length), new Channel(children.length)];
  }

  *startBarrier(rt: Runtime): Op {
    rt.opStarted();
    yield* this.start(rt, BARRIER, 0, CombineOp.ReduceOr);
  }

  *queryBarrier(rt: Runtime): Op<boolean> {
    rt.opStarted();
    return yield* this.query(rt, BARRIER);
  }

  *completeBarrier(rt: Runtime): Op {
    rt.opStarted();
    yield* this.complete(rt, BARRIER, 'completeBarrier');
  }

  *startCombineInt(rt: Runtime, value: number, op: CombineOp): Op {
    rt.opStarted();
    yield* this.start(rt, COMBINE, value, op);
  }

  *queryCombineInt(rt: Runtime): Op<boolean> {
    rt.opStarted();
    return yield* this.query(rt, COMBINE);
  }

  *completeCombineInt(rt: Runtime): Op<number> {
    rt.opStarted();
    yield* this.complete(rt, COMBINE, 'completeCombineInt');
    return this.channels[COMBINE].result;
  }

  private *start(rt: Runtime, ch: number, value: number, op: CombineOp): Op {
    const c = this.channels[ch];
    if (!c.isDone) {
      throw new RunFailure(`node ${rt.self}: started a ${CHANNEL_NAMES[ch]} before its previous one completed`);
    }
    c.episode++;
    c.isDone = false;
    c.isWaitingForChildren = true;
    c.op = op;
    c.value = asWord(op, value);
    rt.computeOps({ calls: 1, stores: 3 });
    yield* this.sendUpIfReady(rt, ch);
  }

  private *query(rt: Runtime, ch: number): Op<boolean> {
    yield* rt.pollBothTilEmpty();
    return this.channels[ch].isDone;
  }

  private *complete(rt: Runtime, ch: number, what: string): Op {
    const c = this.channels[ch];
    yield* rt.pollBothUntil(() => c.isDone, what);
  }

  /** Once this node has started and all children reported, passes the subtree total up (or, at the root, down). */
  private *sendUpIfReady(rt: Runtime, ch: number): Op {
    const c = this.channels[ch];
    const slot = c.episode & 1;
    if (!c.isWaitingForChildren || c.reports[slot] < this.children.length) return;
    c.isWaitingForChildren = false;
    c.reports[slot] = 0;
    let total = c.value;
    const totals = c.childTotals[slot];
    for (let k = 0; k < totals.length; k++) total = combineWords(c.op, total, totals[k]);
    rt.computeOps({ intOps: totals.length, loads: totals.length });
    if (this.parent < 0) {
      const id = identityOf(c.op);
      yield* this.distribute(rt, ch, c.episode, id, id, total);
    } else {
      yield* rt.sendBothLRPollBoth(this.parent, treeUp, ch, c.episode, c.op, total, rt.self);
    }
  }

  /** A child's subtree total arrived. */
  *receiveUp(rt: Runtime, ch: number, episode: number, op: number, total: number, child: number): Op {
    const c = this.channels[ch];
    const slot = episode & 1;
    c.childTotals[slot][this.children.indexOf(child)] = total;
    c.reports[slot]++;
    rt.computeOps({ stores: 2, intOps: 1 });
    if (c.episode === episode) {
      this.checkSameOp(rt, ch, op);
      yield* this.sendUpIfReady(rt, ch);
    }
  }

  /**
   * This node learns the combination of all values before (`prefix`) and after
   * (`suffix`) its subtree's range, and the total: it takes its own result and passes
   * each child the same for the child's range, largest subtree first.
   */
  *distribute(rt: Runtime, ch: number, episode: number, prefix: number, suffix: number, total: number): Op {
    const c = this.channels[ch];
    const totals = c.childTotals[episode & 1];
    const n = totals.length;
    const childPrefix = new Array<number>(n);
    const childSuffix = new Array<number>(n);
    let run = combineWords(c.op, prefix, c.value);
    for (let k = 0; k < n; k++) {
      childPrefix[k] = run;
      run = combineWords(c.op, run, totals[k]);
    }
    let after = suffix;
    for (let k = n - 1; k >= 0; k--) {
      childSuffix[k] = after;
      after = combineWords(c.op, totals[k], after);
    }
    const mode = modeOf(c.op);
    c.result = mode === SCAN ? prefix : mode === BACKSCAN ? after : total;
    c.isDone = true;
    rt.computeOps({ intOps: 2 * n + 2, loads: n });
    for (let k = n - 1; k >= 0; k--) {
      yield* rt.sendBothRLPollBoth(this.children[k], treeDown, ch, episode, c.op, childPrefix[k], childSuffix[k], total);
    }
  }

  /** Fails the run when another node used a different combine op in the same episode. */
  checkSameOp(rt: Runtime, ch: number, op: number): void {
    const mine = this.channels[ch].op;
    if (op !== mine) {
      throw new RunFailure(
        `node ${rt.self}: joined a ${CHANNEL_NAMES[ch]} with ${COMBINE_OP_NAMES[mine]} while another node used ${COMBINE_OP_NAMES[op] ?? op}`,
      );
    }
  }
}

function* treeUp(rt: Runtime, ch: number, episode: number, op: number, total: number, child: number): Op {
  yield* (rt.globalOps as TreeOps).receiveUp(rt, ch, episode, op, total, child);
}

function* treeDown(rt: Runtime, ch: number, episode: number, op: number, prefix: number, suffix: number, total: number): Op {
  const ops = rt.globalOps as TreeOps;
  ops.checkSameOp(rt, ch, op);
  yield* ops.distribute(rt, ch, episode, prefix, suffix, total);
}
