/**
 * The timing wheel against the heap it fronts: under random pushes and pops with many
 * ties, near and far delays, delays of exactly the window and times past 2^32, both
 * hand out the same events in the same order.
 */
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/kernel/event-queue.ts';
import { RandomStream } from '../../src/kernel/random-stream.ts';
import { TimingWheelQueue } from '../../src/kernel/timing-wheel.ts';

type Queue = EventQueue | TimingWheelQueue;

/** Pushes and pops the same random operations on `q`; returns what it popped, as "time:id:payload id". */
function exercise(q: Queue, seed: number, start: number, delay: (rng: RandomStream) => number): string[] {
  const rng = new RandomStream(seed, 'test/timing-wheel');
  const out: string[] = [];
  let now = start;
  let id = 0;
  q.push(now, 0, id++, 0, undefined);
  for (let step = 0; step < 30_000; step++) {
    if (rng.int(5) < 3 || q.size === 0) {
      const obj = { id };
      q.push(now + delay(rng), 1, id++, 7, obj);
    } else {
      q.pop();
      now = q.popTime;
      out.push(`${q.popTime}:${q.popA0}:${(q.popObj as { id: number } | undefined)?.id ?? '-'}`);
    }
  }
  while (q.pop()) out.push(`${q.popTime}:${q.popA0}:${(q.popObj as { id: number } | undefined)?.id ?? '-'}`);
  return out;
}

const DELAYS: [string, (rng: RandomStream) => number][] = [
  ['near, with many ties', (rng) => rng.int(40)],
  ['near and far mixed', (rng) => (rng.int(4) === 0 ? 4000 + rng.int(200) : rng.int(300))],
  ['exactly the window and around it', (rng) => [0, 4095, 4096, 4097, 8192][rng.int(5)]],
  ['mostly far', (rng) => rng.int(100_000)],
];

describe('TimingWheelQueue', () => {
  it.each(DELAYS)('pops in the heap order with delays %s', (_, delay) => {
    for (const start of [0, 2 ** 32 - 50, 2 ** 40 + 3]) {
      const heap = exercise(new EventQueue(16), 7, start, delay);
      const wheel = exercise(new TimingWheelQueue(16), 7, start, delay);
      expect(wheel.length).toBe(heap.length);
      expect(wheel).toEqual(heap);
    }
  });

  it('puts a far event due at the same cycle as near ones before them, as scheduled', () => {
    const q = new TimingWheelQueue(16);
    q.push(5000, 0, 1, 0, undefined); // far: scheduled first
    q.push(4990, 0, 0, 0, undefined);
    q.pop(); // now 4990: 5000 is near from here on
    q.push(5000, 0, 2, 0, undefined);
    q.push(5000, 0, 3, 0, undefined);
    const order: number[] = [];
    while (q.pop()) order.push(q.popA0);
    expect(order).toEqual([1, 2, 3]);
    expect(q.size).toBe(0);
  });

  it('reports the earliest time from either part and counts both', () => {
    const q = new TimingWheelQueue(16);
    q.push(9000, 0, 0, 0, undefined);
    expect(q.peekTime()).toBe(9000);
    q.push(30, 0, 1, 0, undefined);
    expect([q.size, q.peekTime()]).toEqual([2, 30]);
    q.pop();
    expect([q.size, q.peekTime()]).toEqual([1, 9000]);
  });

  it('reports a far event as the earliest when a near one pushed since is due after it', () => {
    const q = new TimingWheelQueue(16);
    q.push(5000, 0, 0, 0, undefined); // far from cycle 0
    q.push(1000, 0, 1, 0, undefined);
    q.pop(); // now 1000: 5050 is within the window, 5000 stays in the heap
    q.push(5050, 0, 2, 0, undefined);
    expect(q.peekTime()).toBe(5000);
    q.pop();
    expect([q.popTime, q.popA0, q.peekTime()]).toEqual([5000, 0, 5050]);
  });

  it('hands out more than 2^24 events over its life, two pending at a time (its records are reused)', () => {
    const q = new TimingWheelQueue(16);
    q.push(0, 0, 0, 0, undefined);
    q.push(0, 0, 0, 0, undefined);
    const rounds = 2 ** 24 + 2;
    for (let i = 1; i <= rounds; i++) {
      q.pop();
      q.pop(); // both records freed before either is taken again
      q.push(q.popTime + 1, 0, i, 0, undefined);
      q.push(q.popTime + 1, 0, i, 0, undefined);
    }
    expect(q.pop() && q.pop()).toBe(true);
    expect([q.popTime, q.popA0, q.size]).toEqual([rounds, rounds, 0]);
  });
});
