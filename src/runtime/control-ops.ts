/**
 * Global operations on the CM-5's control network (Appendix A 4): the processor
 * pays `startCycles` to start an operation and `queryCycles` per completion check;
 * the network finishes a fixed latency after the last node starts, whatever the data
 * networks carry. Waiting does not poll the data network (Strata's CompleteBarrier
 * spins on the control network only; use the split-phase calls to keep receiving).
 */
import type { Node, Op } from '../machine/node.ts';
import { WAKE_CONTROL } from '../machine/node.ts';
import type { CombineChannel, ReduceOp, SegmentType } from '../network/combine.ts';
import type { ControlNetwork } from '../network/control-network.ts';
import type { ControlNetworkParams } from '../platform/schema.ts';
import type { BroadcastEngine, CombineEngine } from './global-ops.ts';

export class ControlOps implements CombineEngine, BroadcastEngine {
  private readonly node: Node;
  private readonly control: ControlNetwork;
  private readonly params: ControlNetworkParams;

  constructor(node: Node, control: ControlNetwork, params: ControlNetworkParams) {
    this.node = node;
    this.control = control;
    this.params = params;
  }

  *start(channel: CombineChannel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op {
    yield* this.begin();
    this.control.join(channel, this.node.id, op, words, segment);
  }

  *query(channel: CombineChannel): Op<boolean> {
    return yield* this.check(() => this.control.isComplete(channel, this.node.id));
  }

  *complete(channel: CombineChannel, what: string): Op<readonly number[]> {
    yield* this.waitFor(() => this.control.isComplete(channel, this.node.id), what);
    return this.control.result(channel, this.node.id);
  }

  *broadcast(words: readonly number[]): Op {
    yield* this.begin();
    this.control.startBroadcast(this.node.id, words);
  }

  *queryBroadcast(): Op<boolean> {
    return yield* this.check(() => this.control.isBroadcastDelivered(this.node.id));
  }

  *receiveBroadcast(what: string): Op<readonly number[]> {
    yield* this.waitFor(() => this.control.hasBroadcast(this.node.id), what);
    return this.control.takeBroadcast(this.node.id);
  }

  *setAsyncOr(bit: boolean): Op {
    yield* this.begin();
    this.control.setAsyncOr(this.node.id, bit);
  }

  *asyncOr(): Op<boolean> {
    return yield* this.check(() => this.control.asyncOr);
  }

  private *begin(): Op {
    this.node.charge(this.params.startCycles);
    yield* this.node.sync();
  }

  private *check(isDone: () => boolean): Op<boolean> {
    const node = this.node;
    yield* node.sync();
    const done = isDone();
    node.charge(this.params.queryCycles);
    return done;
  }

  /** Spins on completion checks of `queryCycles` each until `isDone`. */
  private *waitFor(isDone: () => boolean, what: string): Op {
    const node = this.node;
    const q = this.params.queryCycles;
    for (;;) {
      yield* node.sync();
      if (isDone()) {
        node.charge(q);
        return;
      }
      node.chargeSpin(q);
      yield* node.idle(q, WAKE_CONTROL, what, isDone);
    }
  }
}
