/**
 * Picks the topology named by a platform's network `kind` and checks the machine
 * size against its node-count rule.
 */
import { InputError } from '../kernel/errors.ts';
import type { NetworkParams } from '../platform/schema.ts';
import { FatTree } from './fat-tree.ts';
import { Mesh } from './mesh.ts';
import { SwitchNetwork } from './switch.ts';
import type { Topology } from './topology.ts';

/**
 * Checks that `nodes` is a machine size the topology supports.
 * @returns null when supported, else a message saying what sizes are expected
 */
export function nodeCountProblem(params: NetworkParams, nodes: number): string | null {
  if (!Number.isInteger(nodes) || nodes < 1) return 'expected a positive integer node count';
  if (nodes > params.maxNodes) return `expected at most ${params.maxNodes} node${params.maxNodes === 1 ? '' : 's'} for this ${params.kind} network`;
  switch (params.kind) {
    case 'fat-tree':
      return FatTree.nodeCountProblem(nodes);
    case 'mesh':
      return Mesh.nodeCountProblem(nodes);
    case 'switch':
      return null;
    default:
      // An edited platform object's kind (a file's is checked by the schema): it said "16 nodes: undefined".
      return `network.kind ${JSON.stringify((params as { kind: unknown }).kind)}: expected fat-tree, mesh or switch`;
  }
}

/** Builds the topology for `nodes` nodes; throws InputError for unsupported sizes. */
export function buildTopology(params: NetworkParams, nodes: number): Topology {
  const problem = nodeCountProblem(params, nodes);
  if (problem !== null) throw new InputError(`${nodes} nodes: ${problem}`);
  switch (params.kind) {
    case 'fat-tree':
      return new FatTree(params, nodes);
    case 'mesh':
      return new Mesh(params, nodes);
    case 'switch':
      return new SwitchNetwork(params, nodes);
  }
}
