/**
 * The CM-5 data network's topology: a k-ary fat tree (4-ary on the CM-5) whose link
 * bandwidth rises with level (thesis 7.1, Fig. 7-1). Messages climb only to the
 * lowest common ancestor of source and destination, so crossing k levels takes 2k
 * hops. Node counts are powers of two; a level whose switch has fewer than `arity`
 * children is simply a thinner top (32 and 128 nodes, thesis Fig. 7-2).
 */
import type { FatTreeParams } from '../platform/schema.ts';
import { serializationCycles, type ChannelSpec, type PacketRouting, type Topology } from './topology.ts';

export class FatTree implements Topology {
  readonly kind = 'fat-tree' as const;
  readonly nodes: number;
  /** Number of switch levels above the nodes. */
  readonly levels: number;
  private readonly params: FatTreeParams;
  /**
   * For an arity of 2^s: the level of two nodes' common ancestor by b, the length of
   * the bits in which their ids differ (ceil(b / s)); null for other arities. Routing
   * asks for the level at every hop, and the loop of divisions took about 2% of a
   * 64-node run's time.
   */
  private readonly levelByBits: Uint8Array | null;

  constructor(params: FatTreeParams, nodes: number) {
    this.params = params;
    this.nodes = nodes;
    let levels = 0;
    for (let span = 1; span < nodes; span *= params.arity) levels++;
    this.levels = levels;
    const s = Math.log2(params.arity);
    this.levelByBits = Number.isInteger(s) ? Uint8Array.from({ length: 33 }, (_, b) => Math.ceil(b / s)) : null;
  }

  static nodeCountProblem(nodes: number): string | null {
    return (nodes & (nodes - 1)) === 0 ? null : 'expected a power of two for a fat-tree network';
  }

  /** Level of the lowest common ancestor switch (0 when src === dst). */
  lcaLevel(src: number, dst: number): number {
    const byBits = this.levelByBits;
    // Node ids are below 2^31 (machines have at most a few thousand nodes).
    if (byBits !== null) return byBits[32 - Math.clz32(src ^ dst)];
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

  /**
   * Packet routing. Between level l-1 and level l, each group of nodes has as many
   * parallel channels as the level's bandwidth is a multiple of the node link's (the
   * CM-5 switches are built of equivalent chips, thesis 7.1): 1, 2, 4, ... on the
   * CM-5. Up-routing picks among them pseudo-randomly (adaptive). "On the way down
   * there is one logical path and also one physical path" (thesis 7.1): the one from
   * the chip the climb reached. The packet's lane (the position of the channel it
   * took at its last choice, at the top of its climb) names that chip, and each level
   * down takes the channel at lane mod its parallel count, so a node's packets to one
   * destination come down as many links as they went up. (The thesis does not give
   * the wiring between chips; lane mod count is the simplest that keeps one path per
   * chip.) Self-sends use a loopback channel.
   * A group never has more parallel channels than nodes (k^(l-1) at level l): a
   * level faster than that (a growth above the arity, or a listed level many times
   * the node link's) gets as many channels as its group has nodes, each carrying its
   * share of the level's bandwidth. Uncapped, linkBytesPerCycleByLevel [0.001, 10000]
   * asked for 10^7 channels per group and a 4096-node binary tree growing 16-fold per
   * level for 10^12: the heap ran out before the run (the schema allows both).
   */
  packetRouting(): PacketRouting {
    const k = this.params.arity;
    const P = this.nodes;
    const channels: ChannelSpec[] = [];
    const parallel: number[] = [0];
    const upBase: number[] = [0];
    const downBase: number[] = [0];
    const base = this.linkBytesPerCycle(0);
    for (let l = 1; l <= this.levels; l++) {
      const m = Math.min(k ** (l - 1), Math.max(1, Math.round(this.linkBytesPerCycle(l - 1) / base)));
      const groups = Math.ceil(P / k ** (l - 1));
      const spec = (deliversTo: number): ChannelSpec => ({
        latencyCycles: this.params.hopLatencyCycles,
        bytesPerCycle: this.linkBytesPerCycle(l - 1) / m,
        deliversTo,
      });
      // The level's router channels are alike: one spec serves them all (a 4096-node
      // tree has about 40,000 channels, and an object each was garbage to collect
      // while the machine was built).
      const router = spec(-1);
      parallel.push(m);
      upBase.push(channels.length);
      for (let i = 0; i < groups * m; i++) channels.push(router);
      downBase.push(channels.length);
      for (let g = 0; g < groups; g++) for (let i = 0; i < m; i++) channels.push(l === 1 ? spec(g) : router);
    }
    const loopBase = channels.length;
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: 0, bytesPerCycle: base, deliversTo: n });
    const s = Math.log2(k);
    if (this.levelByBits !== null && parallel.every((m) => (m & (m - 1)) === 0)) {
      // The CM-5's case: a power-of-two arity and power-of-two parallel channels, so a
      // node's group at a level is a shift and its channel among m a mask, where the
      // general routing below divides twice and takes a remainder at every hop: that
      // routing was about 4% of a 64-node transpose's time (perf, W1), the divisions most of it.
      const shifts = Int32Array.from({ length: this.levels + 1 }, (_, l) => (l === 0 ? 0 : s * (l - 1)));
      const m = Int32Array.from(parallel);
      const up = Int32Array.from(upBase);
      const down = Int32Array.from(downBase);
      return {
        channels,
        nextChannels: (src, dst, hop, lane, out) => {
          if (src === dst) {
            out[0] = loopBase + src;
            return 1;
          }
          const top = this.lcaLevel(src, dst);
          if (hop < top) {
            const l = hop + 1;
            const n = m[l];
            const first = up[l] + (src >> shifts[l]) * n;
            for (let i = 0; i < n; i++) out[i] = first + i;
            return n;
          }
          const l = 2 * top - hop;
          const n = m[l];
          out[0] = down[l] + (dst >> shifts[l]) * n + (lane & (n - 1));
          return 1;
        },
      };
    }
    const powers = Array.from({ length: this.levels + 1 }, (_, i) => k ** i);
    return {
      channels,
      nextChannels: (src, dst, hop, lane, out) => {
        if (src === dst) {
          out[0] = loopBase + src;
          return 1;
        }
        const top = this.lcaLevel(src, dst);
        if (hop < top) {
          const l = hop + 1;
          const m = parallel[l];
          const first = upBase[l] + Math.floor(src / powers[l - 1]) * m;
          for (let i = 0; i < m; i++) out[i] = first + i;
          return m;
        }
        const l = 2 * top - hop;
        const m = parallel[l];
        out[0] = downBase[l] + Math.floor(dst / powers[l - 1]) * m + (lane % m);
        return 1;
      },
    };
  }
}
