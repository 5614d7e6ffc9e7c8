/**
 * The contract between the collective operations apps call (collectives.ts,
 * broadcasts.ts) and the machinery that carries them (Appendix A 4): global ORs
 * (barriers), integer and vector combines, broadcasts and the asynchronous global
 * OR. Two implementations, one per node: control-ops.ts on the CM-5's control
 * network, and combining trees of active messages on the data network (thesis 6.2:
 * tree-combine.ts and tree-broadcast.ts). Every method is the body of an operation:
 * callers run it through the node's OpGuard.
 */
import type { Op } from '../machine/node.ts';
import type { CombineChannel, ReduceOp, SegmentType } from '../network/combine.ts';

/** Global ORs and combines: one episode of each channel at a time per node. */
export interface CombineEngine {
  /**
   * Joins the next episode of `channel`: this node contributes `words` (every node the
   * same length) with segment boundary `segment` (ignored by reductions).
   */
  start(channel: CombineChannel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op;
  /** Whether the last episode of `channel` this node joined has completed. */
  query(channel: CombineChannel): Op<boolean>;
  /** Waits for the last episode of `channel` and returns this node's result vector. */
  complete(channel: CombineChannel, what: string): Op<readonly number[]>;
}

/** Broadcasts (Appendix A 4.4) and the asynchronous global OR (4.2). */
export interface BroadcastEngine {
  /**
   * Sends `words` to every other node. `units`: how many broadcasts' worth they are on
   * the control network, a word each but a double one (Table 1); the trees ignore it.
   */
  broadcast(words: readonly number[], units?: number): Op;
  /** Whether this node's last broadcast has completed. */
  queryBroadcast(): Op<boolean>;
  /** Waits for the next broadcast from another node and returns its words. */
  receiveBroadcast(what: string): Op<readonly number[]>;
  /** Sets this node's asynchronous-global-OR bit. */
  setAsyncOr(bit: boolean): Op;
  /** The asynchronous global OR as this node currently sees it. */
  asyncOr(): Op<boolean>;
}
