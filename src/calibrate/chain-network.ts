/**
 * The data network as the 'sends' chain (stencil-chain.ts) sees it: how long a message
 * of so many bytes takes from one node's injection to another's interface, in the
 * topology the simulator builds for the platform at that node count
 * (src/network/build-topology.ts; Topology.zeroLoadLatencyCycles: the interface
 * latency, the pair's hops at hopLatencyCycles each, the serialization on a link), and
 * with it what one level of the combining tree costs between a child and its parent
 * (treeHops). A node count the topology has no shape for (nodeCountProblem) gets the
 * flat count chainHopCycles makes: two hops (host, switch, host: one switch between them).
 */
import { buildTopology, nodeCountProblem } from '../network/build-topology.ts';
import type { Topology } from '../network/topology.ts';
import { nodeLinkBytesPerCycle } from '../platform/packets.ts';
import type { NetworkParams } from '../platform/schema.ts';

/** A combining tree's message of one value on the wire: the handler word and four arguments (header, offset, flags, the value), 4 bytes each (messaging.ts send; tree-combine.ts chunkArgs). */
export const TREE_MESSAGE_BYTES = 20;

/** The zero-load latency of `bytes` between two nodes counted flat: the interface latency, the serialization on a node's link and two hops. */
export function flatNetworkCycles(network: NetworkParams, bytes: number): number {
  return network.interfaceLatencyCycles + Math.ceil(bytes / nodeLinkBytesPerCycle(network)) + 2 * network.hopLatencyCycles;
}

/** Cycles from a message's injection at `src` to its arrival at `dst`'s interface, at zero load. */
export type PairLatency = (src: number, dst: number, bytes: number) => number;

/**
 * The zero-load latency between any two of `n` nodes on `network`: the topology's own
 * where it has a shape for n nodes, else flat (flatNetworkCycles). Remembered per
 * network and node count.
 */
export function pairLatency(network: NetworkParams, n: number): PairLatency {
  let known = latencies.get(network);
  if (known === undefined) latencies.set(network, (known = new Map()));
  const hit = known.get(n);
  if (hit !== undefined) return hit;
  const topology: Topology | null = nodeCountProblem(network, n) === null ? buildTopology(network, n) : null;
  const latency: PairLatency = topology !== null ? (src, dst, bytes) => topology.zeroLoadLatencyCycles(src, dst, bytes) : (_src, _dst, bytes) => flatNetworkCycles(network, bytes);
  known.set(n, latency);
  return latency;
}

const latencies = new WeakMap<NetworkParams, Map<number, PairLatency>>();

/**
 * The tree level between node i and its parent (i less its lowest set bit,
 * src/runtime/tree-combine.ts), for every i in 1..n-1: chainHopCycles with its network
 * part (flatNetworkCycles) put back by the pair's own zero-load latency (pairLatency).
 * The way down crosses the same links backwards: every topology's distance is the same
 * both ways (hops(src, dst): switch.ts, mesh.ts, fat-tree.ts). On the ATM (16 hosts a
 * switch) a level between switches (16 -> 0, 32 -> 0, 48 -> 32) crosses four links,
 * 62 cycles more than two; on a mesh node i + 2^k is |dx| + |dy| hops from its parent
 * (node 4 of an 8 x 8 Paragon mesh 4 hops, 10 cycles more than two; node 8 one, 5
 * less). Remembered per hop cost, network and node count.
 */
export function treeHops(n: number, hopCycles: number, network: NetworkParams): Float64Array {
  let known = rememberedHops.get(network);
  if (known === undefined) rememberedHops.set(network, (known = new Map()));
  const key = `${n} ${hopCycles}`;
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const latency = pairLatency(network, n);
  const ends = hopCycles - flatNetworkCycles(network, TREE_MESSAGE_BYTES);
  const hops = new Float64Array(n).fill(hopCycles);
  for (let i = 1; i < n; i++) hops[i] = ends + latency(i, i - (i & -i), TREE_MESSAGE_BYTES);
  known.set(key, hops);
  return hops;
}

const rememberedHops = new WeakMap<NetworkParams, Map<string, Float64Array>>();
