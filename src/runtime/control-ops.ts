/**
 * Global operations on the CM-5's control network (Appendix A 4): the processor
 * pays `startCycles` to start an operation and `queryCycles` per completion check;
 * the network finishes a fixed latency after the last node starts, whatever the data
 * networks carry. Waiting does not poll the data network (Strata's CompleteBarrier
 * spins on the control network only; use the split-phase calls to keep receiving).
 */
import type { Node, Op } from '../machine/node.ts';
import { WAKE_CONTROL } from '../machine/node.ts';
import type { CombineOp } from '../network/combine.ts';
import { BARRIER_CHANNEL, COMBINE_CHANNEL, type ControlNetwork } from '../network/control-network.ts';
import type { ControlNetworkParams } from '../platform/schema.ts';
import type { GlobalOps } from './global-ops.ts';
import type { Runtime } from './runtime.ts';

export class ControlOps implements GlobalOps {
  private readonly control: ControlNetwork;
  private readonly params: ControlNetworkParams;

  constructor(control: ControlNetwork, params: ControlNetworkParams) {
    this.control = control;
    this.params = params;
  }

  *startBarrier(rt: Runtime): Op {
    rt.opStarted();
    yield* this.start(rt.node);
    this.control.joinBarrier(rt.node.id);
  }

  *queryBarrier(rt: Runtime): Op<boolean> {
    rt.opStarted();
    return yield* this.query(rt.node, BARRIER_CHANNEL);
  }

  *completeBarrier(rt: Runtime): Op {
    rt.opStarted();
    yield* this.waitFor(rt.node, BARRIER_CHANNEL, 'completeBarrier');
  }

  *startCombineInt(rt: Runtime, value: number, op: CombineOp): Op {
    rt.opStarted();
    yield* this.start(rt.node);
    this.control.joinCombine(rt.node.id, value, op);
  }

  *queryCombineInt(rt: Runtime): Op<boolean> {
    rt.opStarted();
    return yield* this.query(rt.node, COMBINE_CHANNEL);
  }

  *completeCombineInt(rt: Runtime): Op<number> {
    rt.opStarted();
    yield* this.waitFor(rt.node, COMBINE_CHANNEL, 'completeCombineInt');
    return this.control.combineResult(rt.node.id);
  }

  private *start(node: Node): Op {
    node.charge(this.params.startCycles);
    yield* node.sync();
  }

  private *query(node: Node, channel: number): Op<boolean> {
    yield* node.sync();
    const done = this.control.isComplete(channel, node.id);
    node.charge(this.params.queryCycles);
    return done;
  }

  /** Spins on completion checks of `queryCycles` each until the channel completes. */
  private *waitFor(node: Node, channel: number, what: string): Op {
    const q = this.params.queryCycles;
    const isDone = (): boolean => this.control.isComplete(channel, node.id);
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
