/**
 * Workstations on ATM switches (thesis 4.3). Up to `hostsPerSwitch` hosts share one
 * crossbar: host to switch to host, two hops. A larger network gives each group of
 * `hostsPerSwitch` hosts its own switch and joins the switches through a root switch,
 * so hosts on different switches are four hops apart and share their switch's
 * uplink. The large per-message software cost lives in the platform's send/receive
 * overheads (the kernel crossing), not here.
 */
import type { SwitchParams } from '../platform/schema.ts';
import { serializationCycles, type ChannelSpec, type PacketRouting, type Topology } from './topology.ts';

export class SwitchNetwork implements Topology {
  readonly kind = 'switch' as const;
  readonly nodes: number;
  private readonly params: SwitchParams;
  /** Leaf switches (1: a single crossbar, no root). */
  readonly switches: number;

  constructor(params: SwitchParams, nodes: number) {
    this.params = params;
    this.nodes = nodes;
    this.switches = Math.ceil(nodes / params.hostsPerSwitch);
  }

  /** The leaf switch host `n` hangs off. */
  switchOf(n: number): number {
    return Math.floor(n / this.params.hostsPerSwitch);
  }

  hops(src: number, dst: number): number {
    if (src === dst) return 0;
    return this.switchOf(src) === this.switchOf(dst) ? 2 : 4;
  }

  zeroLoadLatencyCycles(src: number, dst: number, sizeBytes: number): number {
    return (
      this.params.interfaceLatencyCycles +
      this.hops(src, dst) * this.params.hopLatencyCycles +
      serializationCycles(sizeBytes, this.params.linkBytesPerCycle)
    );
  }

  describe(): string {
    if (this.switches === 1) return `${this.nodes}-port crossbar switch`;
    return `${this.switches} switches of up to ${this.params.hostsPerSwitch} hosts under a root switch`;
  }

  /**
   * Packet routing over channels: host n's link into its switch (n), the switch's
   * output port to host n (P + n), a loopback for self-sends (2P + n), and per leaf
   * switch s its uplink to the root (3P + s) and the root's port down to it
   * (3P + S + s). Output ports and uplinks are where traffic contends.
   */
  packetRouting(): PacketRouting {
    const P = this.nodes;
    const S = this.switches;
    const { hopLatencyCycles: hop, linkBytesPerCycle: bw } = this.params;
    const channels: ChannelSpec[] = [];
    // Router links are alike: one spec serves them all (ChannelSpec is read only).
    const link: ChannelSpec = { latencyCycles: hop, bytesPerCycle: bw, deliversTo: -1 };
    for (let n = 0; n < P; n++) channels.push(link);
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: hop, bytesPerCycle: bw, deliversTo: n });
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: 0, bytesPerCycle: bw, deliversTo: n });
    for (let s = 0; s < 2 * S; s++) channels.push(link);
    return {
      channels,
      nextChannels: (src, dst, hop, _lane, out) => {
        if (src === dst) out[0] = 2 * P + dst;
        else if (hop === 0) out[0] = src;
        else if (this.switchOf(src) === this.switchOf(dst) || hop === 3) out[0] = P + dst;
        else out[0] = hop === 1 ? 3 * P + this.switchOf(src) : 3 * P + S + this.switchOf(dst);
        return 1;
      },
    };
  }
}
