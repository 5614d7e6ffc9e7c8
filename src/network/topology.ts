/**
 * What every topology offers the rest of the simulator: the node-count rule, hop
 * counts, and the zero-load latency of a packet. One file per topology implements it
 * (fat-tree.ts, mesh.ts, switch.ts); build-topology.ts picks one by `kind`.
 */
import type { NetworkParams } from '../platform/schema.ts';
import type { PacketRouting } from './packet-network.ts';

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
