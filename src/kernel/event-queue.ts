/**
 * The pending-event list: a binary min-heap over parallel typed arrays.
 * It owns event ordering and the event payload slots; it knows nothing of what
 * an event means (kinds are small integers interpreted by the simulation).
 *
 * Ordering rules (the kernel's total order, relied on for determinism):
 *   1. Events are ordered by `time` (integer cycles, ascending).
 *   2. Events with equal time are ordered by `seq`, a counter assigned when the
 *      event is scheduled; ties therefore run in scheduling order (FIFO).
 *   3. `seq` is unique, so the order is total: no comparison ever depends on heap
 *      layout, array sort stability or object identity.
 *
 * Layout: the heap holds two Float64 arrays, the time and a tie key
 * `seq * 2^24 + slot` (ordering tie keys orders by seq, since seq is unique; the
 * slot finds the payload). A sift moves 16 bytes per level; the payload (kind, a0,
 * a1, obj) stays put in a slot pool with a free list. Sifts move a "hole" instead of
 * swapping, pop uses Floyd's bottom-up deletion (as libstdc++'s pop_heap does), and
 * the child pick is branch-free. Measured on PHOLD (bench/), folding the slot into
 * the tie key was 5-20% faster than a third array, and an interleaved
 * [time, seq, slot] array 20% slower.
 *
 * Limits: at most 2^24 pending events. Tie keys stay exact below 2^53, so when seq
 * reaches `seqLimit` (2^29 by default) the pending events are renumbered 0..n-1 in
 * their current order; the order is unchanged, so nothing observable changes.
 */
const SLOT_SPAN = 16777216; // 2^24: slots per seq in a tie key
/** The most events either pending-event list holds at once. */
export const MAX_PENDING_EVENTS = SLOT_SPAN;

/** A copy of `a` in a new array of length `cap` (>= a.length), zero-filled beyond. */
export function grownArray<A extends Float64Array | Int32Array>(a: A, cap: number): A {
  const b = (a instanceof Float64Array ? new Float64Array(cap) : new Int32Array(cap)) as A;
  b.set(a);
  return b;
}

/**
 * A time read from the Float64Array as V8's small integer (Smi) when it is one (below
 * 2^30), not as the boxed double that a typed array's element is outside optimized code.
 * A boxed double stored into a field that has only held small integers changes the
 * field's representation, and with it the hidden class of the queue, the simulation
 * (now) and every node (their clocks): all the code optimized for the old classes is
 * thrown away at once. In the 64-node transpose (W1) the first far event popped did
 * that 85% into the run: 52 deoptimizations in the run, 24 of them "wrong map",
 * against 42 and 8 without it, and the run 2.5% faster (wall, 15 pairs).
 */
export function smallInteger(time: number): number {
  return time < 0x40000000 ? time | 0 : time;
}

export class EventQueue {
  private heapTime: Float64Array;
  private heapTie: Float64Array;
  private count = 0;
  private nextSeq = 0;
  private readonly seqLimit: number;

  private slotKind: Int32Array;
  private slotA0: Int32Array;
  private slotA1: Int32Array;
  private readonly slotObj: unknown[];
  private freeSlots: Int32Array;
  private freeCount: number;

  // Fields of the event most recently removed by pop().
  popTime = 0;
  popKind = 0;
  popA0 = 0;
  popA1 = 0;
  popObj: unknown = undefined;

  /**
   * @param initialCapacity pending events before the arrays first grow
   * @param seqLimit renumber pending events when seq reaches this (tests lower it)
   */
  constructor(initialCapacity = 1024, seqLimit = 2 ** 29) {
    const cap = Math.min(MAX_PENDING_EVENTS, Math.max(16, initialCapacity | 0));
    this.seqLimit = seqLimit;
    this.heapTime = new Float64Array(cap);
    this.heapTie = new Float64Array(cap);
    this.slotKind = new Int32Array(cap);
    this.slotA0 = new Int32Array(cap);
    this.slotA1 = new Int32Array(cap);
    this.slotObj = new Array<unknown>(cap).fill(undefined);
    this.freeSlots = new Int32Array(cap);
    for (let i = 0; i < cap; i++) this.freeSlots[i] = cap - 1 - i;
    this.freeCount = cap;
  }

  get size(): number {
    return this.count;
  }

  /** Time of the earliest pending event; only meaningful when size > 0. */
  peekTime(): number {
    return this.heapTime[0];
  }

  /**
   * Adds an event. `time` must be an integer number of cycles; `a0` and `a1` are
   * 32-bit integers; `obj` is an optional reference payload.
   */
  push(time: number, kind: number, a0: number, a1: number, obj: unknown): void {
    if (this.count === this.heapTime.length) this.grow();
    if (this.nextSeq === this.seqLimit) this.renumber();
    const slot = this.freeSlots[--this.freeCount];
    this.slotKind[slot] = kind;
    this.slotA0[slot] = a0;
    this.slotA1[slot] = a1;
    this.slotObj[slot] = obj;
    const tie = this.nextSeq++ * SLOT_SPAN + slot;

    const ht = this.heapTime;
    const hk = this.heapTie;
    let i = this.count++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = ht[p];
      // The new tie key exceeds every pending one, so only a strictly later parent moves.
      if (pt <= time) break;
      ht[i] = pt;
      hk[i] = hk[p];
      i = p;
    }
    ht[i] = time;
    hk[i] = tie;
  }

  /**
   * Removes the earliest event and exposes it through popTime/popKind/popA0/
   * popA1/popObj. Returns false when the queue is empty.
   */
  pop(): boolean {
    const n = this.count;
    if (n === 0) return false;
    const ht = this.heapTime;
    const hk = this.heapTie;

    const slot = hk[0] % SLOT_SPAN;
    this.popTime = smallInteger(ht[0]);
    this.popKind = this.slotKind[slot];
    this.popA0 = this.slotA0[slot];
    this.popA1 = this.slotA1[slot];
    this.popObj = this.slotObj[slot];
    this.slotObj[slot] = undefined;
    this.freeSlots[this.freeCount++] = slot;

    const last = n - 1;
    this.count = last;
    if (last === 0) return true;
    // Floyd's bottom-up deletion: walk the hole down to a leaf along the earlier
    // children (one key comparison per level), then sift the former last element up
    // from there. It usually belongs near the bottom, so the climb is short.
    let i = 0;
    let c = 1;
    while (c < last) {
      const r = c + 1;
      if (r < last) {
        const tr = ht[r];
        const tc = ht[c];
        c += +(tr < tc || (tr === tc && hk[r] < hk[c]));
      }
      ht[i] = ht[c];
      hk[i] = hk[c];
      i = c;
      c = 2 * c + 1;
    }
    const t = ht[last];
    const k = hk[last];
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = ht[p];
      if (pt < t || (pt === t && hk[p] < k)) break;
      ht[i] = pt;
      hk[i] = hk[p];
      i = p;
    }
    ht[i] = t;
    hk[i] = k;
    return true;
  }

  private grow(): void {
    const oldCap = this.heapTime.length;
    if (oldCap >= MAX_PENDING_EVENTS) {
      throw new RangeError(`more than ${MAX_PENDING_EVENTS} events pending at once`);
    }
    const cap = Math.min(MAX_PENDING_EVENTS, oldCap * 2);
    this.heapTime = grownArray(this.heapTime, cap);
    this.heapTie = grownArray(this.heapTie, cap);
    this.slotKind = grownArray(this.slotKind, cap);
    this.slotA0 = grownArray(this.slotA0, cap);
    this.slotA1 = grownArray(this.slotA1, cap);
    for (let i = oldCap; i < cap; i++) this.slotObj.push(undefined);
    // Every old slot is in use (the heap was full), so the free list is the new slots.
    this.freeSlots = new Int32Array(cap);
    this.freeCount = 0;
    for (let i = cap - 1; i >= oldCap; i--) this.freeSlots[this.freeCount++] = i;
  }

  /** Gives pending events seqs 0..n-1 in their current seq order (the heap stays valid). */
  private renumber(): void {
    const n = this.count;
    const hk = this.heapTie;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => hk[a] - hk[b]);
    order.forEach((heapIndex, rank) => {
      hk[heapIndex] = rank * SLOT_SPAN + (hk[heapIndex] % SLOT_SPAN);
    });
    this.nextSeq = n;
  }
}
