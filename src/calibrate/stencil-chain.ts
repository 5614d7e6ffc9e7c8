/**
 * The critical chain of one stencil iteration (apps/stencil) on a px x py processor
 * grid, in cycles, worked out from the platform's costs and the grid alone: no fitted
 * constant. An iteration is two half-iterations (one colour each), each an update of
 * the node's block, its edges sent to every neighbour and theirs received, and then a
 * Max reduction up the binomial tree rooted at node 0 whose result comes back down
 * (thesis 4.4, 6.2; src/runtime/tree-combine.ts). So a node i enters the reduction once
 * a neighbour k (or i itself) has finished its second half, which k began once its own
 * neighbour j (or k) had finished the first; j began when the previous result let it
 * (start_j); and i's value then climbs popcount(i) levels. The iteration lasts the
 * longest such chain:
 *
 *   max over i, k in N[i], j in N[k] of  start_j + a_j + b_k + popcount(i)·hop
 *
 * where N[x] is x and its grid neighbours, a_j the first half's work of node j (update
 * and edges, sent and received) and b_k the second's, and hop one level of the tree: a
 * 20-byte active message injected, crossing the network and received: two links for
 * 'levels' (chainHopCycles), the pair's own path for 'sends' (treeHops). With a control
 * network (the CM-5's) every node enters at once and start_j and the climb are 0.
 *
 * start_j is counted two ways (ChainTree). 'levels': the result reaches node j
 * popcount(j) levels down and j goes on at once. 'sends' (resultStarts): each node
 * sends the result to its children one after another, largest subtree first, and goes
 * on when it has sent them all, as the runtime does. Measured against the simulator at
 * 64 nodes on Alewife, the Paragon and the ATM (34 uneven grids each over every layout,
 * with their even neighbours), the time an uneven grid saves against the models' grid
 * (every node the slowest block, slowestLines) is predicted with RMS errors of 67, 127
 * and 594 cycles an iteration by 'levels' and 79, 98 and 261 by 'sends' (147, 276 and
 * 1,269 for the tree levels the slowest blocks are spared times their best per-level
 * charge, the term the models had before either; all measured while the app still sent
 * its rows whole, test/library/stencil-chain.test.ts has a comparison of today's). The
 * stencil models' term counts
 * 'levels' (chainCycles): fitted with 'sends' they lost a near tie on Alewife (bench
 * selection 19 -> 18 of 20: 241 x 27, vstrips 1.88% slower than rect 32 x 2) and moved
 * out-of-sample accuracy by -3 to +2 points per platform and size, where Alewife, the
 * one platform 'sends' fits worse, is the one whose edges contend (below). The extra
 * lines are chosen by 'sends' (src/library/extra-lines.ts), where on the ATM and the
 * Paragon it decides: a node that must forward the result first is slower to start.
 * 'sends' also counts the climb's receives one after another (climbInTurn): a parent
 * handles one child's value at a time, so values that come together wait (ATM, 50 x 50
 * with 6 extra columns: nodes 60 and 56 each got two children's values within 170
 * cycles, 320 of receive overhead each; the chain through the interior was 450 cycles
 * short of the measured iteration against 75 through the boundary columns, and chose 6
 * extra columns where 8 to 11 are 0.8% faster; counted in turn it is 125 short against
 * -50 to 85, and chooses 10). Over the extra-rows study's grids it brings the spread of
 * the measured iteration less the chain about each grid's mean from 232, 40 and 46
 * cycles to 156, 35 and 44 (ATM, Paragon, Alewife); 'levels', the models' term, is as
 * it was. 'sends' also costs each tree level by the links between the pair
 * (treeHops): on the ATM a level between switches crosses four, 62 cycles more than
 * two (16 -> 0, 32 -> 0, 48 -> 32), on a mesh node i + 2^k is 1 to 4 hops from its
 * parent. At 50 x 50 on the ATM that makes the chain 248 cycles longer (two such levels
 * up, two down): 106 to 138 cycles longer than the measured iteration at 0 to 7 extra
 * columns where it was 110 to 142 shorter; the study's spread per grid and kind (the
 * measured 4-iteration run over 4, less the chain) goes from 151, 34 and 42 to 161, 32
 * and 42, and the choice of extra lines gets better (extra-lines.ts). What both leave
 * out: contention of edges on shared links (on Alewife a mesh row's last node gets its
 * right neighbour's one-packet DMA edge across the whole row, and so enters the
 * reduction late), messages of the next half-iteration handled while waiting, the
 * finite receive buffers, and that a neighbour's edge leaves before the neighbour ends
 * its half (its left and right edges go first; the chain waits for the whole half).
 */
import { COLUMN_OPS, POINT_OPS, ROW_COPY_OPS, interiorByParity, pointsOfColour } from '../../apps/stencil/costs.ts';
import { split, starts } from '../../apps/stencil/grid.ts';
import { opCycles } from '../runtime/index.ts';
import { buildTopology, nodeCountProblem } from '../network/build-topology.ts';
import { nodeLinkBytesPerCycle } from '../platform/packets.ts';
import type { NetworkParams, Platform } from '../platform/schema.ts';

/**
 * The platform's costs the chain is made of, in cycles (flat, so that a study's rows can
 * carry them beside the packet facts).
 */
export interface ChainCosts {
  /** Updating one point, and walking one column of a block (apps/stencil/costs.ts). */
  chainPointCycles: number;
  chainColumnCycles: number;
  /** Copying one word of a row edge out before sending it, or in after receiving it. */
  chainRowCopyCycles: number;
  /** One level of the combining tree (see chainCosts). */
  chainHopCycles: number;
  /** Processor cycles a node spends on each message it sends down the tree: its send overhead and the poll after it (send-steps.ts). */
  chainTreeSendCycles: number;
  /** Processor cycles a node spends on each value a child sends up the tree: the receive overhead and the handler (the tree level's receiving end). */
  chainTreeReceiveCycles: number;
  /** Processor cycles per edge packet sent: its send overhead and the pacing after it, a poll and (without DMA) the bandwidth-matching delay (6.1.3; block-send-op.ts). */
  chainSendCycles: number;
  /** Receiving an edge packet, and (without DMA) each data word it stores (src/runtime/ports.ts). */
  chainReceiveCycles: number;
  chainReceiveWordCycles: number;
  /**
   * The platform's data network, whose topology (src/network/build-topology.ts, as the
   * simulator builds it) 'sends' asks for each tree level's own link crossing
   * (treeHops); not a number, so study rows leave it out.
   */
  chainNetwork: NetworkParams;
}

/** The costs a count of tree 'levels' or 'none' reads (the stencil models' chainCycles): all but the climb's receives and the network's pairs, which only 'sends' counts. */
export type LevelCosts = Omit<ChainCosts, 'chainTreeReceiveCycles' | 'chainNetwork'>;

/** A tree message's bytes on the wire, as chainHopCycles counts them: its 20 bytes. */
const TREE_MESSAGE_BYTES = 20;

/** chainHopCycles's network part: the interface latency, the message's serialization on a node's link and two hops (a switch's host-switch-host; Appendix A 7). */
function flatNetworkCycles(network: NetworkParams): number {
  return network.interfaceLatencyCycles + Math.ceil(TREE_MESSAGE_BYTES / nodeLinkBytesPerCycle(network)) + 2 * network.hopLatencyCycles;
}

/**
 * The chain's costs on `platform` (Appendix A 7; its messaging, network and CPU tables).
 * A tree level: the sender's injection (the smaller of sendInjectionCycles and the send
 * overhead), the interface latency, the 20-byte message's serialization on a link and
 * two hops' latency, the receiver's overhead and the handler's three stores and an
 * integer operation (scan-algebra.ts compose).
 */
export function chainCosts(platform: Pick<Platform, 'cpu' | 'messaging' | 'network'>): ChainCosts {
  const { cpu, messaging: m, network } = platform;
  const dma = m.dma;
  const treeReceive = m.receiveOverheadCycles + opCycles(cpu, { stores: 3, intOps: 1 });
  return {
    chainPointCycles: opCycles(cpu, POINT_OPS),
    chainColumnCycles: opCycles(cpu, COLUMN_OPS),
    chainRowCopyCycles: opCycles(cpu, ROW_COPY_OPS),
    chainHopCycles: Math.min(m.sendInjectionCycles, m.sendOverheadCycles) + flatNetworkCycles(network) + treeReceive,
    chainTreeSendCycles: m.sendOverheadCycles + m.pollEmptyCycles,
    chainTreeReceiveCycles: treeReceive,
    chainSendCycles: (dma !== null ? dma.sendCycles : m.xferSendOverheadCycles + m.bandwidthMatchDelayCycles) + m.pollEmptyCycles,
    chainReceiveCycles: m.receiveOverheadCycles + (dma !== null ? dma.receiveCycles : opCycles(cpu, { loads: 2, intOps: 2, branches: 1 })),
    chainReceiveWordCycles: dma !== null ? 0 : opCycles(cpu, { stores: 1 }),
    chainNetwork: network,
  };
}

function popcount(n: number): number {
  let c = 0;
  for (let x = n; x > 0; x &= x - 1) c++;
  return c;
}

/** Sending and receiving one edge of `words` data words in packets of `packetWords`, at both ends' processors. */
function edgeCycles(words: number, packetWords: number, c: LevelCosts): number {
  const packets = Math.ceil(words / packetWords);
  return packets * (c.chainSendCycles + c.chainReceiveCycles) + words * c.chainReceiveWordCycles;
}

/**
 * Sending `sent` points of a row edge and receiving `received` (2 words each, in packets
 * of `packetWords`), each copied out or in; a half with no point to send sends nothing
 * (apps/stencil).
 */
function rowExchangeCycles(sent: number, received: number, packetWords: number, c: LevelCosts): number {
  return Math.ceil((2 * sent) / packetWords) * c.chainSendCycles + Math.ceil((2 * received) / packetWords) * c.chainReceiveCycles + 2 * received * c.chainReceiveWordCycles + (sent + received) * c.chainRowCopyCycles;
}

/**
 * The critical chain of one iteration of a width x height grid on px x py processors
 * (split as apps/stencil/grid.ts splits it, without extra lines), in cycles, with edge
 * packets of `packetWords` data words (blockTransferWords), counting tree 'levels' (the
 * stencil models' iter_chain term) or, with `hasTree` false, a control network's 'none'
 * (stencil-module.ts controlNetworkChain).
 */
export function chainCycles(width: number, height: number, px: number, py: number, packetWords: number, c: LevelCosts, hasTree = true): number {
  // A selection asks for the same few grids many times over (each model evaluation, the
  // bound's even grid, the tuners' trial sizes): remember them per costs object, by
  // number rather than by a string made afresh for each question.
  const shape = shapeKey(px, py, packetWords, hasTree);
  const key = gridKey(width, height);
  if (shape < 0 || key < 0) return chainOf(width, height, px, py, packetWords, c, hasTree);
  let known = remembered.get(c);
  if (known === undefined) remembered.set(c, (known = { grids: 0, byShape: new Map() }));
  let grids = known.byShape.get(shape);
  if (grids === undefined) known.byShape.set(shape, (grids = new Map()));
  const hit = grids.get(key);
  if (hit !== undefined) return hit;
  if (known.grids >= REMEMBERED_GRIDS) {
    known.byShape.clear();
    known.byShape.set(shape, (grids = new Map()));
    known.grids = 0;
  }
  const cycles = chainOf(width, height, px, py, packetWords, c, hasTree);
  grids.set(key, cycles);
  known.grids++;
  return cycles;
}

function chainOf(width: number, height: number, px: number, py: number, packetWords: number, c: LevelCosts, hasTree: boolean): number {
  return longestChain({ width, height, px, py, extraRows: 0, extraCols: 0, tree: hasTree ? 'levels' : 'none' }, packetWords, c).cycles;
}

/** Grids remembered per costs object before the memory starts afresh. */
const REMEMBERED_GRIDS = 4096;
/** The largest grid side, processor count and packet size a remembered key holds (the stencil module's inputs go to 2^16). */
const MAX_KEYED = 1 << 16;
const remembered = new WeakMap<LevelCosts, { grids: number; byShape: Map<number, Map<number, number>> }>();

function keyable(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= MAX_KEYED;
}

/** One number for a processor grid, packet size and tree (below 2^50), or -1 for values past what it holds. */
function shapeKey(px: number, py: number, packetWords: number, hasTree: boolean): number {
  if (!(keyable(px) && keyable(py) && keyable(packetWords))) return -1;
  return ((packetWords * (MAX_KEYED + 1) + px) * (MAX_KEYED + 1) + py) * 2 + (hasTree ? 1 : 0);
}

/** One number for a grid's sides, or -1 for sides past what it holds. */
function gridKey(width: number, height: number): number {
  return keyable(width) && keyable(height) ? width * (MAX_KEYED + 1) + height : -1;
}

/**
 * How a node's start after a reduction is counted: 'none' with a control network (the
 * CM-5's: every node's value enters at once and no node is levels deep), else 'levels'
 * or 'sends' (see the file's comment).
 */
export type ChainTree = 'none' | 'levels' | 'sends';

/** A split the chain is worked out for: the grid, its processors and the extra lines the boundary processors take (thesis 5.2; grid.ts split). */
export interface ChainSplit {
  width: number;
  height: number;
  px: number;
  py: number;
  extraRows: number;
  extraCols: number;
  tree: ChainTree;
}

/** An iteration's longest chain, the most work a node does (both halves), and how many nodes do that much. */
export interface Chain {
  cycles: number;
  most: number;
  busiest: number;
}

/** The longest chain of one iteration of `s` (see the file's comment). */
export function longestChain(s: ChainSplit, packetWords: number, c: LevelCosts & Partial<Pick<ChainCosts, 'chainTreeReceiveCycles' | 'chainNetwork'>>): Chain {
  const { width, height, px, py } = s;
  const widths = split(width, px, s.extraCols);
  const heights = split(height, py, s.extraRows);
  if (widths === null || heights === null) throw new RangeError(`a ${width} x ${height} grid does not split over ${px} x ${py} processors${s.extraRows + s.extraCols > 0 ? ` with ${s.extraRows} extra rows and ${s.extraCols} extra columns` : ''}`);
  const hop = s.tree === 'none' ? 0 : c.chainHopCycles;
  const x0 = starts(widths);
  const y0 = starts(heights);
  const n = px * py;
  // What a node's work is made of depends on its column (its width, its interior
  // columns by parity, whether it has row neighbours' edges to copy) and on its row
  // (likewise), so each is worked out once per column and per row and the nodes only
  // add them up, in the same order as a node-by-node count would (a study's planning
  // evaluates hundreds of thousands of chains).
  // Edges (apps/stencil): a whole column of h lines (2h words) to and from each left and
  // right neighbour; to and from each one above and below, the points of the half's
  // colour in the edge row (2 words each, copied out and in). Of a row's w points one
  // colour has ceil(w / 2) and the other floor(w / 2), and the row received (the
  // neighbour's, one grid row further out) has its colours the other way round:
  // rowEdge[ix][1] is the exchange where the row sent has the larger half.
  const columnEdge = heights.map((h) => edgeCycles(2 * h, packetWords, c));
  const rowEdge = widths.map((w) => [rowExchangeCycles(w >> 1, (w + 1) >> 1, packetWords, c), rowExchangeCycles((w + 1) >> 1, w >> 1, packetWords, c)]);
  const xs = widths.map((w, ix) => interiorByParity(x0[ix], w, width));
  const ys = heights.map((h, iy) => interiorByParity(y0[iy], h, height));
  const { first, second, up, secondEnds } = scratchFor(n);
  for (let iy = 0, i = 0; iy < py; iy++) {
    // The grid rows sent up and down (-1: no neighbour there).
    const upRow = iy > 0 ? y0[iy] : -1;
    const downRow = iy < py - 1 ? y0[iy] + heights[iy] - 1 : -1;
    for (let ix = 0; ix < px; ix++, i++) {
      const columnEdges = (ix > 0 ? 1 : 0) + (ix < px - 1 ? 1 : 0);
      // An update: the points of its colour, every column walked, and the edges.
      const columns = widths[ix] * c.chainColumnCycles + columnEdges * columnEdge[iy];
      first[i] = pointsOfColour(xs[ix], ys[iy], 0) * c.chainPointCycles + columns + rowEdges(rowEdge[ix], x0[ix], upRow, downRow, 0);
      second[i] = pointsOfColour(xs[ix], ys[iy], 1) * c.chainPointCycles + columns + rowEdges(rowEdge[ix], x0[ix], upRow, downRow, 1);
    }
  }
  // The longest chain, in two sweeps: the latest a node k can end its second half (after
  // the first half of j, k or a neighbour of k), then the latest climb from each i.
  const hops = s.tree === 'sends' ? treeHops(n, c) : null;
  const begins = hops !== null ? resultStarts(n, c, hops) : null;
  for (let j = 0; j < n; j++) up[j] = (begins !== null ? begins[j] : popcount(j) * hop) + first[j];
  for (let k = 0; k < n; k++) secondEnds[k] = latestAround(up, k, px, n) + second[k];
  // 'sends' climbs the tree receiving each value in turn (climbInTurn; up[] is free now).
  const inTurn = s.tree === 'sends';
  let longest = 0;
  let most = 0;
  let busiest = 0;
  for (let i = 0; i < n; i++) {
    if (inTurn) up[i] = latestAround(secondEnds, i, px, n);
    else longest = Math.max(longest, latestAround(secondEnds, i, px, n) + popcount(i) * hop);
    const work = first[i] + second[i];
    if (work > most) (most = work), (busiest = 1);
    else if (work === most) busiest++;
  }
  if (hops !== null) {
    if (c.chainTreeReceiveCycles === undefined) throw new RangeError("a chain counting the tree's 'sends' needs chainTreeReceiveCycles (chainCosts gives it)");
    longest = climbInTurn(up, n, hops, c.chainTreeReceiveCycles);
  }
  return { cycles: longest, most, busiest };
}

/**
 * When the root has every node's value, counting the tree's receives one after another
 * ('sends'): node i enters the reduction at entries[i] (overwritten with when it has its
 * subtree's value), and each child's value comes a level (hops[child], treeHops) after
 * the child had its own; the processor handles one message at a time (receive overhead and handler,
 * `receive`, the hop's receiving end), so a value that comes while it handles a
 * sibling's waits, and one that comes before the node has entered was handled in a poll
 * of its own work, which ends that much later (src/runtime/tree-combine.ts; Strata's
 * handlers run to completion, thesis 6.2). Without the wait this is the count of levels:
 * the latest entries[i] + popcount(i) hops.
 */
function climbInTurn(entries: Float64Array, n: number, hops: Float64Array, receive: number): number {
  const arrivals: number[] = [];
  // Children come after their parents (i + 2^k > i): one pass backwards.
  for (let i = n - 1; i >= 0; i--) {
    const low = i === 0 ? n : i & -i;
    arrivals.length = 0;
    for (let step = 1; step < low && i + step < n; step *= 2) arrivals.push(entries[i + step] + hops[i + step]);
    arrivals.sort((a, b) => a - b);
    let busy = entries[i];
    for (const done of arrivals) busy = Math.max(busy, done - receive) + receive;
    entries[i] = busy;
  }
  return entries[0];
}

/**
 * A node's row exchanges in the half of colour `color`: for each of the rows it sends
 * (upRow, downRow; -1 where it has no neighbour), the exchange whose sent half is the
 * larger where the row's first point, (x0, row), has that colour.
 */
function rowEdges(exchange: readonly number[], x0: number, upRow: number, downRow: number, color: number): number {
  let cycles = 0;
  if (upRow >= 0) cycles += exchange[(x0 + upRow + color) & 1 ? 0 : 1];
  if (downRow >= 0) cycles += exchange[(x0 + downRow + color) & 1 ? 0 : 1];
  return cycles;
}

/**
 * longestChain's per-node values, kept from call to call and grown when a larger grid
 * comes (a typed array costs about 0.9 us to make, four of them a third of a call at
 * 64 nodes); every entry below n is written before it is read.
 */
let scratch = { first: new Float64Array(0), second: new Float64Array(0), up: new Float64Array(0), secondEnds: new Float64Array(0) };

function scratchFor(n: number): typeof scratch {
  if (scratch.first.length < n) scratch = { first: new Float64Array(n), second: new Float64Array(n), up: new Float64Array(n), secondEnds: new Float64Array(n) };
  return scratch;
}

/**
 * When each node can begin its next half-iteration, counted from the root's having the
 * reduction's result: the root sends it down the binomial tree (src/runtime/tree-combine.ts:
 * the children of node i are i + 2^k for every 2^k below i's lowest set bit, every 2^k
 * below n for the root), each node to its children largest subtree first, one message
 * after another, in the handler that received it; so a node's q-th child (from 0) has
 * it q sends after its parent's first, plus its level (hops[child], treeHops), and a node goes on with its own
 * work once it has sent to all its children. Node 63 of 64 is 6 levels down, first in
 * every send and a leaf; node 1 is 1 level down but the root's sixth: with the ATM's
 * 1,110 cycles a send it starts 5,550 cycles later than a count of levels says, and the
 * root itself 6,660 cycles after it had the result.
 */
function resultStarts(n: number, c: LevelCosts, hops: Float64Array): Float64Array {
  const reached = new Float64Array(n);
  const begins = new Float64Array(n);
  // Parents come before their children (i + 2^k > i), so one pass in node order.
  for (let i = 0; i < n; i++) {
    const low = i === 0 ? n : i & -i;
    let children = 0;
    for (let step = 1; step < low && i + step < n; step *= 2) children++;
    // Child k (ascending) is sent to after the children - 1 - k larger ones.
    for (let k = 0, step = 1; k < children; k++, step *= 2) reached[i + step] = reached[i] + (children - 1 - k) * c.chainTreeSendCycles + hops[i + step];
    begins[i] = reached[i] + children * c.chainTreeSendCycles;
  }
  return begins;
}

/**
 * The tree level between node i and its parent (i less its lowest set bit,
 * src/runtime/tree-combine.ts), for every i in 1..n-1 of an n-node machine, as 'sends'
 * counts it: chainHopCycles with its network part (flatNetworkCycles, two links) put
 * back by the topology's zero-load latency of the 20-byte message from child to parent
 * (Topology.zeroLoadLatencyCycles: the interface latency, the pair's hops at
 * hopLatencyCycles each, the serialization on a link), the topology the simulator
 * builds for the platform at n nodes (build-topology.ts). The way down crosses the same
 * links backwards: every topology's distance is the same both ways (hops(src, dst),
 * switch.ts, mesh.ts, fat-tree.ts). On the ATM (16 hosts a switch) a level between
 * switches crosses four links, 62 cycles more than two (measured in the simulator's
 * packet network: 223 to 230 cycles from injection to arrival against 157 to 171
 * within a switch); on a mesh node i + 2^k is |dx| + |dy| hops away (node 4 of an 8 x 8
 * Paragon mesh is 4 hops, 10 cycles more than two; node 8 one, 5 less). A node count the
 * topology has no shape for (nodeCountProblem) keeps the flat level. Remembered per
 * costs object and node count.
 */
function treeHops(n: number, c: LevelCosts & Partial<Pick<ChainCosts, 'chainNetwork'>>): Float64Array {
  let known = rememberedHops.get(c);
  if (known === undefined) rememberedHops.set(c, (known = new Map()));
  const hit = known.get(n);
  if (hit !== undefined) return hit;
  const hops = new Float64Array(n).fill(c.chainHopCycles);
  const network = c.chainNetwork;
  if (network !== undefined && nodeCountProblem(network, n) === null) {
    const topology = buildTopology(network, n);
    const ends = c.chainHopCycles - flatNetworkCycles(network);
    for (let i = 1; i < n; i++) hops[i] = ends + topology.zeroLoadLatencyCycles(i, i - (i & -i), TREE_MESSAGE_BYTES);
  }
  known.set(n, hops);
  return hops;
}

const rememberedHops = new WeakMap<object, Map<number, Float64Array>>();

/** The largest of `values` at node x and its grid neighbours on a px-wide grid of n nodes. */
function latestAround(values: Float64Array, x: number, px: number, n: number): number {
  const ix = x % px;
  let m = values[x];
  if (ix > 0) m = Math.max(m, values[x - 1]);
  if (ix < px - 1) m = Math.max(m, values[x + 1]);
  if (x >= px) m = Math.max(m, values[x - px]);
  if (x + px < n) m = Math.max(m, values[x + px]);
  return m;
}
