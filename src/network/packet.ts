/**
 * A data-network packet. The network moves it and counts its bytes; what the
 * handler and argument words mean is the runtime's business, so they are opaque here.
 */
export class Packet {
  // src, dst, sizeBytes, handler and args are set when the packet is made (or made again
  // from a spare one: PacketPool), by reuse, and read only after.
  src!: number;
  dst!: number;
  /** Logical data network: LEFT or RIGHT (a sender retrying on the other network changes it; fixed once the network takes the packet). */
  net!: number;
  sizeBytes!: number;
  /** The active-message handler (opaque to the network). */
  handler: unknown;
  /** Argument words carried after the handler word. */
  args!: readonly number[];
  /** Whether `args` came from a PacketPool and goes back to it with the packet. */
  argsArePooled = false;
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
    this.reuse(src, dst, net, sizeBytes, handler, args);
  }

  /** Makes this packet (new, or a spare one: PacketPool) the one `new Packet(...)` with these arguments makes. */
  reuse(src: number, dst: number, net: number, sizeBytes: number, handler: unknown, args: readonly number[]): void {
    this.src = src;
    this.dst = dst;
    this.net = net;
    this.sizeBytes = sizeBytes;
    this.handler = handler;
    this.args = args;
    this.injectedAt = 0;
    this.at = -1;
    this.hop = 0;
    this.lane = 0;
    this.isReady = false;
    this.id = -1;
    this.nextWaiter = -1;
  }

  /** Lets go of what the packet refers to, once handled (PacketPool keeps it spare). */
  clear(): void {
    this.handler = null;
    this.args = NO_WORDS;
    this.argsArePooled = false;
  }
}

const NO_WORDS: readonly number[] = Object.freeze([]);

/** The two logical data networks of Strata (Appendix A section 6). */
export const LEFT = 0;
export const RIGHT = 1;
