/**
 * The analytic (contention-free) data network: each packet arrives after the
 * topology's zero-load latency, whatever else is in flight, and injection never
 * fails. Selected with `--network analytic`; useful as a reference point and for
 * fast runs where congestion is not the question.
 */
import type { Simulation } from '../kernel/simulation.ts';
import { PERTURB_DELIVERY_CYCLES, type ArrivalListener, type DataNetwork, type NetworkStats } from './data-network.ts';
import type { Packet } from './packet.ts';
import { PacketFifo } from './packet-fifo.ts';
import type { Topology } from './topology.ts';

export class AnalyticNetwork implements DataNetwork {
  perturbation: { int(n: number): number } | null = null;
  readonly mode = 'analytic' as const;
  readonly topology: Topology;
  readonly stats: NetworkStats = { packetsInjected: 0, bytesInjected: 0, packetsDelivered: 0 };
  private readonly sim: Simulation;
  private readonly queues: InterfaceQueues;
  private readonly onArrival: ArrivalListener;
  private readonly deliverKind: number;

  constructor(sim: Simulation, topology: Topology, onArrival: ArrivalListener) {
    this.sim = sim;
    this.topology = topology;
    this.onArrival = onArrival;
    this.queues = new InterfaceQueues(topology.nodes);
    this.deliverKind = sim.defineEventKind('deliver', (dst, net, obj) => {
      this.queues.push(obj as Packet);
      this.stats.packetsDelivered++;
      this.onArrival(dst, net);
    });
  }

  tryInject(packet: Packet): boolean {
    packet.injectedAt = this.sim.now;
    this.stats.packetsInjected++;
    this.stats.bytesInjected += packet.sizeBytes;
    const latency = this.topology.zeroLoadLatencyCycles(packet.src, packet.dst, packet.sizeBytes);
    const jitter = this.perturbation === null ? 0 : this.perturbation.int(PERTURB_DELIVERY_CYCLES + 1);
    this.sim.schedule(latency + jitter, this.deliverKind, packet.dst, packet.net, packet);
    return true;
  }

  receive(node: number, net: number): Packet | null {
    return this.queues.pop(node, net);
  }

  waitingList(node: number, net: number): Packet[] {
    return this.queues.list(node, net);
  }

  waiting(node: number, net: number): number {
    return this.queues.size(node, net);
  }

  canInject(): boolean {
    return true;
  }
}

/** The receive-side interface queues: one FIFO per node per logical network (LEFT, RIGHT). */
class InterfaceQueues {
  private readonly queues: PacketFifo[] = [];

  constructor(nodes: number) {
    for (let i = 0; i < nodes * 2; i++) this.queues.push(new PacketFifo());
  }

  push(packet: Packet): void {
    this.queues[packet.dst * 2 + packet.net].push(packet);
  }

  pop(node: number, net: number): Packet | null {
    return this.queues[node * 2 + net].shift() ?? null;
  }

  size(node: number, net: number): number {
    return this.queues[node * 2 + net].size;
  }

  list(node: number, net: number): Packet[] {
    return this.queues[node * 2 + net].toArray();
  }
}
