/**
 * The packets a machine's nodes have handled, and the word arrays of its block packets,
 * kept for the next sends instead of new ones. Every block packet made a Packet and an
 * array of its words (about 200 bytes between them), which a 64-node transpose of 4 KB
 * blocks (W1) allocated a million times; taking them from here spares the young
 * generation that churn and its collections (W1 1.03x and 1.04x, W5/64 1.09x and 1.03x
 * in two perf benches of five pairs; the other workloads within noise).
 * Both must come back together: a pooled packet is old, and a young array stored into an
 * old object costs V8's write barrier, which took the gain of pooling packets alone.
 *
 * What makes it safe is who holds a packet once its receiver has handled it: nobody.
 * The network lets go of it at the poll that takes it (its receive), a plain
 * handler has run to its end (a generator handler keeps its packet's words: such a
 * packet is not released), app handlers get the words as arguments, never the array,
 * and a sender keeps only a packet the network has yet to take (SendRoundsOp). The
 * words are recycled only where the sender says they are the pool's (a block packet's,
 * made by `wordsOf`); an app's or an engine's arguments are never reused.
 *
 * One pool per machine, shared by its nodes: what one node handles another sends next,
 * and a shared pool is one object in the cache where a pool per node was one more
 * object per node that each packet touched on a large machine. It holds at most
 * MAX_SPARE of each; nothing it does changes a simulated result.
 */
import { Packet } from './packet.ts';

/**
 * Packets and arrays kept at most, each: more than a machine has in hand between a
 * receive and the next send in any shipped run (a node alternates, taking one and
 * making one), so that a phase that only receives cannot grow it without bound
 * (about 200 KB of packets and arrays at most).
 */
const MAX_SPARE = 1024;

export class PacketPool {
  /** The length of a block packet's words: its port-and-offset word and data words. */
  readonly blockWords: number;
  private readonly packets: Packet[] = [];
  private readonly words: number[][] = [];

  constructor(blockWords: number) {
    this.blockWords = blockWords;
  }

  /** A packet as `new Packet(...)` makes it; `wordsArePooled`: `args` came from `words` and may go back. */
  packet(src: number, dst: number, net: number, sizeBytes: number, handler: unknown, args: readonly number[], wordsArePooled: boolean): Packet {
    const p = this.packets.pop();
    if (p === undefined) {
      const made = new Packet(src, dst, net, sizeBytes, handler, args);
      made.argsArePooled = wordsArePooled;
      return made;
    }
    p.reuse(src, dst, net, sizeBytes, handler, args);
    p.argsArePooled = wordsArePooled;
    return p;
  }

  /** An array of `length` words to fill: a spare one when it is a block packet's length. */
  wordsOf(length: number): number[] {
    if (length === this.blockWords) {
      const w = this.words.pop();
      if (w !== undefined) return w;
    }
    return new Array<number>(length);
  }

  /** Takes back a packet whose receiver has handled it to its end (see the file comment), and its words if they are the pool's. */
  release(p: Packet): void {
    if (p.argsArePooled && p.args.length === this.blockWords && this.words.length < MAX_SPARE) this.words.push(p.args as number[]);
    p.clear();
    if (this.packets.length < MAX_SPARE) this.packets.push(p);
  }

  /** Spare packets and arrays now (tests). */
  get spare(): { packets: number; words: number } {
    return { packets: this.packets.length, words: this.words.length };
  }
}
