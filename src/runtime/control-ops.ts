/**
 * Global operations on the CM-5's control network (Appendix A 4): the processor
 * pays `startCycles` to start an operation and `queryCycles` per completion check;
 * the network finishes a fixed latency after the last node starts, whatever the data
 * networks carry. Waiting does not poll the data network (Strata's CompleteBarrier
 * spins on the control network only; use the split-phase calls to keep receiving).
 */
import type { Node, Op } from '../machine/node.ts';
import { WAKE_CONTROL } from '../machine/node.ts';
import type { ReduceOp, SegmentType } from '../network/combine.ts';
import type { ControlNetwork } from '../network/control-network.ts';
import type { ControlNetworkParams } from '../platform/schema.ts';
import type { Channel, GlobalOps } from './global-ops.ts';
import type { Runtime } from './runtime.ts';

export class ControlOps implements GlobalOps {
  private readonly control: ControlNetwork;
  private readonly params: ControlNetworkParams;

  constructor(control: ControlNetwork, params: ControlNetworkParams) {
    this.control = control;
    this.params = params;
  }

  *start(rt: Runtime, channel: Channel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op {
    rt.opStarted();
    yield* this.begin(rt.node);
    this.control.join(channel, rt.self, op, words, segment);
  }

  *query(rt: Runtime, channel: Channel): Op<boolean> {
    rt.opStarted();
    return yield* this.check(rt.node, () => this.control.isComplete(channel, rt.self));
  }

  *complete(rt: Runtime, channel: Channel, what: string): Op<readonly number[]> {
    rt.opStarted();
    yield* this.waitFor(rt.node, () => this.control.isComplete(channel, rt.self), what);
    return this.control.result(channel, rt.self);
  }

  *broadcast(rt: Runtime, words: readonly number[]): Op {
    rt.opStarted();
    yield* this.begin(rt.node);
    this.control.startBroadcast(rt.self, words);
  }

  *queryBroadcast(rt: Runtime): Op<boolean> {
    rt.opStarted();
    return yield* this.check(rt.node, () => this.control.isBroadcastDelivered(rt.self));
  }

  *receiveBroadcast(rt: Runtime, what: string): Op<readonly number[]> {
    rt.opStarted();
    yield* this.waitFor(rt.node, () => this.control.hasBroadcast(rt.self), what);
    return this.control.takeBroadcast(rt.self);
  }

  *setAsyncOr(rt: Runtime, bit: boolean): Op {
    rt.opStarted();
    yield* this.begin(rt.node);
    this.control.setAsyncOr(rt.self, bit);
  }

  *asyncOr(rt: Runtime): Op<boolean> {
    rt.opStarted();
    return yield* this.check(rt.node, () => this.control.asyncOr);
  }

  private *begin(node: Node): Op {
    node.charge(this.params.startCycles);
    yield* node.sync();
  }

  private *check(node: Node, isDone: () => boolean): Op<boolean> {
    yield* node.sync();
    const done = isDone();
    node.charge(this.params.queryCycles);
    return done;
  }

  /** Spins on completion checks of `queryCycles` each until `isDone`. */
  private *waitFor(node: Node, isDone: () => boolean, what: string): Op {
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
