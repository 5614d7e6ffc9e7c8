/**
 * Workstations on one crossbar switch (the ATM network of thesis 4.3): every host
 * reaches every other through the switch, two hops (host to switch to host). The
 * large per-message software cost lives in the platform's send/receive overheads
 * (the kernel crossing), not here.
 */
import type { SwitchParams } from '../platform/schema.ts';
import type { ChannelSpec, PacketRouting } from './packet-network.ts';
import { serializationCycles, type Topology } from './topology.ts';

export class Crossbar implements Topology {
  readonly kind = 'switch' as const;
  readonly nodes: number;
  private readonly params: SwitchParams;

  constructor(params: SwitchParams, nodes: number) {
    this.params = params;
    this.nodes = nodes;
  }

  hops(src: number, dst: number): number {
    return src === dst ? 0 : 2;
  }

  zeroLoadLatencyCycles(src: number, dst: number, sizeBytes: number): number {
    const through = src === dst ? 0 : this.params.switchLatencyCycles;
    return this.params.interfaceLatencyCycles + through + serializationCycles(sizeBytes, this.params.linkBytesPerCycle);
  }

  describe(): string {
    return `${this.nodes}-port crossbar switch`;
  }

  /**
   * Packet routing: host n's link into the switch (channel n), the switch's output
   * port to host n (P + n), and a loopback for self-sends (2P + n). Output ports are
   * where many-to-one traffic contends.
   */
  packetRouting(): PacketRouting {
    const P = this.nodes;
    const bw = this.params.linkBytesPerCycle;
    const channels: ChannelSpec[] = [];
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: this.params.switchLatencyCycles, bytesPerCycle: bw, deliversTo: -1 });
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: 0, bytesPerCycle: bw, deliversTo: n });
    for (let n = 0; n < P; n++) channels.push({ latencyCycles: 0, bytesPerCycle: bw, deliversTo: n });
    return {
      channels,
      nextChannels: (src, dst, hop, out) => {
        out[0] = src === dst ? 2 * P + dst : hop === 0 ? src : P + dst;
        return 1;
      },
    };
  }
}
