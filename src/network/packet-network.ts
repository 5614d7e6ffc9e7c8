/**
 * The packet-level data network: finite buffers and back-pressure, shared by every
 * topology. A topology supplies channels (directed links, each with a latency, a
 * bandwidth and the buffer at its far end) and a routing function; this engine moves
 * packets and knows nothing of trees or meshes.
 *
 * Flow control is virtual cut-through at packet granularity:
 *   - a packet at the head of a buffer may start across a channel when the link is
 *     idle and the channel's far buffer has a free slot (reserved at the start);
 *   - its head reaches the far buffer `latency` cycles later and may move on from
 *     there at once; the link is busy, and the packet keeps its slot in the buffer it
 *     is leaving, for its serialization time (bytes / bandwidth);
 *   - buffers are FIFOs: only the head packet is routed (head-of-line blocking);
 *     packets waiting for a channel are served in the order they asked.
 * A node's injection buffer refuses packets when full (the sender stalls), and its
 * receive buffer holds arrived packets until the node polls; when it is full, the
 * last channel cannot start and the network backs up toward the senders.
 * The two logical networks (left, right) are independent copies.
 *
 * State layout: a channel is one 32-byte record of eight integers in an Int32Array,
 * indexed by net * channels + channel (the buffer the packet crossing leaves, or -1
 * while the link is idle; the far buffer; the node it delivers to; waiters; its head
 * latency in whole cycles; the serialization cycles of its last packet size; busy
 * cycles), and its doubles (busy cycles past 2^30, head latency, bandwidth), read
 * only off the common path, sit apart in a Float64Array; the first and last packet
 * waiting for it (packet ids) sit side by side in one array, and the waiters are linked
 * through the packets themselves. The buffers live in a BufferTable. A 4096-node fat tree has
 * about 40,000 channels and 45,000 buffers: as objects they spread over the heap and
 * every event missed the cache on them, and as six arrays a channel's crossing
 * touched six cache lines where it now touches one or two.
 */
import { InputError } from '../kernel/errors.ts';
import { grouped } from '../kernel/numbers.ts';
import type { RandomStream } from '../kernel/random-stream.ts';
import type { Simulation } from '../kernel/simulation.ts';
import { BufferTable } from './buffer-table.ts';
import { PERTURB_DELIVERY_CYCLES, type ArrivalListener, type DataNetwork, type NetworkStats } from './data-network.ts';
import type { Packet } from './packet.ts';
import type { PacketRouting, Topology } from './topology.ts';

/** Called when `node` can inject again on `net` after a refusal. */
export type InjectReadyListener = (node: number, net: number) => void;

/**
 * Most packet slots the buffers may hold together: 2^24, 128 MB of slots taken before
 * the run. A 4096-node CM-5 holds about 400,000. Every buffer's ring is made whole at the
 * start, so a platform's in-range bufferPackets of 65536 (2^16) made a 64-node fat tree
 * of 10^8 slots and V8 died ("FATAL ERROR: invalid table size ... heap out of memory").
 */
export const MAX_BUFFER_SLOTS = 1 << 24;

/**
 * The packet slots of each node's two interfaces per network and of each router input
 * per network; refuses buffers the machine could not hold.
 */
function bufferSlots(nodes: number, routerInputs: number, buffers: { routerPackets: number; injectionPackets: number; receivePackets: number }): number {
  const slots = 2 * nodes * (buffers.injectionPackets + buffers.receivePackets) + 2 * routerInputs * buffers.routerPackets;
  if (slots <= MAX_BUFFER_SLOTS) return slots;
  throw new InputError(
    `network buffers of ${grouped(slots)} packets in all on ${nodes} nodes (2 networks x (${nodes} nodes x (injectionBufferPackets ${buffers.injectionPackets} + receiveBufferPackets ${buffers.receivePackets}) + ${routerInputs} router inputs x bufferPackets ${buffers.routerPackets})); expected at most ${grouped(MAX_BUFFER_SLOTS)}, which the simulator holds from the start: lower the platform's network buffer sizes`,
  );
}

/**
 * Whole cycles for crossing a channel of `latency` cycles as hop `k` (from 0) of a
 * path. A fractional latency L accumulates as floor((k + 1) L) - floor(k L), so a path
 * of h such hops takes floor(h L) cycles and every event stays on a whole cycle.
 */
function hopCycles(latency: number, k: number): number {
  return Number.isInteger(latency) ? latency : Math.floor((k + 1) * latency) - Math.floor(k * latency);
}

/** Channel record fields: offsets into a channel's eight 32-bit integers. */
const FROM = 0; // the buffer the crossing packet leaves (its slot frees when the tail has left); -1 while the link is idle
const OUT = 1; // the buffer at the far end
const DELIVERS = 2; // node whose receive buffer it feeds, or -1
const WAITERS = 3; // packets waiting to cross it
const HOP = 4; // head latency in whole cycles, or -1 when fractional (see hopCycles)
const SER_SIZE = 5; // bytes of the packet size whose serialization cycles SER_CYCLES holds, or -1
const SER_CYCLES = 6;
const BUSY_LOW = 7; // cycles spent transmitting not yet added to BUSY_CYCLES (below BUSY_SPILL)
const CH_STRIDE = 8;
/** Busy cycles move from the integer record to the doubles once they reach this (exact sums either way). */
const BUSY_SPILL = 1 << 30;
/** The channel's doubles, rarely read: offsets into its three 64-bit words. */
const BUSY_CYCLES = 0; // cycles spent transmitting, less BUSY_LOW
const LATENCY = 1; // head latency in cycles
const BYTES_PER_CYCLE = 2;
const CH_STRIDE_F = 3;

export class PacketNetwork implements DataNetwork {
  perturbation: { int(n: number): number } | null = null;
  readonly mode = 'packet' as const;
  readonly topology: Topology;
  readonly stats: NetworkStats = { packetsInjected: 0, bytesInjected: 0, packetsDelivered: 0 };
  /** Packets injected toward each destination and not yet taken by its polls (thesis Fig. 7-7). */
  readonly inFlightTo: Int32Array;
  /** Told whenever the packets in flight to a node change (traces with network counters). */
  onInFlight: ((dst: number, count: number) => void) | null = null;

  private readonly sim: Simulation;
  private readonly routing: PacketRouting;
  private readonly interfaceLatency: number;
  private readonly nodes: number;
  /** Channels of one logical network; channel `ch` of net `n` is record n * channelCount + ch. */
  private readonly channelCount: number;
  /** The channel records' integers and, apart, their doubles (see CH_STRIDE and CH_STRIDE_F). */
  private readonly ch: Int32Array;
  private readonly chF: Float64Array;
  /**
   * Per channel c: the first (2c) and last (2c + 1) packet waiting to cross it, in
   * request order, linked by Packet.nextWaiter (packet ids, -1 for none).
   */
  private readonly waiters: Int32Array;
  /**
   * The packets in this network by id (Packet.id), from injection until a poll takes
   * them. The buffers, the waiters and the head and delivery events name a packet by its
   * id: a packet is young while it crosses the network and those tables are old, and
   * storing the packet itself in them, several times per hop, ran V8's write barrier
   * (a call each time) where an integer store needs none. Ids are reused.
   */
  private readonly packets: (Packet | null)[] = [];
  private readonly freeIds: number[] = [];
  /** Injection buffer of (net, node): net * nodes + node; receive buffer: 2 * nodes + net * nodes + node. */
  private readonly buffers: BufferTable;
  private readonly candidates: number[] = [];
  /** Positions among `candidates` of the channels free now (route's adaptive choice). */
  private readonly freeLanes: number[] = [];
  private readonly random: RandomStream;
  private readonly onArrival: ArrivalListener;
  private readonly onInjectReady: InjectReadyListener;
  private readonly headKind: number;
  private readonly tailKind: number;
  private readonly deliverKind: number;

  constructor(
    sim: Simulation,
    topology: Topology,
    routing: PacketRouting,
    buffers: { routerPackets: number; injectionPackets: number; receivePackets: number; interfaceLatencyCycles: number },
    onArrival: ArrivalListener,
    onInjectReady: InjectReadyListener,
  ) {
    this.sim = sim;
    this.topology = topology;
    this.routing = routing;
    this.interfaceLatency = buffers.interfaceLatencyCycles;
    this.onArrival = onArrival;
    this.onInjectReady = onInjectReady;
    const P = topology.nodes;
    const specs = routing.channels;
    const C = specs.length;
    this.nodes = P;
    this.channelCount = C;
    this.inFlightTo = new Int32Array(P);
    this.random = sim.stream(`network/${topology.kind}/adaptive-routing`);
    this.ch = new Int32Array(2 * C * CH_STRIDE);
    this.chF = new Float64Array(2 * C * CH_STRIDE_F);
    this.waiters = new Int32Array(4 * C).fill(-1);
    let routerInputs = 0;
    for (let id = 0; id < C; id++) if (specs[id].deliversTo < 0) routerInputs++;
    const table = new BufferTable(4 * P + 2 * routerInputs, bufferSlots(P, routerInputs, buffers));
    for (let net = 0; net < 2; net++) for (let n = 0; n < P; n++) table.add(buffers.injectionPackets, 2 * n + net);
    for (let net = 0; net < 2; net++) for (let n = 0; n < P; n++) table.add(buffers.receivePackets);
    for (let net = 0; net < 2; net++) {
      for (let id = 0; id < C; id++) {
        const deliversTo = specs[id].deliversTo;
        const out = deliversTo >= 0 ? 2 * P + net * P + deliversTo : table.add(buffers.routerPackets);
        const r = (net * C + id) * CH_STRIDE;
        this.ch[r + FROM] = -1;
        this.ch[r + OUT] = out;
        this.ch[r + DELIVERS] = deliversTo;
        const f = (net * C + id) * CH_STRIDE_F;
        const latency = specs[id].latencyCycles;
        this.chF[f + LATENCY] = latency;
        this.ch[r + HOP] = Number.isInteger(latency) && latency <= 0x7fffffff ? latency : -1;
        this.chF[f + BYTES_PER_CYCLE] = specs[id].bytesPerCycle;
        this.ch[r + SER_SIZE] = -1;
      }
    }
    // Each channel feeds the buffer at its far end (OUT): the table lists them by buffer.
    table.setFeeders(this.ch, OUT, CH_STRIDE);
    this.buffers = table;
    this.headKind = sim.defineEventKind('packet-head', (ch, net, id) => this.headArrived(net * C + ch, id as number));
    this.tailKind = sim.defineEventKind('packet-tail', (ch, net) => this.tailLeft(net * C + ch));
    this.deliverKind = sim.defineEventKind('packet-deliver', (dst, net, id) => this.delivered(dst, net, id as number));
  }

  tryInject(packet: Packet): boolean {
    const b = packet.net * this.nodes + packet.src;
    const buffers = this.buffers;
    if (!buffers.hasRoom(b)) return false;
    packet.injectedAt = this.sim.now;
    this.stats.packetsInjected++;
    this.stats.bytesInjected += packet.sizeBytes;
    this.inFlightTo[packet.dst]++;
    this.onInFlight?.(packet.dst, this.inFlightTo[packet.dst]);
    buffers.reserve(b);
    let id = this.freeIds.pop();
    if (id === undefined) {
      id = this.packets.length;
      this.packets.push(packet);
    } else {
      this.packets[id] = packet;
    }
    packet.id = id;
    buffers.push(b, id);
    packet.at = b;
    packet.hop = 0;
    packet.lane = 0;
    packet.isReady = true;
    if (buffers.size(b) === 1) this.route(packet);
    return true;
  }

  waitingList(node: number, net: number): Packet[] {
    return this.buffers.list(this.receiveBuffer(node, net)).map((id) => this.packets[id]!);
  }

  receive(node: number, net: number): Packet | null {
    const buffers = this.buffers;
    const b = this.receiveBuffer(node, net);
    const id = buffers.shift(b);
    if (id < 0) return null;
    const p = this.packets[id]!;
    this.packets[id] = null;
    this.freeIds.push(id);
    p.id = -1;
    buffers.release(b);
    this.inFlightTo[node]--;
    this.onInFlight?.(node, this.inFlightTo[node]);
    // Only a feeder with packets waiting can start (tryStart): with none, the freed slot
    // is no news, and their records (a cache miss each on a big machine) stay unread.
    if (buffers.isBlocking(b)) {
      const end = buffers.feedEnd(b);
      for (let i = buffers.feedStart(b); i < end; i++) this.tryStart(buffers.feeders[i]);
    }
    return p;
  }

  waiting(node: number, net: number): number {
    return this.buffers.size(this.receiveBuffer(node, net));
  }

  /** Whether `node` has room to inject on `net` now. */
  canInject(node: number, net: number): boolean {
    return this.buffers.hasRoom(net * this.nodes + node);
  }

  /** Cycles each channel of logical network `net` has spent transmitting. */
  channelBusyCycles(net: number): number[] {
    const first = net * this.channelCount;
    return Array.from({ length: this.channelCount }, (_, c) => this.chF[(first + c) * CH_STRIDE_F + BUSY_CYCLES] + this.ch[(first + c) * CH_STRIDE + BUSY_LOW]);
  }

  private receiveBuffer(node: number, net: number): number {
    return 2 * this.nodes + net * this.nodes + node;
  }

  /** Routes a packet at the head of its buffer: starts it across a channel or queues it for one. */
  private route(p: Packet): void {
    const candidates = this.candidates;
    const n = this.routing.nextChannels(p.src, p.dst, p.hop, p.lane, candidates);
    const first = p.net * this.channelCount;
    if (n === 1) {
      const chosen = first + candidates[0];
      if (this.canStartNow(chosen)) this.start(chosen, p);
      else this.wait(chosen, p);
      return;
    }
    // Adaptive choice: a random free channel if any, else a random one to wait for.
    // The packet keeps the position it took (its lane) for the routes that follow.
    // A channel found free here is free still: start it without asking again.
    const free = this.freeLanes;
    let nFree = 0;
    for (let i = 0; i < n; i++) if (this.canStartNow(first + candidates[i])) free[nFree++] = i;
    if (nFree > 0) {
      const lane = free[this.random.int(nFree)];
      p.lane = lane;
      this.start(first + candidates[lane], p);
    } else {
      const lane = this.random.int(n);
      p.lane = lane;
      this.wait(first + candidates[lane], p);
    }
  }

  /** Queues `p` for channel `c`, which cannot start it now. */
  private wait(c: number, p: Packet): void {
    p.nextWaiter = -1;
    const waiters = this.waiters;
    const tail = waiters[2 * c + 1];
    if (tail < 0) waiters[2 * c] = p.id;
    else this.packets[tail]!.nextWaiter = p.id;
    waiters[2 * c + 1] = p.id;
    const r = c * CH_STRIDE;
    if (this.ch[r + WAITERS]++ === 0) this.buffers.block(this.ch[r + OUT]);
  }

  private canStartNow(c: number): boolean {
    const r = c * CH_STRIDE;
    const ch = this.ch;
    return ch[r + FROM] < 0 && ch[r + WAITERS] === 0 && this.buffers.hasRoom(ch[r + OUT]);
  }

  private start(c: number, p: Packet): void {
    const ch = this.ch;
    const chF = this.chF;
    const r = c * CH_STRIDE;
    const f = c * CH_STRIDE_F;
    const spec = c < this.channelCount ? c : c - this.channelCount;
    // A channel's packets are mostly of one size (a block's Xfer packets), so its last
    // size's serialization is kept in the record: the division and rounding per start were
    // a third of start's time in a profile of the 64-node transpose (W1).
    const size = p.sizeBytes;
    let serialization: number;
    if (ch[r + SER_SIZE] === size) {
      serialization = ch[r + SER_CYCLES];
    } else {
      serialization = Math.max(1, Math.ceil(size / chF[f + BYTES_PER_CYCLE]));
      if (size <= 0x7fffffff && serialization <= 0x7fffffff) {
        ch[r + SER_SIZE] = size;
        ch[r + SER_CYCLES] = serialization;
      }
    }
    const hop = ch[r + HOP];
    const head = hop >= 0 ? hop : hopCycles(chF[f + LATENCY], p.hop);
    ch[r + FROM] = p.at;
    const busy = ch[r + BUSY_LOW] + serialization;
    if (busy < BUSY_SPILL) {
      ch[r + BUSY_LOW] = busy;
    } else {
      chF[f + BUSY_CYCLES] += busy;
      ch[r + BUSY_LOW] = 0;
    }
    const out = ch[r + OUT];
    this.buffers.reserve(out);
    p.hop++;
    p.isReady = false;
    this.sim.schedule(serialization, this.tailKind, spec, p.net);
    if (ch[r + DELIVERS] >= 0) {
      // Out of the routers now (Packet.at), said while the packet is at hand: delivered, a
      // hundred cycles on, would miss the cache on it on a big machine.
      p.at = -1;
      // Visible to polls once the tail is in and the interface has handled it.
      const jitter = this.perturbation === null ? 0 : this.perturbation.int(PERTURB_DELIVERY_CYCLES + 1);
      this.sim.schedule(head + serialization + this.interfaceLatency + jitter, this.deliverKind, p.dst, p.net, p.id);
    } else {
      this.buffers.push(out, p.id);
      this.sim.schedule(head, this.headKind, spec, p.net, p.id);
    }
  }

  /** A packet's head reached the router buffer at the far end of channel `c`. */
  private headArrived(c: number, id: number): void {
    const out = this.ch[c * CH_STRIDE + OUT];
    const p = this.packets[id]!;
    p.at = out;
    p.isReady = true;
    if (this.buffers.front(out) === id) this.route(p);
  }

  /** The tail of the packet crossing channel `c` has left its buffer: free that slot and the link. */
  private tailLeft(c: number): void {
    const ch = this.ch;
    const r = c * CH_STRIDE;
    const buffers = this.buffers;
    const from = ch[r + FROM];
    ch[r + FROM] = -1;
    buffers.shift(from);
    buffers.release(from);
    const injecting = buffers.injecting(from);
    if (injecting >= 0) {
      this.onInjectReady(injecting >> 1, injecting & 1);
    } else if (buffers.isBlocking(from)) {
      // As in receive: only feeders with packets waiting can start.
      const end = buffers.feedEnd(from);
      for (let i = buffers.feedStart(from); i < end; i++) this.tryStart(buffers.feeders[i]);
    }
    const id = buffers.front(from);
    if (id >= 0) {
      const next = this.packets[id]!;
      if (next.isReady) this.route(next);
    }
    this.tryStart(c);
  }

  private delivered(dst: number, net: number, id: number): void {
    this.buffers.push(this.receiveBuffer(dst, net), id);
    this.stats.packetsDelivered++;
    this.onArrival(dst, net);
  }

  /** Starts the next waiter across channel `c` if the link is idle and the far buffer has room. */
  private tryStart(c: number): void {
    const ch = this.ch;
    const r = c * CH_STRIDE;
    if (ch[r + FROM] >= 0 || ch[r + WAITERS] === 0 || !this.buffers.hasRoom(ch[r + OUT])) return;
    const waiters = this.waiters;
    const p = this.packets[waiters[2 * c]]!;
    const next = p.nextWaiter;
    waiters[2 * c] = next;
    if (next < 0) waiters[2 * c + 1] = -1;
    p.nextWaiter = -1;
    if (--ch[r + WAITERS] === 0) this.buffers.unblock(ch[r + OUT]);
    this.start(c, p);
  }
}
