/**
 * Broadcasts and the asynchronous global OR as active messages over the data network,
 * for the platforms without a control network (thesis 6.2). A broadcast follows the
 * binomial tree of tree-combine.ts over node numbers relative to the broadcaster, in
 * chunks of as many words as a message carries; a node takes each root's broadcasts
 * in the order the root sent them, whatever order the network delivered them in.
 * The asynchronous global OR keeps the
 * count of set bits at node 0, which tells every node, down the tree, when the OR
 * changes.
 */
import type { Op } from '../machine/node.ts';
import type { BroadcastEngine } from './global-ops.ts';
import { engineHandler } from './handler-table.ts';
import { SEND_BOTH_LR_POLL_BOTH, SEND_BOTH_RL_POLL_BOTH } from './send-steps.ts';
import { binomialChildren, type TreeContext } from './tree-combine.ts';

/** A broadcast being assembled from its chunks. */
interface Incoming {
  words: number[];
  received: number;
}

export class TreeBroadcast implements BroadcastEngine {
  private readonly ctx: TreeContext;
  private readonly children: readonly number[];
  private broadcastsSent = 0;
  private readonly incoming = new Map<number, Incoming>();
  /** By root: the sequence number of the next broadcast to take from it. */
  private readonly nextSeq = new Map<number, number>();
  /** Broadcasts assembled ahead of an earlier one from the same root, by root and sequence number. */
  private readonly early = new Map<number, number[]>();
  private readonly inbox: number[][] = [];
  private asyncBit = true;
  /** Node 0 only: how many nodes' asynchronous-global-OR bits are set (all, after StrataInit). */
  private asyncSetCount: number;
  private asyncView = true;
  private asyncVersion = 0;

  constructor(ctx: TreeContext) {
    this.ctx = ctx;
    this.children = binomialChildren(ctx.self, ctx.nodes);
    this.asyncSetCount = ctx.nodes;
  }

  // ---- broadcasts ----------------------------------------------------------------------

  *broadcast(words: readonly number[]): Op {
    const seq = this.broadcastsSent++ & 0xffff;
    yield* this.forward(this.ctx.self, 0, seq, words.length, 0, words);
  }

  *queryBroadcast(): Op<boolean> {
    // On the data network a broadcast is complete, as far as the sender can know, once sent.
    this.ctx.work.computeOps({ calls: 1 });
    return true;
  }

  *receiveBroadcast(what: string): Op<readonly number[]> {
    const { guard, messaging, work } = this.ctx;
    yield* guard.nested(messaging.pollUntil(() => this.inbox.length > 0, what));
    work.computeOps({ loads: 1 });
    return this.inbox.shift()!;
  }

  /** A chunk of a broadcast from `root` arrived: pass it on down the root's tree and keep it. */
  *receiveChunk(rootAndSeq: number, length: number, offset: number, words: readonly number[]): Op {
    const root = rootAndSeq & 0xffff;
    const seq = rootAndSeq >>> 16;
    const { self, nodes } = this.ctx;
    const rank = (self - root + nodes) % nodes;
    yield* this.forward(root, rank, seq, length, offset, words);
    let assembly = this.incoming.get(rootAndSeq);
    if (assembly === undefined) {
      assembly = { words: new Array<number>(length).fill(0), received: 0 };
      this.incoming.set(rootAndSeq, assembly);
    }
    for (let i = 0; i < words.length; i++) assembly.words[offset + i] = words[i];
    assembly.received += words.length;
    this.ctx.work.computeOps({ stores: words.length + 2 });
    if (assembly.received === length) {
      this.incoming.delete(rootAndSeq);
      this.take(root, seq, assembly.words);
    }
  }

  /**
   * Puts broadcast `seq` from `root` in the inbox after those sent before it. Its
   * messages can overtake an earlier broadcast's on the other network: on 64 Alewife
   * nodes a receiveBroadcast after three back-to-back broadcasts got the double.
   */
  private take(root: number, seq: number, words: number[]): void {
    let next = this.nextSeq.get(root) ?? 0;
    if (seq !== next) {
      this.early.set(root | (seq << 16), words);
      return;
    }
    let ready: number[] | undefined = words;
    while (ready !== undefined) {
      this.inbox.push(ready);
      next = (next + 1) & 0xffff;
      ready = this.early.get(root | (next << 16));
      this.early.delete(root | (next << 16));
    }
    this.nextSeq.set(root, next);
  }

  /** Sends words[offset...] of a broadcast to this node's children in the tree rooted at `root`, in chunks. */
  private *forward(root: number, rank: number, seq: number, length: number, offset: number, words: readonly number[]): Op {
    const { nodes, chunkWords, guard, messaging } = this.ctx;
    const kids = binomialChildren(rank, nodes);
    for (let k = kids.length - 1; k >= 0; k--) {
      const dest = (kids[k] + root) % nodes;
      for (let i = 0; i < words.length; i += chunkWords) {
        const args = [root | (seq << 16), length, offset + i, ...words.slice(i, i + chunkWords)];
        yield* guard.nested(messaging.send(SEND_BOTH_RL_POLL_BOTH, dest, treeBroadcast, args));
      }
    }
  }

  // ---- asynchronous global OR --------------------------------------------------------

  *setAsyncOr(bit: boolean): Op {
    const { self, guard, messaging, work } = this.ctx;
    work.computeOps({ calls: 1, stores: 1 });
    if (bit === this.asyncBit) return;
    this.asyncBit = bit;
    const delta = bit ? 1 : -1;
    if (self === 0) yield* this.countAsync(delta);
    else yield* guard.nested(messaging.send(SEND_BOTH_LR_POLL_BOTH, 0, asyncDelta, [delta]));
  }

  *asyncOr(): Op<boolean> {
    this.ctx.work.computeOps({ loads: 1 });
    return this.asyncView;
  }

  /** Node 0: a node's bit changed by `delta`; when the OR changes, tell everyone. */
  *countAsync(delta: number): Op {
    this.asyncSetCount += delta;
    const view = this.asyncSetCount > 0;
    if (view === this.asyncView) return;
    this.asyncVersion++;
    yield* this.learnAsync(this.asyncVersion, view);
  }

  /** The OR is `view` as of `version`; pass it down the tree unless already known. */
  *learnAsync(version: number, view: boolean): Op {
    const { self, guard, messaging } = this.ctx;
    if (self !== 0 && version <= this.asyncVersion) return;
    this.asyncVersion = version;
    this.asyncView = view;
    for (let k = this.children.length - 1; k >= 0; k--) {
      yield* guard.nested(messaging.send(SEND_BOTH_RL_POLL_BOTH, this.children[k], asyncView, [version, view ? 1 : 0]));
    }
  }
}

/** What the broadcast handlers reach on the receiving node. */
interface BroadcastEngines {
  readonly broadcasts: unknown;
}

function engine(e: BroadcastEngines): TreeBroadcast {
  return e.broadcasts as TreeBroadcast;
}

const treeBroadcast = engineHandler(function* treeBroadcast(e: BroadcastEngines, rootAndSeq: number, length: number, offset: number, ...words: number[]): Op {
  yield* engine(e).receiveChunk(rootAndSeq, length, offset, words);
});

const asyncDelta = engineHandler(function* asyncDelta(e: BroadcastEngines, delta: number): Op {
  yield* engine(e).countAsync(delta);
});

const asyncView = engineHandler(function* asyncView(e: BroadcastEngines, version: number, view: number): Op {
  yield* engine(e).learnAsync(version, view !== 0);
});
