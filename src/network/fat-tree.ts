/**
 * The CM-5 data network's topology: a k-ary fat tree (4-ary on the CM-5) whose link
 * bandwidth rises with level (thesis 7.1, Fig. 7-1). Messages climb only to the
 * lowest common ancestor of source and destination, so crossing k levels takes 2k
 * hops. Node counts are powers of two; a level whose switch has fewer than `arity`
 * children is simply a thinner top (32 and 128 nodes, thesis Fig. 7-2).
 */
import type { FatTreeParams } from '../platform/schema.ts';
import { serializationCycles, type Topology } from './topology.ts';

export class FatTree implements Topology {
  readonly kind = 'fat-tree' as const;
  readonly nodes: number;
  /** Number of switch levels above the nodes. */
  readonly levels: number;
  private readonly params: FatTreeParams;

  constructor(params: FatTreeParams, nodes: number) {
    this.params = params;
    this.nodes = nodes;
    let levels = 0;
    for (let span = 1; span < nodes; span *= params.arity) levels++;
    this.levels = levels;
  }

  static nodeCountProblem(nodes: number): string | null {
    return (nodes & (nodes - 1)) === 0 ? null : 'expected a power of two for a fat-tree network';
  }

  /** Level of the lowest common ancestor switch (0 when src === dst). */
  lcaLevel(src: number, dst: number): number {
    const k = this.params.arity;
    let level = 0;
    while (src !== dst) {
      src = Math.floor(src / k);
      dst = Math.floor(dst / k);
      level++;
    }
    return level;
  }

  hops(src: number, dst: number): number {
    return 2 * this.lcaLevel(src, dst);
  }

  /** One-direction bandwidth of the links between `level` and `level + 1` (0 = node links). */
  linkBytesPerCycle(level: number): number {
    const listed = this.params.linkBytesPerCycleByLevel;
    if (level < listed.length) return listed[level];
    return listed[listed.length - 1] * this.params.upperLevelGrowth ** (level - listed.length + 1);
  }

  zeroLoadLatencyCycles(src: number, dst: number, sizeBytes: number): number {
    // Cut-through: the packet serializes once, on the slowest (node) link.
    return (
      this.params.interfaceLatencyCycles +
      this.hops(src, dst) * this.params.hopLatencyCycles +
      serializationCycles(sizeBytes, this.linkBytesPerCycle(0))
    );
  }

  describe(): string {
    return `${this.params.arity}-ary fat tree, ${this.levels} level${this.levels === 1 ? '' : 's'}`;
  }
}
