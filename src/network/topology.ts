/**
 * What every topology offers the rest of the simulator: the node-count rule, hop
 * counts, the zero-load latency of a packet, and the channels and routing the
 * packet-level network runs on (ChannelSpec, PacketRouting). One file per topology
 * implements it (fat-tree.ts, mesh.ts, switch.ts); build-topology.ts picks one by `kind`.
 */
import type { NetworkParams } from '../platform/schema.ts';

/** A directed link as a topology describes it; alike channels may share one (read only). */
export interface ChannelSpec {
  /** Cycles for a packet's head to cross; may be fractional (see hopCycles in packet-network.ts). */
  readonly latencyCycles: number;
  readonly bytesPerCycle: number;
  /** Node whose receive buffer the channel feeds, or -1 for a router buffer. */
  readonly deliversTo: number;
}

/**
 * How packets find their way: the topology's channels (one copy per logical
 * network) and, for a packet that has made `hop` hops, the channels it may take next.
 */
export interface PacketRouting {
  readonly channels: readonly ChannelSpec[];
  /**
   * Writes the candidate channel ids for the packet's next hop into `out` and
   * returns how many; more than one means an adaptive choice. `lane` is the position,
   * among its candidates, of the channel the packet took at its last adaptive choice
   * (0 before any): a route may depend on it (the fat tree's way down does). Only
   * called while the packet has not reached its destination's receive buffer.
   */
  nextChannels(src: number, dst: number, hop: number, lane: number, out: number[]): number;
}

/** One machine's network shape, built for a node count by build-topology.ts. */
export interface Topology {
  readonly kind: NetworkParams['kind'];
  readonly nodes: number;
  /** Router-to-router hops between two nodes (0 from a node to itself). */
  hops(src: number, dst: number): number;
  /** Cycles from injection to arrival for a packet of `sizeBytes` with no contention. */
  zeroLoadLatencyCycles(src: number, dst: number, sizeBytes: number): number;
  /** A short description such as "8 x 8 mesh". */
  describe(): string;
  /** The channels and routing the packet-level network runs on. */
  packetRouting(): PacketRouting;
}

/** Cycles to serialize `sizeBytes` onto a link of the given bandwidth (at least 1). */
export function serializationCycles(sizeBytes: number, bytesPerCycle: number): number {
  return Math.max(1, Math.ceil(sizeBytes / bytesPerCycle));
}
