/**
 * Every packet buffer of the packet-level network (packet-network.ts) in one table:
 * injection buffers, receive buffers and router buffers, each a fixed-capacity FIFO
 * of packets. A buffer is a record of eight integers in one Int32Array (slots taken,
 * capacity, ring head, packets held, ring base, injecting node and network, and its
 * range in the feeder list) and a ring of `capacity` entries in one shared array of
 * packets, so the network's hot path touches a few adjacent words per buffer instead
 * of a buffer object, a queue object and the queue's array (on a 4096-node fat tree,
 * hundreds of thousands of small objects spread over the heap: the cache misses that
 * made an event cost 4x more there than on 64 nodes).
 *
 * A buffer never holds more packets than its capacity: a packet enters a buffer only
 * after a slot was reserved for it (`reserved < capacity`), so the rings never grow.
 */
import type { Packet } from './packet.ts';

/** Record fields (offsets into a buffer's eight integers). */
const RESERVED = 0; // slots taken: packets in it plus packets on their way in
const CAPACITY = 1;
const HEAD = 2; // ring index of the oldest packet
const SIZE = 3; // packets in the ring
const BASE = 4; // first ring entry in `slots`
const INJECTING = 5; // an injection buffer: node * 2 + net, to tell when it frees; else -1
const FEED_START = 6; // its feeders: channels feeders[FEED_START .. FEED_END)
const FEED_END = 7;
const STRIDE = 8;

export class BufferTable {
  /** Buffers made so far (ids 0 .. count - 1). */
  count = 0;
  private rec: Int32Array;
  private slots: (Packet | undefined)[] = [];
  /** Channel ids feeding each buffer, buffer by buffer (set by setFeeders). */
  feeders: Int32Array = new Int32Array(0);

  /** @param expected buffers the table will hold (it grows if more are added) */
  constructor(expected: number) {
    this.rec = new Int32Array(Math.max(1, expected) * STRIDE);
  }

  /**
   * Adds a buffer of `capacity` packets; `injecting` is node * 2 + net for a node's
   * injection buffer, else -1. Returns its id.
   */
  add(capacity: number, injecting = -1): number {
    const id = this.count++;
    if (id * STRIDE >= this.rec.length) {
      const grown = new Int32Array(this.rec.length * 2);
      grown.set(this.rec);
      this.rec = grown;
    }
    const r = id * STRIDE;
    this.rec[r + CAPACITY] = capacity;
    this.rec[r + BASE] = this.slots.length;
    this.rec[r + INJECTING] = injecting;
    for (let i = 0; i < capacity; i++) this.slots.push(undefined);
    return id;
  }

  /** Sets each buffer's feeders from lists by buffer id (call once, after the last add). */
  setFeeders(lists: readonly (readonly number[])[]): void {
    let total = 0;
    for (let b = 0; b < this.count; b++) total += lists[b]?.length ?? 0;
    this.feeders = new Int32Array(total);
    let at = 0;
    for (let b = 0; b < this.count; b++) {
      this.rec[b * STRIDE + FEED_START] = at;
      for (const ch of lists[b] ?? []) this.feeders[at++] = ch;
      this.rec[b * STRIDE + FEED_END] = at;
    }
  }

  hasRoom(b: number): boolean {
    const r = b * STRIDE;
    return this.rec[r + RESERVED] < this.rec[r + CAPACITY];
  }

  /** Takes a slot for a packet on its way in. */
  reserve(b: number): void {
    this.rec[b * STRIDE + RESERVED]++;
  }

  /** Gives back a slot (a packet has left). */
  release(b: number): void {
    this.rec[b * STRIDE + RESERVED]--;
  }

  /** Packets in the buffer. */
  size(b: number): number {
    return this.rec[b * STRIDE + SIZE];
  }

  /** node * 2 + net for an injection buffer, else -1. */
  injecting(b: number): number {
    return this.rec[b * STRIDE + INJECTING];
  }

  feedStart(b: number): number {
    return this.rec[b * STRIDE + FEED_START];
  }

  feedEnd(b: number): number {
    return this.rec[b * STRIDE + FEED_END];
  }

  /** The oldest packet, or undefined when empty. */
  front(b: number): Packet | undefined {
    const r = b * STRIDE;
    return this.rec[r + SIZE] === 0 ? undefined : this.slots[this.rec[r + BASE] + this.rec[r + HEAD]];
  }

  /** Appends a packet (its slot was reserved). */
  push(b: number, p: Packet): void {
    const rec = this.rec;
    const r = b * STRIDE;
    const size = rec[r + SIZE];
    const cap = rec[r + CAPACITY];
    let i = rec[r + HEAD] + size;
    if (i >= cap) i -= cap;
    this.slots[rec[r + BASE] + i] = p;
    rec[r + SIZE] = size + 1;
  }

  /** Removes and returns the oldest packet, or undefined when empty. */
  shift(b: number): Packet | undefined {
    const rec = this.rec;
    const r = b * STRIDE;
    const size = rec[r + SIZE];
    if (size === 0) return undefined;
    const head = rec[r + HEAD];
    const at = rec[r + BASE] + head;
    const p = this.slots[at];
    this.slots[at] = undefined;
    rec[r + HEAD] = head + 1 === rec[r + CAPACITY] ? 0 : head + 1;
    rec[r + SIZE] = size - 1;
    return p;
  }

  /** The packets, oldest first (a copy). */
  list(b: number): Packet[] {
    const r = b * STRIDE;
    const out: Packet[] = [];
    const cap = this.rec[r + CAPACITY];
    for (let i = 0; i < this.rec[r + SIZE]; i++) out.push(this.slots[this.rec[r + BASE] + ((this.rec[r + HEAD] + i) % cap)]!);
    return out;
  }
}
