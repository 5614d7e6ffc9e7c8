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
import { serializationCycles, type ChannelSpec, type PacketRouting, type Topology } from './topology.ts';

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
      Math.floor(this.hops(src, dst) * this.params.hopLatencyCycles) +
      serializationCycles(sizeBytes, this.params.linkBytesPerCycle)
    );
  }

  describe(): string {
    return `${this.width} x ${this.height} mesh`;
  }

  /**
   * Packet routing: dimension order (x first, then y), which cannot deadlock on a
   * mesh; the last channel ejects into the node's interface. Channel 4n + d leaves
   * node n eastward, westward, northward (+y) or southward (d = 0..3); 4P + n ejects.
   */
  packetRouting(): PacketRouting {
    const w = this.width;
    const P = this.nodes;
    const channels: ChannelSpec[] = [];
    // The router links are alike: one spec serves them all (ChannelSpec is read only).
    const link: ChannelSpec = { latencyCycles: this.params.hopLatencyCycles, bytesPerCycle: this.params.linkBytesPerCycle, deliversTo: -1 };
    for (let n = 0; n < 4 * P; n++) channels.push(link);
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: 0, bytesPerCycle: this.params.linkBytesPerCycle, deliversTo: n });
    return {
      channels,
      nextChannels: (src, dst, hop, _lane, out) => {
        const sx = src % w;
        const sy = Math.floor(src / w);
        const tx = dst % w;
        const ty = Math.floor(dst / w);
        const xHops = Math.abs(tx - sx);
        const yHops = Math.abs(ty - sy);
        if (hop < xHops) {
          const x = sx + (tx > sx ? hop : -hop);
          out[0] = 4 * (sy * w + x) + (tx > sx ? 0 : 1);
        } else if (hop < xHops + yHops) {
          const y = sy + (ty > sy ? hop - xHops : xHops - hop);
          out[0] = 4 * (y * w + tx) + (ty > sy ? 2 : 3);
        } else {
          out[0] = 4 * P + dst;
        }
        return 1;
      },
    };
  }
}
