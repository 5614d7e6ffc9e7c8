/**
 * The kernel's pending-event list: a timing wheel for near events in front of the
 * binary heap (event-queue.ts) for far ones, dispatching in exactly the heap's
 * `(time, seq)` order.
 *
 * Most events of a simulated machine are due within a few hundred cycles (a hop, a
 * packet's serialization, a node's next step), so an event due less than `WINDOW`
 * cycles after the last one popped goes into the wheel slot of its cycle, a FIFO;
 * a later one goes into the heap. Push and pop are O(1) in the wheel instead of
 * O(log n) sifts, and the heap holds only the few far events.
 *
 * Why the order is the heap's: events in one wheel slot share their time and sit in
 * scheduling order, which is seq order. Every far event due at cycle t was scheduled
 * while t was at least WINDOW away, so before any near event due at t (scheduled
 * once t was within the window): on equal times the heap's event comes first. The
 * differential test (test/kernel/timing-wheel.test.ts) checks both orders match.
 *
 * A bitmap of non-empty slots finds the next due slot a 32-slot word at a time.
 */
import { EventQueue, grownArray, MAX_PENDING_EVENTS } from './event-queue.ts';

/** Cycles ahead that go into the wheel (a power of two). */
const WINDOW = 4096;
const MASK = WINDOW - 1;
const NONE = -1;
/** A near event's record: four integers. */
const KIND = 0;
const A0 = 1;
const A1 = 2;
const NEXT = 3;
const STRIDE = 4;

export class TimingWheelQueue {
  private readonly far: EventQueue;
  /**
   * farHead[0]: the time of the earliest far event, Infinity when there is none. Every
   * pop compares it with the wheel's next time; a machine with timer interrupts or time
   * slices always has a far event, and asking the heap (its size, then its first time)
   * at every pop cost more than this one read. A typed array's element, so that the
   * double never changes a field's representation (see smallInteger).
   */
  private readonly farHead = new Float64Array(1).fill(Infinity);
  /** Time of the event popped last: the wheel covers [current, current + WINDOW). */
  private current = 0;
  private nearCount = 0;

  /** Per wheel slot: first and last event record of its FIFO, or NONE. */
  private readonly first = new Int32Array(WINDOW).fill(NONE);
  private readonly last = new Int32Array(WINDOW).fill(NONE);
  /** Bit s of word s >> 5: slot s is not empty. */
  private readonly occupied = new Int32Array(WINDOW >> 5);

  // Event records of near events, with a free list threaded through NEXT. A record
  // keeps no time: every near event lies in [current, current + WINDOW), whose cycles
  // fall in distinct slots, so the events of a slot share one time (slotTime). Its four
  // integers sit side by side (record r at rec[4r]): one cache line per push or pop,
  // where four arrays took four.
  private rec: Int32Array;
  private readonly recObj: unknown[];
  private freeRec = NONE;
  private recUsed = 0;

  // Fields of the event most recently removed by pop(); its obj is takeObj()'s.
  popTime = 0;
  popKind = 0;
  popA0 = 0;
  popA1 = 0;
  /**
   * The record of the near event popped last, whose obj stays in recObj until takeObj,
   * or NONE after a far one (the heap's popObj holds it). Not a popObj field: storing a
   * young object (a packet) into this long-lived queue at every pop ran V8's write
   * barrier, a call each time, where an integer field needs none.
   */
  private popRec = NONE;

  /** @param initialCapacity near events before the record arrays first grow */
  constructor(initialCapacity = 1024, farSeqLimit?: number) {
    this.far = new EventQueue(64, farSeqLimit);
    const cap = Math.max(16, initialCapacity | 0);
    this.rec = new Int32Array(cap * STRIDE);
    this.recObj = new Array<unknown>(cap).fill(undefined);
  }

  get size(): number {
    return this.nearCount + this.far.size;
  }

  /** Time of the earliest pending event; only meaningful when size > 0. */
  peekTime(): number {
    const farTime = this.farHead[0];
    if (this.nearCount === 0) return farTime;
    return Math.min(farTime, this.slotTime(this.nextSlot()));
  }

  /** Adds an event due at `time` (an integer >= the last popped time). */
  push(time: number, kind: number, a0: number, a1: number, obj: unknown): void {
    if (time - this.current >= WINDOW) {
      this.far.push(time, kind, a0, a1, obj);
      this.farHead[0] = this.far.peekTime();
      return;
    }
    let r = this.freeRec;
    if (r !== NONE) {
      this.freeRec = this.rec[r * STRIDE + NEXT];
    } else {
      if (this.recUsed === this.recObj.length) this.grow();
      r = this.recUsed++;
    }
    const rec = this.rec;
    const at = r * STRIDE;
    rec[at + KIND] = kind;
    rec[at + A0] = a0;
    rec[at + A1] = a1;
    rec[at + NEXT] = NONE;
    this.recObj[r] = obj;
    const s = time & MASK;
    const tail = this.last[s];
    if (tail === NONE) {
      this.first[s] = r;
      this.occupied[s >> 5] |= 1 << (s & 31);
    } else {
      rec[tail * STRIDE + NEXT] = r;
    }
    this.last[s] = r;
    this.nearCount++;
  }

  /** Removes the earliest event into popTime/popKind/...; false when empty. */
  pop(): boolean {
    if (this.nearCount === 0) return this.popFar();
    const s = this.nextSlot();
    const r = this.first[s];
    const time = this.slotTime(s);
    // On equal times the far event was scheduled first (see the file comment).
    if (this.farHead[0] <= time) return this.popFar();
    const rec = this.rec;
    const at = r * STRIDE;
    this.popTime = time;
    this.popKind = rec[at + KIND];
    this.popA0 = rec[at + A0];
    this.popA1 = rec[at + A1];
    this.popRec = r;
    const next = rec[at + NEXT];
    this.first[s] = next;
    if (next === NONE) {
      this.last[s] = NONE;
      this.occupied[s >> 5] &= ~(1 << (s & 31));
    }
    rec[at + NEXT] = this.freeRec;
    this.freeRec = r;
    this.nearCount--;
    this.current = time;
    return true;
  }

  /** The obj of the event popped last (before any push since); the queue lets go of it. */
  takeObj(): unknown {
    const r = this.popRec;
    if (r === NONE) return this.far.popObj;
    const obj = this.recObj[r];
    this.recObj[r] = undefined;
    return obj;
  }

  /** The obj of the event popped last, kept (takeObj lets go of it); for tests. */
  get popObj(): unknown {
    const r = this.popRec;
    return r === NONE ? this.far.popObj : this.recObj[r];
  }

  private popFar(): boolean {
    const far = this.far;
    if (!far.pop()) return false;
    this.farHead[0] = far.size > 0 ? far.peekTime() : Infinity;
    this.popTime = far.popTime;
    this.popKind = far.popKind;
    this.popA0 = far.popA0;
    this.popA1 = far.popA1;
    this.popRec = NONE;
    this.current = far.popTime;
    return true;
  }

  /** The time of the events in slot `s` (the one cycle of [current, current + WINDOW) it holds). */
  private slotTime(s: number): number {
    const current = this.current;
    return current + ((s - current) & MASK);
  }

  /** The first non-empty slot at or after `current`, cyclically (nearCount > 0). */
  private nextSlot(): number {
    const occupied = this.occupied;
    const words = occupied.length;
    const start = this.current & MASK;
    let w = start >> 5;
    // Bits of the first word from the start slot on.
    let bits = occupied[w] & (-1 << (start & 31));
    for (let i = 0; i <= words; i++) {
      if (bits !== 0) return (w << 5) + (31 - Math.clz32(bits & -bits));
      w = w + 1 === words ? 0 : w + 1;
      bits = occupied[w];
    }
    throw new Error('unreachable: the wheel holds events but no slot is marked');
  }

  private grow(): void {
    const oldCap = this.recObj.length;
    if (oldCap >= MAX_PENDING_EVENTS) throw new RangeError(`more than ${MAX_PENDING_EVENTS} events pending at once`);
    const cap = Math.min(MAX_PENDING_EVENTS, oldCap * 2);
    this.rec = grownArray(this.rec, cap * STRIDE);
    for (let i = oldCap; i < cap; i++) this.recObj.push(undefined);
  }
}
