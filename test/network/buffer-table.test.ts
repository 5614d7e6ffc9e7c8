import { describe, expect, it } from 'vitest';
import { BufferTable } from '../../src/network/buffer-table.ts';

describe('buffer table', () => {
  it('keeps each buffer a FIFO of its capacity, its ring wrapping around', () => {
    const t = new BufferTable(1); // grows past the expected count
    const a = t.add(3);
    const b = t.add(2, 2 * 7 + 1);
    const ps = [10, 11, 12, 13, 14, 15]; // packet ids
    for (const p of ps.slice(0, 3)) {
      expect(t.hasRoom(a)).toBe(true);
      t.reserve(a);
      t.push(a, p);
    }
    expect(t.hasRoom(a)).toBe(false);
    expect(t.front(a)).toBe(ps[0]);
    // Shift two, push two more: the ring wraps, the order stays.
    expect(t.shift(a)).toBe(ps[0]);
    t.release(a);
    expect(t.shift(a)).toBe(ps[1]);
    t.release(a);
    for (const p of ps.slice(3, 5)) {
      t.reserve(a);
      t.push(a, p);
    }
    expect(t.list(a)).toEqual([ps[2], ps[3], ps[4]]);
    expect(t.size(a)).toBe(3);
    // The other buffer is untouched by the first one's wrap.
    expect(t.size(b)).toBe(0);
    expect(t.front(b)).toBe(-1);
    expect(t.shift(b)).toBe(-1);
    t.reserve(b);
    t.push(b, ps[5]);
    expect(t.list(b)).toEqual([ps[5]]);
    expect(t.injecting(b)).toBe(15);
    expect(t.injecting(a)).toBe(-1);
  });

  it('lists each buffer its feeders, an empty range for none', () => {
    const t = new BufferTable(3);
    for (let i = 0; i < 3; i++) t.add(1);
    // Channel c's record is two integers, its far buffer the second: channels 1 and 3 feed
    // buffer 0, channels 0 and 2 buffer 2, none buffer 1.
    const records = Int32Array.from([0, 2, 0, 0, 0, 2, 0, 0]);
    t.setFeeders(records, 1, 2);
    const feedersOf = (b: number): number[] => Array.from(t.feeders.subarray(t.feedStart(b), t.feedEnd(b)));
    expect(feedersOf(0)).toEqual([1, 3]);
    expect(feedersOf(1)).toEqual([]);
    expect(feedersOf(2)).toEqual([0, 2]);
  });

  it('counts the blocked feeders of a buffer apart from the injection buffers\' owners', () => {
    const t = new BufferTable(2);
    const router = t.add(2);
    const injection = t.add(1, 2 * 5 + 1);
    expect(t.isBlocking(router)).toBe(false);
    // Two feeders get packets waiting, one of them is served: the buffer still blocks one.
    t.block(router);
    t.block(router);
    t.unblock(router);
    expect(t.isBlocking(router)).toBe(true);
    t.unblock(router);
    expect(t.isBlocking(router)).toBe(false);
    expect(t.injecting(router)).toBeLessThan(0);
    expect(t.injecting(injection)).toBe(11);
    expect(t.isBlocking(injection)).toBe(false);
  });
});
