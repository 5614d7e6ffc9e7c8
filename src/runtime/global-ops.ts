/**
 * The contract for Strata's synchronous global operations (barriers, integer
 * combines). Two implementations: control-ops.ts on the CM-5's control network and
 * tree-ops.ts as combining trees of active messages on the data network (thesis 6.2).
 * Each node has its own instance; methods are the bodies behind the Runtime's
 * split-phase calls and must call `rt.opStarted()` first.
 */
import type { Op } from '../machine/node.ts';
import type { CombineOp } from '../network/combine.ts';
import type { Runtime } from './runtime.ts';

export interface GlobalOps {
  startBarrier(rt: Runtime): Op;
  queryBarrier(rt: Runtime): Op<boolean>;
  completeBarrier(rt: Runtime): Op;
  startCombineInt(rt: Runtime, value: number, op: CombineOp): Op;
  queryCombineInt(rt: Runtime): Op<boolean>;
  completeCombineInt(rt: Runtime): Op<number>;
}
