/**
 * Every packet buffer of the packet-level network (packet-network.ts) in one table:
 * injection buffers, receive buffers and router buffers, each a fixed-capacity FIFO
 * of packets. A buffer is a record of eight integers in one Int32Array (slots taken,
 * capacity, ring head, packets held, ring base, injecting node and network or its
 * blocked feeders, and its range in the feeder list) and a ring of `capacity` entries
 * in one shared Int32Array of packet ids (below), so the network's hot path touches a
 * few adjacent words per buffer instead of a buffer object, a queue object and the
 * queue's array (on a 4096-node fat tree, hundreds of thousands of small objects spread
 * over the heap: the cache misses that made an event cost 4x more there than on 64
 * nodes).
 *
 * A buffer never holds more packets than its capacity: a packet enters a buffer only
 * after a slot was reserved for it (`reserved < capacity`), so the rings never grow.
 *
 * The rings hold packet ids (the network's packet table, packet-network.ts), not
 * packets: a packet is young when it crosses the network and the table is old, so
 * storing the packet itself at every hop ran V8's write barrier (a call each time)
 * where an integer store needs none.
 */

/** Record fields (offsets into a buffer's eight integers). */
const RESERVED = 0; // slots taken: packets in it plus packets on their way in
const CAPACITY = 1;
const HEAD = 2; // ring index of the oldest packet
const SIZE = 3; // packets in the ring
const BASE = 4; // first ring entry in `slots`
/**
 * An injection buffer: node * 2 + net (>= 0), to tell when it frees. Any other buffer:
 * -1 - its blocked feeders (channels into it with packets waiting to cross), so that
 * freeing a slot need not read every feeder's record to find none waiting. Nothing
 * feeds an injection buffer, so the two never meet.
 */
const INJECTING = 5;
const FEED_START = 6; // its feeders: channels feeders[FEED_START .. FEED_END)
const FEED_END = 7;
const STRIDE = 8;

export class BufferTable {
  /** Buffers made so far (ids 0 .. count - 1). */
  count = 0;
  private rec: Int32Array;
  private slots = new Int32Array(0);
  /** Ring entries the buffers use (slots may hold more, unused). */
  private slotCount = 0;
  /** Channel ids feeding each buffer, buffer by buffer (set by setFeeders). */
  feeders: Int32Array = new Int32Array(0);

  /**
   * @param expected buffers the table will hold (it grows if more are added)
   * @param expectedSlots their capacities summed, when known: the rings' entries are
   *   then made once, at that size (it grows if more are added)
   */
  constructor(expected: number, expectedSlots = 0) {
    this.rec = new Int32Array(Math.max(1, expected) * STRIDE);
    if (expectedSlots > 0) this.slots = new Int32Array(expectedSlots);
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
    const base = this.slotCount;
    this.rec[r + BASE] = base;
    this.rec[r + INJECTING] = injecting;
    this.slotCount = base + capacity;
    // The rings' entries grow by doubling (a 4096-node fat tree has about 100,000
    // buffers, all added before the run).
    const had = this.slots.length;
    if (this.slotCount > had) {
      const grown = new Int32Array(Math.max(this.slotCount, 2 * had));
      grown.set(this.slots);
      this.slots = grown;
    }
    return id;
  }

  /**
   * Sets each buffer's feeders (call once, after the last add): channel `c` feeds
   * buffer `records[c * stride + field]`, and a buffer's feeders are listed in
   * channel order. A counting sort into one Int32Array: no list per buffer.
   */
  setFeeders(records: Int32Array, field: number, stride: number): void {
    const channels = records.length / stride;
    const rec = this.rec;
    for (let b = 0; b < this.count; b++) rec[b * STRIDE + FEED_START] = 0;
    // FEED_START counts each buffer's feeders, then becomes its start; FEED_END its fill point.
    for (let c = 0; c < channels; c++) rec[records[c * stride + field] * STRIDE + FEED_START]++;
    let at = 0;
    for (let b = 0; b < this.count; b++) {
      const n = rec[b * STRIDE + FEED_START];
      rec[b * STRIDE + FEED_START] = at;
      rec[b * STRIDE + FEED_END] = at;
      at += n;
    }
    this.feeders = new Int32Array(at);
    for (let c = 0; c < channels; c++) this.feeders[rec[records[c * stride + field] * STRIDE + FEED_END]++] = c;
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

  /** node * 2 + net for an injection buffer, else negative. */
  injecting(b: number): number {
    return this.rec[b * STRIDE + INJECTING];
  }

  /** Whether a feeder of `b`, not an injection buffer, has packets waiting to cross it (see INJECTING). */
  isBlocking(b: number): boolean {
    return this.rec[b * STRIDE + INJECTING] < -1;
  }

  /** A feeder of `b`, not an injection buffer, now has packets waiting to cross it. */
  block(b: number): void {
    this.rec[b * STRIDE + INJECTING]--;
  }

  /** A feeder of `b` no longer has packets waiting to cross it. */
  unblock(b: number): void {
    this.rec[b * STRIDE + INJECTING]++;
  }

  feedStart(b: number): number {
    return this.rec[b * STRIDE + FEED_START];
  }

  feedEnd(b: number): number {
    return this.rec[b * STRIDE + FEED_END];
  }

  /** The oldest packet's id, or -1 when empty. */
  front(b: number): number {
    const r = b * STRIDE;
    return this.rec[r + SIZE] === 0 ? -1 : this.slots[this.rec[r + BASE] + this.rec[r + HEAD]];
  }

  /** Appends packet `p` (an id; its slot was reserved). */
  push(b: number, p: number): void {
    const rec = this.rec;
    const r = b * STRIDE;
    const size = rec[r + SIZE];
    const cap = rec[r + CAPACITY];
    let i = rec[r + HEAD] + size;
    if (i >= cap) i -= cap;
    this.slots[rec[r + BASE] + i] = p;
    rec[r + SIZE] = size + 1;
  }

  /** Removes the oldest packet and returns its id, or -1 when empty. */
  shift(b: number): number {
    const rec = this.rec;
    const r = b * STRIDE;
    const size = rec[r + SIZE];
    if (size === 0) return -1;
    const head = rec[r + HEAD];
    const at = rec[r + BASE] + head;
    const p = this.slots[at];
    rec[r + HEAD] = head + 1 === rec[r + CAPACITY] ? 0 : head + 1;
    rec[r + SIZE] = size - 1;
    return p;
  }

  /** The packets' ids, oldest first (a copy). */
  list(b: number): number[] {
    const r = b * STRIDE;
    const out: number[] = [];
    const cap = this.rec[r + CAPACITY];
    for (let i = 0; i < this.rec[r + SIZE]; i++) out.push(this.slots[this.rec[r + BASE] + ((this.rec[r + HEAD] + i) % cap)]);
    return out;
  }
}
