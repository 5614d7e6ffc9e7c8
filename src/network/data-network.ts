/**
 * The one interface every data network implements (analytic-network.ts,
 * packet-network.ts). A network accepts packets at the current cycle (or refuses them
 * when its injection buffer is full), carries them, and leaves them in the
 * destination's network-interface queue until the node polls. It never runs handlers.
 */
import type { Packet } from './packet.ts';
import type { Topology } from './topology.ts';

/** Called when a packet becomes receivable at `node` on logical network `net`. */
export type ArrivalListener = (node: number, net: number) => void;

export interface NetworkStats {
  packetsInjected: number;
  bytesInjected: number;
  packetsDelivered: number;
}

export interface DataNetwork {
  /** `analytic` (contention-free) or `packet` (finite buffers, back-pressure). */
  readonly mode: 'analytic' | 'packet';
  readonly topology: Topology;
  readonly stats: NetworkStats;
  /**
   * Offers `packet` at the current cycle. Returns false, leaving the packet with the
   * sender, when the network cannot take it now.
   */
  tryInject(packet: Packet): boolean;
  /** Removes and returns the oldest packet waiting at `node` on `net`, or null. */
  receive(node: number, net: number): Packet | null;
  /** Number of packets waiting at `node` on `net`. */
  waiting(node: number, net: number): number;
  /** The packets waiting at `node` on `net`, oldest first (for inspecting a stopped run). */
  waitingList(node: number, net: number): Packet[];
  /** Whether `node` could inject on `net` now. */
  canInject(node: number, net: number): boolean;
  /**
   * When set (`sim --perturb`), each packet's delivery is delayed by a further 0 to
   * `perturbCycles` cycles drawn from this stream.
   */
  perturbation: { int(n: number): number } | null;
}

/** Extra delivery delay under perturbation: up to this many cycles per packet. */
export const PERTURB_DELIVERY_CYCLES = 8;
