/**
 * The 2-D mesh of Alewife and the Paragon. Node i sits at (i mod width, i div width);
 * hops are the Manhattan distance (dimension-order routing).
 *
 * Node-count rule: nodes = width x height where width is the smallest divisor of
 * nodes that is >= sqrt(nodes) and width <= 2 x height. So powers of two give 8 x 8,
 * 8 x 4, 16 x 8, ...; 12 gives 4 x 3; primes above 2 have no near-square shape and
 * are refused.
 */
import type { MeshParams } from '../platform/schema.ts';
import { serializationCycles, type Topology } from './topology.ts';

export class Mesh implements Topology {
  readonly kind = 'mesh' as const;
  readonly nodes: number;
  readonly width: number;
  readonly height: number;
  private readonly params: MeshParams;

  constructor(params: MeshParams, nodes: number) {
    this.params = params;
    this.nodes = nodes;
    this.width = Mesh.widthFor(nodes);
    this.height = nodes / this.width;
  }

  /** The mesh width the rule picks for `nodes` (height = nodes / width). */
  static widthFor(nodes: number): number {
    let w = Math.ceil(Math.sqrt(nodes));
    while (nodes % w !== 0) w++;
    return w;
  }

  static isNearSquare(nodes: number): boolean {
    const w = Mesh.widthFor(nodes);
    return w <= 2 * (nodes / w);
  }

  static nodeCountProblem(nodes: number): string | null {
    if (Mesh.isNearSquare(nodes)) return null;
    const near: number[] = [];
    for (let d = 1; near.length < 2; d++) {
      if (nodes - d > 0 && Mesh.isNearSquare(nodes - d)) near.push(nodes - d);
      if (Mesh.isNearSquare(nodes + d)) near.push(nodes + d);
    }
    return `expected a near-square mesh size, width x height with height <= width <= 2 x height (e.g. ${near.sort((a, b) => a - b).join(' or ')})`;
  }

  hops(src: number, dst: number): number {
    const w = this.width;
    return Math.abs((src % w) - (dst % w)) + Math.abs(Math.floor(src / w) - Math.floor(dst / w));
  }

  zeroLoadLatencyCycles(src: number, dst: number, sizeBytes: number): number {
    return (
      this.params.interfaceLatencyCycles +
      this.hops(src, dst) * this.params.hopLatencyCycles +
      serializationCycles(sizeBytes, this.params.linkBytesPerCycle)
    );
  }

  describe(): string {
    return `${this.width} x ${this.height} mesh`;
  }
}
