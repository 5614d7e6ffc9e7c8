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
 */
import type { RandomStream } from '../kernel/random-stream.ts';
import type { Simulation } from '../kernel/simulation.ts';
import { PERTURB_DELIVERY_CYCLES, type ArrivalListener, type DataNetwork, type NetworkStats } from './data-network.ts';
import type { Packet } from './packet.ts';
import { PacketFifo } from './packet-fifo.ts';
import type { ChannelSpec, PacketRouting, Topology } from './topology.ts';

/** Called when `node` can inject again on `net` after a refusal. */
export type InjectReadyListener = (node: number, net: number) => void;

/**
 * Whole cycles for crossing a channel of `latency` cycles as hop `k` (from 0) of a
 * path. A fractional latency L accumulates as floor((k + 1) L) - floor(k L), so a path
 * of h such hops takes floor(h L) cycles and every event stays on a whole cycle.
 */
function hopCycles(latency: number, k: number): number {
  return Number.isInteger(latency) ? latency : Math.floor((k + 1) * latency) - Math.floor(k * latency);
}

class PacketBuffer {
  /** Index in PacketNetwork's buffer list (what Packet.at holds). */
  readonly id: number;
  readonly capacity: number;
  /** Slots taken: packets in it plus packets on their way in. */
  reserved = 0;
  /**
   * Packets in it, in arrival order; only the front is routed. In a receive buffer:
   * the packets that have fully arrived and can be polled, oldest first.
   */
  readonly fifo: PacketFifo;
  /** Channels whose far end is this buffer. */
  readonly feeders: Channel[] = [];
  /** A node's injection buffer: (node, net) to tell when it frees; else node -1. */
  readonly injectingNode: number;
  readonly net: number;

  constructor(id: number, capacity: number, injectingNode = -1, net = 0) {
    this.id = id;
    this.capacity = capacity;
    this.injectingNode = injectingNode;
    this.net = net;
    this.fifo = new PacketFifo(capacity);
  }

  get hasRoom(): boolean {
    return this.reserved < this.capacity;
  }
}

class Channel {
  readonly id: number;
  readonly spec: ChannelSpec;
  readonly out: PacketBuffer;
  isBusy = false;
  /** The buffer the packet now crossing leaves (its slot frees when the tail has left). */
  from: PacketBuffer | null = null;
  busyCycles = 0;
  /**
   * Packets at the front of their buffers waiting to cross this channel, in request
   * order; made when the first one waits (most channels of a large machine never have one).
   */
  waiters: PacketFifo | null = null;

  constructor(id: number, spec: ChannelSpec, out: PacketBuffer) {
    this.id = id;
    this.spec = spec;
    this.out = out;
  }
}

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
  /** [net][channel] */
  private readonly channels: Channel[][] = [];
  /** [net][node] */
  private readonly injection: PacketBuffer[][] = [];
  private readonly receiving: PacketBuffer[][] = [];
  /** Every buffer, by id (Packet.at). */
  private readonly buffers: PacketBuffer[] = [];
  private readonly candidates: number[] = [];
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
    this.inFlightTo = new Int32Array(topology.nodes);
    this.random = sim.stream(`network/${topology.kind}/adaptive-routing`);
    for (let net = 0; net < 2; net++) {
      const injection: PacketBuffer[] = [];
      const receiving: PacketBuffer[] = [];
      for (let n = 0; n < topology.nodes; n++) {
        injection.push(this.newBuffer(buffers.injectionPackets, n, net));
        receiving.push(this.newBuffer(buffers.receivePackets));
      }
      const channels = routing.channels.map((spec, id) => {
        const out = spec.deliversTo >= 0 ? receiving[spec.deliversTo] : this.newBuffer(buffers.routerPackets);
        const ch = new Channel(id, spec, out);
        out.feeders.push(ch);
        return ch;
      });
      this.channels.push(channels);
      this.injection.push(injection);
      this.receiving.push(receiving);
    }
    this.headKind = sim.defineEventKind('packet-head', (ch, net, obj) => this.headArrived(this.channels[net][ch], obj as Packet));
    this.tailKind = sim.defineEventKind('packet-tail', (ch, net) => this.tailLeft(this.channels[net][ch]));
    this.deliverKind = sim.defineEventKind('packet-deliver', (dst, net, obj) => this.delivered(dst, net, obj as Packet));
  }

  private newBuffer(capacity: number, injectingNode = -1, net = 0): PacketBuffer {
    const b = new PacketBuffer(this.buffers.length, capacity, injectingNode, net);
    this.buffers.push(b);
    return b;
  }

  tryInject(packet: Packet): boolean {
    const buf = this.injection[packet.net][packet.src];
    if (!buf.hasRoom) return false;
    packet.injectedAt = this.sim.now;
    this.stats.packetsInjected++;
    this.stats.bytesInjected += packet.sizeBytes;
    this.inFlightTo[packet.dst]++;
    this.onInFlight?.(packet.dst, this.inFlightTo[packet.dst]);
    buf.reserved++;
    buf.fifo.push(packet);
    packet.at = buf.id;
    packet.hop = 0;
    packet.isReady = true;
    if (buf.fifo.size === 1) this.route(packet);
    return true;
  }

  waitingList(node: number, net: number): Packet[] {
    return this.receiving[net][node].fifo.toArray();
  }

  receive(node: number, net: number): Packet | null {
    const buf = this.receiving[net][node];
    const p = buf.fifo.shift();
    if (p === undefined) return null;
    buf.reserved--;
    this.inFlightTo[node]--;
    this.onInFlight?.(node, this.inFlightTo[node]);
    for (const ch of buf.feeders) this.tryStart(ch);
    return p;
  }

  waiting(node: number, net: number): number {
    return this.receiving[net][node].fifo.size;
  }

  /** Whether `node` has room to inject on `net` now. */
  canInject(node: number, net: number): boolean {
    return this.injection[net][node].hasRoom;
  }

  /** Cycles each channel of logical network `net` has spent transmitting. */
  channelBusyCycles(net: number): number[] {
    return this.channels[net].map((c) => c.busyCycles);
  }

  /** Routes a packet at the head of its buffer: starts it across a channel or queues it for one. */
  private route(p: Packet): void {
    const n = this.routing.nextChannels(p.src, p.dst, p.hop, this.candidates);
    const channels = this.channels[p.net];
    let chosen: Channel;
    if (n === 1) {
      chosen = channels[this.candidates[0]];
    } else {
      // Adaptive choice: a random free channel if any, else a random one to wait for.
      let free = 0;
      for (let i = 0; i < n; i++) {
        const c = channels[this.candidates[i]];
        if (this.canStartNow(c)) this.candidates[free++] = c.id;
      }
      chosen = channels[this.candidates[this.random.int(free > 0 ? free : n)]];
    }
    if (this.canStartNow(chosen)) this.start(chosen, p);
    else (chosen.waiters ??= new PacketFifo()).push(p);
  }

  private canStartNow(c: Channel): boolean {
    return !c.isBusy && c.out.hasRoom && (c.waiters === null || c.waiters.size === 0);
  }

  private start(c: Channel, p: Packet): void {
    const serialization = Math.max(1, Math.ceil(p.sizeBytes / c.spec.bytesPerCycle));
    c.isBusy = true;
    c.from = this.buffers[p.at];
    c.busyCycles += serialization;
    c.out.reserved++;
    p.hop++;
    p.isReady = false;
    this.sim.schedule(serialization, this.tailKind, c.id, p.net);
    if (c.spec.deliversTo >= 0) {
      // Visible to polls once the tail is in and the interface has handled it.
      const jitter = this.perturbation === null ? 0 : this.perturbation.int(PERTURB_DELIVERY_CYCLES + 1);
      this.sim.schedule(hopCycles(c.spec.latencyCycles, p.hop - 1) + serialization + this.interfaceLatency + jitter, this.deliverKind, p.dst, p.net, p);
    } else {
      c.out.fifo.push(p);
      this.sim.schedule(hopCycles(c.spec.latencyCycles, p.hop - 1), this.headKind, c.id, p.net, p);
    }
  }

  /** A packet's head reached the router buffer at the far end of `c`. */
  private headArrived(c: Channel, p: Packet): void {
    p.at = c.out.id;
    p.isReady = true;
    if (c.out.fifo.front() === p) this.route(p);
  }

  /** The tail of the packet crossing `c` has left its buffer: free that slot and the link. */
  private tailLeft(c: Channel): void {
    const from = c.from!;
    c.from = null;
    c.isBusy = false;
    from.fifo.shift();
    from.reserved--;
    if (from.injectingNode >= 0) this.onInjectReady(from.injectingNode, from.net);
    for (const feeder of from.feeders) this.tryStart(feeder);
    const next = from.fifo.front();
    if (next !== undefined && next.isReady) this.route(next);
    this.tryStart(c);
  }

  private delivered(dst: number, net: number, p: Packet): void {
    p.at = -1;
    this.receiving[net][dst].fifo.push(p);
    this.stats.packetsDelivered++;
    this.onArrival(dst, net);
  }

  /** Starts the next waiter across `c` if the link is idle and the far buffer has room. */
  private tryStart(c: Channel): void {
    if (c.isBusy || !c.out.hasRoom) return;
    const p = c.waiters?.shift();
    if (p !== undefined) this.start(c, p);
  }
}
