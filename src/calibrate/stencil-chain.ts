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
 * 20-byte active message injected, crossing two links and received (chainHopCycles).
 * With a control network (the CM-5's) every node enters at once and start_j and the
 * climb are 0. That is the count of 'levels' (ChainTree), the stencil models' term
 * (chainCycles): the result reaches node j popcount(j) levels down and j goes on at
 * once. Fitted with the 'sends' count below the models lost a near tie on Alewife
 * (bench selection 19 -> 18 of 20: 241 x 27, vstrips 1.88% slower than rect 32 x 2) and
 * moved out-of-sample accuracy by -3 to +2 points per platform and size, so they keep
 * 'levels'.
 *
 * The extra lines are chosen by 'sends' (src/library/extra-lines.ts), which counts the
 * iteration message by message, as the runtime does, from the root's having one
 * reduction's result to its having the next (sendsChain):
 *  - the result comes down (chain-tree.ts resultStarts): each node distributes it and
 *    sends it to its children one after another, largest subtree first, and goes on
 *    when it has sent them all (on the ATM, 1,110 cycles a send: node 1 starts 5,550
 *    cycles later than a count of levels says);
 *  - each half ends when the node's neighbours' edges are in (chain-edges.ts halfEnds),
 *    not when its neighbours have ended their halves: each packet is injected into its
 *    send, crosses the network and is handled when its receiver polls, and a node's own
 *    sends are paced by the packets it handles meanwhile (traced on the ATM, 50 x 50, 4
 *    extra columns: node 54's edge to 62, its fourth send, was in 334 cycles before the
 *    count of 54's whole half let 62 enter the reduction);
 *  - the values climb with each parent handling one child's value at a time
 *    (chain-tree.ts climbInTurn; ATM, 50 x 50, 6 extra columns: nodes 60 and 56 each got
 *    two children's values within 170 cycles, 320 of receive overhead each);
 *  - every tree level and edge packet crosses its own pair's links in the topology the
 *    simulator builds (chain-network.ts: on the ATM a level between switches, 16 -> 0,
 *    32 -> 0 and 48 -> 32, crosses four links, 62 cycles more than two; on a mesh node
 *    i + 2^k is 1 to 4 hops from its parent), a node's own link carrying its packets one
 *    after another (Alewife's DMA injects a 64-word packet in 20 cycles, its link takes
 *    130);
 *  - and the tree's own work is counted (chain-tree.ts: the start, composing the
 *    children's values, distributing what comes down, the polls that end a wait: on the
 *    ATM the root's 44 cycles before its first send).
 * On the ATM at 50 x 50 with 0 to 11 extra columns that is 16 to 49 cycles shorter than
 * the measured iteration (4 iterations less 1, over 3), where counting a neighbour's whole
 * half, two links a level and no tree work was 75 to 142 short or 34 to 65 long (12
 * columns: 83 short, it was 21). In the extra-rows study's 17 grids a platform the pick
 * is optimal or within 0.5% for rows and columns in 17 and 17 (ATM), 17 and 17
 * (Paragon), 16 and 17 (Alewife), where it was 17 and 15, 17 and 17, 14 and 17. What it
 * leaves out: contention on links between the ends (on Alewife a mesh row's last node
 * gets its right neighbour's one-packet DMA edge across the whole row), the finite
 * buffers, and messages of the next half or the tree handled while a node waits.
 */
import { COLUMN_OPS, POINT_OPS, ROW_COPY_OPS, interiorByParity, pointsOfColour } from '../../apps/stencil/costs.ts';
import { split, starts } from '../../apps/stencil/grid.ts';
import { opCycles } from '../runtime/index.ts';
import { halfEnds, type HalfWork } from './chain-edges.ts';
import { flatNetworkCycles, pairLatency, TREE_MESSAGE_BYTES, treeHops } from './chain-network.ts';
import { climbInTurn, resultStarts, treeWork, type TreeWork } from './chain-tree.ts';
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
   * What only 'sends' counts besides: the data network whose topology gives each tree
   * level and edge packet its own path (chain-network.ts), an edge packet's injection
   * and the tree's own work (chain-edges.ts, chain-tree.ts); not a number, so study
   * rows leave it out.
   */
  chainSends: SendsCosts;
}

/** What the 'sends' chain counts beyond the flat costs (see ChainCosts.chainSends). */
export interface SendsCosts extends TreeWork {
  network: NetworkParams;
  /** How far into an edge packet's send it is injected: the smaller of sendInjectionCycles and the packet's send overhead (messaging.ts startInjection). */
  edgeInjectionCycles: number;
  /** Bytes a short edge packet carries more on the wire (chain-edges.ts EdgeCosts). */
  shortPacketBytes: number;
  /** The end of a wait for edges that handled one (chain-edges.ts EdgeCosts). */
  waitEndCycles: number;
}

/** The costs a count of tree 'levels' or 'none' reads (the stencil models' chainCycles): all but the climb's receives and what only 'sends' counts. */
export type LevelCosts = Omit<ChainCosts, 'chainTreeReceiveCycles' | 'chainSends'>;

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
    chainHopCycles: Math.min(m.sendInjectionCycles, m.sendOverheadCycles) + flatNetworkCycles(network, TREE_MESSAGE_BYTES) + treeReceive,
    chainTreeSendCycles: m.sendOverheadCycles + m.pollEmptyCycles,
    chainTreeReceiveCycles: treeReceive,
    chainSendCycles: (dma !== null ? dma.sendCycles : m.xferSendOverheadCycles + m.bandwidthMatchDelayCycles) + m.pollEmptyCycles,
    chainReceiveCycles: m.receiveOverheadCycles + (dma !== null ? dma.receiveCycles : opCycles(cpu, { loads: 2, intOps: 2, branches: 1 })),
    chainReceiveWordCycles: dma !== null ? 0 : opCycles(cpu, { stores: 1 }),
    chainSends: {
      network,
      edgeInjectionCycles: Math.min(m.sendInjectionCycles, dma !== null ? dma.sendCycles : m.xferSendOverheadCycles),
      shortPacketBytes: dma !== null ? 0 : 4,
      waitEndCycles: 3 * m.pollEmptyCycles,
      ...treeWork(cpu, m),
    },
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
export function longestChain(s: ChainSplit, packetWords: number, c: LevelCosts & Partial<Pick<ChainCosts, 'chainTreeReceiveCycles' | 'chainSends'>>): Chain {
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
  let most = 0;
  let busiest = 0;
  for (let i = 0; i < n; i++) {
    const work = first[i] + second[i];
    if (work > most) (most = work), (busiest = 1);
    else if (work === most) busiest++;
  }
  if (s.tree === 'sends') {
    const { chainTreeReceiveCycles: receive, chainSends: sends } = c;
    if (receive === undefined || sends === undefined) throw new RangeError("a chain counting the tree's 'sends' needs chainTreeReceiveCycles and chainSends (chainCosts gives them)");
    return { cycles: sendsChain(s, widths, heights, x0, y0, xs, ys, packetWords, c, receive, sends), most, busiest };
  }
  // The longest chain, in two sweeps: the latest a node k can end its second half (after
  // the first half of j, k or a neighbour of k), then the latest climb from each i.
  for (let j = 0; j < n; j++) up[j] = popcount(j) * hop + first[j];
  for (let k = 0; k < n; k++) secondEnds[k] = latestAround(up, k, px, n) + second[k];
  let longest = 0;
  for (let i = 0; i < n; i++) longest = Math.max(longest, latestAround(secondEnds, i, px, n) + popcount(i) * hop);
  return { cycles: longest, most, busiest };
}

/**
 * The 'sends' chain of one iteration (see the file's comment): every node begins its
 * first half when the result of the last reduction reaches it and it has sent it on
 * (resultStarts), ends each half when its neighbours' edges are in (halfEnds), and its
 * value climbs the tree in turn (climbInTurn); the iteration is the time from the root's
 * having one result to its having the next.
 */
function sendsChain(s: ChainSplit, widths: readonly number[], heights: readonly number[], x0: readonly number[], y0: readonly number[], xs: ReturnType<typeof interiorByParity>[], ys: ReturnType<typeof interiorByParity>[], packetWords: number, c: LevelCosts, receive: number, sends: SendsCosts): number {
  const { px, py } = s;
  const n = px * py;
  const halves = [0, 1].map((): HalfWork => ({ update: new Float64Array(n), words: new Float64Array(4 * n), rowPoints: new Float64Array(4 * n) }));
  for (let iy = 0, i = 0; iy < py; iy++) {
    const rows = [iy > 0 ? y0[iy] : -1, iy < py - 1 ? y0[iy] + heights[iy] - 1 : -1];
    for (let ix = 0; ix < px; ix++, i++) {
      const w = widths[ix];
      for (let color = 0; color < 2; color++) {
        const half = halves[color];
        half.update[i] = pointsOfColour(xs[ix], ys[iy], color) * c.chainPointCycles + w * c.chainColumnCycles;
        // Left and right: the whole column, 2h words; up and down: the half's colour's
        // points of the edge row, 2 words each (rowEdges: the larger half where the row's
        // first point has the colour).
        if (ix > 0) half.words[4 * i] = 2 * heights[iy];
        if (ix < px - 1) half.words[4 * i + 1] = 2 * heights[iy];
        for (let r = 0; r < 2; r++) {
          if (rows[r] < 0) continue;
          const points = (x0[ix] + rows[r] + color) & 1 ? w >> 1 : (w + 1) >> 1;
          half.words[4 * i + 2 + r] = 2 * points;
          half.rowPoints[4 * i + 2 + r] = points;
        }
      }
    }
  }
  const edges = {
    packetWords,
    sendCycles: c.chainSendCycles,
    injectionCycles: sends.edgeInjectionCycles,
    receiveCycles: c.chainReceiveCycles,
    receiveWordCycles: c.chainReceiveWordCycles,
    rowCopyCycles: c.chainRowCopyCycles,
    shortPacketBytes: sends.shortPacketBytes,
    latency: pairLatency(sends.network, n),
    linkBytesPerCycle: nodeLinkBytesPerCycle(sends.network),
    waitEndCycles: sends.waitEndCycles,
  };
  const hops = treeHops(n, c.chainHopCycles, sends.network);
  const firstEnds = new Float64Array(n);
  const entries = new Float64Array(n);
  halfEnds(resultStarts(n, hops, c.chainTreeSendCycles, sends), halves[0], px, n, edges, firstEnds);
  halfEnds(firstEnds, halves[1], px, n, edges, entries);
  return climbInTurn(entries, n, hops, receive, sends);
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
