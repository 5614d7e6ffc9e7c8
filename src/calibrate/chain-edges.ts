/**
 * When each node ends a half-iteration of the stencil (apps/stencil) as the 'sends'
 * chain (stencil-chain.ts) counts it: by its neighbours' edge packets arriving, not by
 * its neighbours' ending their halves. A node begins its half at starts[i], updates its
 * points (no polling), then sends its edges left, right, up and down in turn (sendEdges;
 * a row's points copied out before it goes), each in packets of packetWords data words;
 * a packet is injected injectionCycles into its send (messaging.ts startInjection), crosses
 * the network at zero load (chain-network.ts pairLatency) and waits at the receiver
 * until it polls. After each packet the sender paces: it handles every packet that has
 * arrived, one at a time, each a receive overhead and its words stored
 * (block-send-op.ts, thesis 6.1.3: "if there are arrived packets, handle all of them");
 * once it has sent everything it waits for the rest, handling each as it comes, and
 * then copies the rows it received in (pollBothUntil, scatterRow). Worked out for all
 * nodes at once in the order things happen (a node's poll sees only the packets whose
 * sends came before), so a packet that comes while its receiver is still sending delays
 * the receiver's later sends. What it leaves out: contention of packets on shared links
 * and the finite buffers, and messages of the next half or the tree handled meanwhile.
 */
import { neighbourOf } from '../../apps/stencil/grid.ts';
import { serializationCycles } from '../network/topology.ts';
import type { PairLatency } from './chain-network.ts';

/** A half-iteration's work at every node (longestChain fills it). */
export interface HalfWork {
  /** Per node: the update (its points of the half's colour, every column walked). */
  update: Float64Array;
  /**
   * Per node and direction (left, right, up, down; 4i + d): the data words sent that
   * way (0: nothing, or no neighbour there), and the row points copied out before them
   * (0 for a column); the receiver copies as many in once all its edges are in.
   */
  words: Float64Array;
  rowPoints: Float64Array;
}

/** The platform's costs of an edge, in cycles (chainCosts). */
export interface EdgeCosts {
  /** Data words a packet carries (blockTransferWords). */
  packetWords: number;
  /** A packet's send and the pacing after it (chainSendCycles), and how far into the send it is injected. */
  sendCycles: number;
  injectionCycles: number;
  /** Receiving a packet, and each data word it stores (chainReceiveCycles, chainReceiveWordCycles). */
  receiveCycles: number;
  receiveWordCycles: number;
  /** Copying one point of a row out or in (chainRowCopyCycles). */
  rowCopyCycles: number;
  /** Without DMA a packet shorter than a full one goes as an active message with its handler word (block-send-op.ts): 4 bytes more on the wire. */
  shortPacketBytes: number;
  latency: PairLatency;
  /**
   * The end of a wait that handled a packet: an edge's first packet comes on the left
   * network (block-send-op.ts xferSteps), so after its handler the wait polls the
   * right, then both in a round that finds nothing, before it checks its condition
   * (poll-until-op.ts): 3 pollEmptyCycles (a packet on the right: the left polled
   * empty before it, two after).
   */
  waitEndCycles: number;
  /** Bytes a cycle of a node's own link, which carries its packets one after another, each for its serialization (topology.ts serializationCycles, packet-network.ts). */
  linkBytesPerCycle: number;
}

/** A node's next edge direction from d on (4: none left). */
function nextDirection(half: HalfWork, x: number, d: number, px: number, n: number): number {
  let e = d;
  while (e < 4 && (half.words[4 * x + e] === 0 || neighbourOf(x, e, px, n) < 0)) e++;
  return e;
}

/**
 * Writes into ends[i] when node i has ended its half begun at starts[i] (see the file's
 * comment), for the n nodes of a px-wide processor grid.
 */
export function halfEnds(starts: Float64Array, half: HalfWork, px: number, n: number, c: EdgeCosts, ends: Float64Array): void {
  const s = scratchFor(n);
  const { time, direction, sent, copyIn, linkFree } = s;
  const inbox = s.inbox;
  const heap = new EventHeap(time);
  for (let x = 0; x < n; x++) {
    time[x] = starts[x] + half.update[x];
    direction[x] = nextDirection(half, x, 0, px, n);
    sent[x] = 0;
    copyIn[x] = 0;
    linkFree[x] = 0;
    inbox[x].length = 0;
    if (direction[x] < 4) heap.push(x);
  }
  // Each event is a node ready at time[x] to poll (it has just sent a packet) or send:
  // it handles one packet that has come by then, else sends its next.
  while (heap.size > 0) {
    const x = heap.pop();
    const box = inbox[x];
    if (box.length > 0 && box[0].at <= time[x]) {
      time[x] += box.shift()!.cost;
      heap.push(x);
      continue;
    }
    const d = direction[x];
    if (d >= 4) continue;
    const to = neighbourOf(x, d, px, n);
    const total = half.words[4 * x + d];
    if (sent[x] === 0) {
      const points = half.rowPoints[4 * x + d];
      time[x] += points * c.rowCopyCycles;
      copyIn[to] += points;
    }
    const words = Math.min(c.packetWords, total - sent[x]);
    const bytes = 4 * (words + 1) + (words < c.packetWords ? c.shortPacketBytes : 0);
    // The packet leaves once the node's link has carried the one before (a DMA engine
    // injects faster than its link serializes: Alewife's 20 cycles against 102 for 64 words).
    const leaves = Math.max(time[x] + c.injectionCycles, linkFree[x]);
    linkFree[x] = leaves + serializationCycles(bytes, c.linkBytesPerCycle);
    deliver(inbox[to], leaves + c.latency(x, to, bytes), c.receiveCycles + words * c.receiveWordCycles);
    time[x] += c.sendCycles;
    sent[x] += words;
    if (sent[x] >= total) (sent[x] = 0), (direction[x] = nextDirection(half, x, d + 1, px, n));
    heap.push(x);
  }
  // Everything is sent: each node handles the rest as it comes, then copies its rows in.
  for (let x = 0; x < n; x++) {
    let busy = time[x];
    for (const p of inbox[x]) busy = Math.max(busy, p.at) + p.cost;
    ends[x] = busy + (inbox[x].length > 0 ? c.waitEndCycles : 0) + copyIn[x] * c.rowCopyCycles;
  }
}

interface Arrival {
  at: number;
  cost: number;
}

/** Puts a packet into a node's inbox, kept in order of arrival. */
function deliver(box: Arrival[], at: number, cost: number): void {
  const arrival = { at, cost };
  let k = box.length;
  box.push(arrival);
  while (k > 0 && box[k - 1].at > at) (box[k] = box[k - 1]), k--;
  box[k] = arrival;
}

/** Nodes by their next event's time (then by node, so that the order is the same every run). */
class EventHeap {
  private readonly nodes: number[] = [];
  private readonly time: Float64Array;

  constructor(time: Float64Array) {
    this.time = time;
  }

  get size(): number {
    return this.nodes.length;
  }

  private before(a: number, b: number): boolean {
    const ta = this.time[a];
    const tb = this.time[b];
    return ta < tb || (ta === tb && a < b);
  }

  push(x: number): void {
    const h = this.nodes;
    let k = h.length;
    h.push(x);
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (!this.before(x, h[up])) break;
      h[k] = h[up];
      k = up;
    }
    h[k] = x;
  }

  pop(): number {
    const h = this.nodes;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      let k = 0;
      for (;;) {
        let child = 2 * k + 1;
        if (child >= h.length) break;
        if (child + 1 < h.length && this.before(h[child + 1], h[child])) child++;
        if (!this.before(h[child], last)) break;
        h[k] = h[child];
        k = child;
      }
      h[k] = last;
    }
    return top;
  }
}

/** halfEnds's per-node state, kept from call to call and grown when a larger grid comes. */
let scratch = { time: new Float64Array(0), direction: new Int32Array(0), sent: new Float64Array(0), copyIn: new Float64Array(0), linkFree: new Float64Array(0), inbox: [] as Arrival[][] };

function scratchFor(n: number): typeof scratch {
  if (scratch.time.length < n) {
    scratch = { time: new Float64Array(n), direction: new Int32Array(n), sent: new Float64Array(n), copyIn: new Float64Array(n), linkFree: new Float64Array(n), inbox: Array.from({ length: n }, () => []) };
  }
  return scratch;
}
