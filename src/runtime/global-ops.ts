/**
 * The contract for Strata's global operations (Appendix A 4): global ORs (barriers),
 * integer and vector combines, broadcasts and the asynchronous global OR. Two
 * implementations: control-ops.ts on the CM-5's control network and tree-ops.ts as
 * combining trees of active messages on the data network (thesis 6.2). Each node
 * has its own instance (or shares a stateless one); every method that returns an Op
 * is the body behind a Runtime call and must call `rt.opStarted()` first.
 */
import type { Op } from '../machine/node.ts';
import type { ReduceOp, SegmentType } from '../network/combine.ts';
import type { Runtime } from './runtime.ts';

/** Global OR; a barrier is GlobalOR(false) (Appendix A 4.1). */
export const GLOBAL_OR = 0;
/** CombineInt and the composite reductions built on it. */
export const COMBINE = 1;
/** CombineVector. */
export const VECTOR = 2;
export type Channel = typeof GLOBAL_OR | typeof COMBINE | typeof VECTOR;

export interface GlobalOps {
  /**
   * Joins the next episode of `channel`: this node contributes `words` (every node the
   * same length) with segment boundary `segment` (ignored by reductions).
   */
  start(rt: Runtime, channel: Channel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op;
  /** Whether the last episode of `channel` this node joined has completed. */
  query(rt: Runtime, channel: Channel): Op<boolean>;
  /** Waits for the last episode of `channel` and returns this node's result vector. */
  complete(rt: Runtime, channel: Channel, what: string): Op<readonly number[]>;
  /** Sends `words` to every other node (Appendix A 4.4). */
  broadcast(rt: Runtime, words: readonly number[]): Op;
  /** Whether this node's last broadcast has completed. */
  queryBroadcast(rt: Runtime): Op<boolean>;
  /** Waits for the next broadcast from another node and returns its words. */
  receiveBroadcast(rt: Runtime, what: string): Op<readonly number[]>;
  /** Sets this node's asynchronous-global-OR bit. */
  setAsyncOr(rt: Runtime, bit: boolean): Op;
  /** The asynchronous global OR as this node currently sees it. */
  asyncOr(rt: Runtime): Op<boolean>;
}
