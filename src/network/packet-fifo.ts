/**
 * A first-in first-out queue of packets for the networks' hot paths: a ring over a
 * plain array whose length is a power of two, grown by doubling when full (buffers
 * are sized from the platform, so a queue seldom grows after its first packets).
 * It replaced js-sdsl's Deque on the packet path: at a push and a pop per packet per
 * buffer crossed, the Deque's bucketed layout cost about 4% of a congested CM-5
 * transpose in the profile, this ring a third of that.
 */
import type { Packet } from './packet.ts';

export class PacketFifo {
  private items: (Packet | undefined)[];
  private mask: number;
  private head = 0;
  /** Packets in the queue. */
  size = 0;

  /** @param capacity expected packets at once; rounded up to a power of two (at least 2). */
  constructor(capacity = 4) {
    let n = 2;
    while (n < capacity) n *= 2;
    this.items = new Array<Packet | undefined>(n).fill(undefined);
    this.mask = n - 1;
  }

  /** The oldest packet, or undefined when empty. */
  front(): Packet | undefined {
    return this.size === 0 ? undefined : this.items[this.head];
  }

  push(p: Packet): void {
    if (this.size > this.mask) this.grow();
    this.items[(this.head + this.size) & this.mask] = p;
    this.size++;
  }

  /** Removes and returns the oldest packet, or undefined when empty. */
  shift(): Packet | undefined {
    if (this.size === 0) return undefined;
    const p = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.size--;
    return p;
  }

  /** The packets, oldest first (a copy). */
  toArray(): Packet[] {
    const out: Packet[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.items[(this.head + i) & this.mask]!);
    return out;
  }

  private grow(): void {
    const old = this.toArray();
    this.items = new Array<Packet | undefined>(2 * (this.mask + 1)).fill(undefined);
    this.mask = this.items.length - 1;
    for (let i = 0; i < old.length; i++) this.items[i] = old[i];
    this.head = 0;
  }
}
