/**
 * The reduction of a stencil iteration as the 'sends' chain (stencil-chain.ts) counts
 * it: the Max up the binomial tree rooted at node 0 and its result back down, message by
 * message and with the tree's own work at each node (src/runtime/tree-combine.ts: the
 * children of node i are i + 2^k for every 2^k below i's lowest set bit, every 2^k
 * below n for the root). Each level is costed by its pair's own path (treeHops,
 * chain-network.ts). What a node does, one value word (computeOps in tree-combine.ts,
 * costed by the platform's CPU table):
 *
 *  - start: a call and 3 + 1 stores (treeStartCycles; 12 cycles on the ATM);
 *  - once its own value and every child's are in: compose them, an integer operation
 *    and a load a child (treeComposeCycles; 3 a child on the ATM), then send up;
 *  - with what comes down (the root at once): distribute, 2n + 2 integer operations and
 *    n loads for n children (treeDistributeCycles + n treeDistributeChildCycles: 4n + 2
 *    on the ATM, the root's 26 after its 18 of composing), then the sends down, largest
 *    subtree first;
 *  - and complete() sees the result after the poll round that finds nothing more
 *    (treeReturnCycles: poll-until-op.ts, after a handler the wait polls both networks
 *    once more before it checks its condition, 2 pollEmptyCycles).
 */
import type { CpuCosts, Platform } from '../platform/schema.ts';
import { opCycles } from '../runtime/index.ts';

/** The tree's own work at a node, in processor cycles (see the file's comment). */
export interface TreeWork {
  treeStartCycles: number;
  treeComposeCycles: number;
  treeDistributeCycles: number;
  treeDistributeChildCycles: number;
  treeReturnCycles: number;
  /** What comes down comes on the right network (distributeDown sends right to left first, send-steps.ts), so a waiting node polls the left and finds nothing before it: a pollEmptyCycles a level down. */
  treeDownPollCycles: number;
}

/** The tree's own work on a platform, for a reduction of one word (tree-combine.ts start, sendUpIfReady, distributeDown; poll-until-op.ts). */
export function treeWork(cpu: CpuCosts, messaging: Pick<Platform['messaging'], 'pollEmptyCycles'>): TreeWork {
  return {
    treeStartCycles: opCycles(cpu, { calls: 1, stores: 3 + 1 }),
    treeComposeCycles: opCycles(cpu, { intOps: 1, loads: 1 }),
    treeDistributeCycles: opCycles(cpu, { intOps: 2 }),
    treeDistributeChildCycles: opCycles(cpu, { intOps: 2, loads: 1 }),
    treeReturnCycles: 2 * messaging.pollEmptyCycles,
    treeDownPollCycles: messaging.pollEmptyCycles,
  };
}

/** How many children node i has in a binomial tree of n nodes rooted at 0. */
function childCount(i: number, n: number): number {
  const low = i === 0 ? n : i & -i;
  let children = 0;
  for (let step = 1; step < low && i + step < n; step *= 2) children++;
  return children;
}

/**
 * When the root has every node's value: node i enters the reduction at entries[i]
 * (overwritten with when it sends its subtree's value up, or at the root has the
 * result), starts (treeStartCycles), and each child's value comes hops[child] (the
 * level, its receiving end included) after the child sent it; the processor handles one
 * message at a time (`receive`, the level's receiving end: receive overhead and
 * handler), so a value that comes while it handles a sibling's waits, and one that
 * comes before the node has entered was handled in a poll of its own work, which ends
 * that much later (Strata's handlers run to completion, thesis 6.2). With every value
 * in, the node composes them (treeComposeCycles a child).
 */
export function climbInTurn(entries: Float64Array, n: number, hops: Float64Array, receive: number, w: TreeWork): number {
  const arrivals: number[] = [];
  // Children come after their parents (i + 2^k > i): one pass backwards.
  for (let i = n - 1; i >= 0; i--) {
    const low = i === 0 ? n : i & -i;
    arrivals.length = 0;
    for (let step = 1; step < low && i + step < n; step *= 2) arrivals.push(entries[i + step] + hops[i + step]);
    arrivals.sort((a, b) => a - b);
    let busy = entries[i] + w.treeStartCycles;
    for (const done of arrivals) busy = Math.max(busy, done - receive) + receive;
    entries[i] = busy + arrivals.length * w.treeComposeCycles;
  }
  return entries[0];
}

/**
 * When each node can begin its next half-iteration, counted from the root's having the
 * reduction's result: each node distributes what came down (the root what it composed)
 * and sends it to its children one message after another (`send`: the send overhead and
 * the poll after it), largest subtree first, in the handler that received it; so a
 * node's q-th child (from 0) has it q sends after its parent's first, plus its level
 * (hops[child]), and a node goes on with its own work once it has sent to all its
 * children and its wait has returned. Node 63 of 64 is 6 levels down, first in every
 * send and a leaf; node 1 is 1 level down but the root's sixth: with the ATM's 1,110
 * cycles a send it starts 5,550 cycles later than a count of levels says.
 */
export function resultStarts(n: number, hops: Float64Array, send: number, w: TreeWork): Float64Array {
  const reached = new Float64Array(n);
  const begins = new Float64Array(n);
  // Parents come before their children (i + 2^k > i), so one pass in node order.
  for (let i = 0; i < n; i++) {
    const children = childCount(i, n);
    const sent = reached[i] + w.treeDistributeCycles + children * w.treeDistributeChildCycles;
    // Child k (ascending) is sent to after the children - 1 - k larger ones.
    for (let k = 0, step = 1; k < children; k++, step *= 2) reached[i + step] = sent + (children - 1 - k) * send + hops[i + step] + w.treeDownPollCycles;
    begins[i] = sent + children * send + w.treeReturnCycles;
  }
  return begins;
}
