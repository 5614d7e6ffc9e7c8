/**
 * A data-network packet. The network moves it and counts its bytes; what the
 * handler and argument words mean is the runtime's business, so they are opaque here.
 */
export class Packet {
  readonly src: number;
  readonly dst: number;
  /** Logical data network: LEFT or RIGHT (a sender retrying on the other network changes it; fixed once the network takes the packet). */
  net: number;
  readonly sizeBytes: number;
  /** The active-message handler (opaque to the network). */
  readonly handler: unknown;
  /** Argument words carried after the handler word. */
  readonly args: readonly number[];
  /** Cycle at which the packet entered the network. */
  injectedAt = 0;
  /**
   * Routing state in the packet-level network (packet-network.ts), kept here so a
   * packet in flight needs no side table: the id of the buffer its head is in (-1 from
   * the start of its last hop, into a receive buffer), the hops it has made, the
   * lane of its last adaptive choice (PacketRouting.nextChannels), and whether its
   * head has arrived in that buffer.
   */
  at = -1;
  hop = 0;
  lane = 0;
  isReady = false;
  /** Its id in the packet-level network's packet table while it is in that network, else -1. */
  id = -1;
  /** The id of the next packet waiting for the same channel (packet-network.ts) while this one waits, or -1. */
  nextWaiter = -1;

  constructor(src: number, dst: number, net: number, sizeBytes: number, handler: unknown, args: readonly number[]) {
    this.src = src;
    this.dst = dst;
    this.net = net;
    this.sizeBytes = sizeBytes;
    this.handler = handler;
    this.args = args;
  }
}

/** The two logical data networks of Strata (Appendix A section 6). */
export const LEFT = 0;
export const RIGHT = 1;
