import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/kernel/event-queue.ts';
import { RandomStream } from '../../src/kernel/random-stream.ts';

/** Drains the queue, returning [time, a0] pairs in pop order. */
function drain(q: EventQueue): [number, number][] {
  const out: [number, number][] = [];
  while (q.pop()) out.push([q.popTime, q.popA0]);
  return out;
}

describe('EventQueue', () => {
  it('pops in time order and breaks ties in scheduling order', () => {
    const q = new EventQueue(16);
    q.push(5, 1, 0, 0, undefined);
    q.push(3, 1, 1, 0, undefined);
    q.push(5, 1, 2, 0, undefined);
    q.push(3, 1, 3, 0, undefined);
    q.push(0, 1, 4, 0, undefined);
    q.push(5, 1, 5, 0, undefined);
    expect(drain(q)).toEqual([
      [0, 4],
      [3, 1],
      [3, 3],
      [5, 0],
      [5, 2],
      [5, 5],
    ]);
  });

  it('carries every payload field and reference intact', () => {
    const q = new EventQueue(16);
    const obj = { tag: 'x' };
    q.push(7, 9, -3, 2_000_000_000, obj);
    expect(q.pop()).toBe(true);
    expect([q.popTime, q.popKind, q.popA0, q.popA1, q.popObj]).toEqual([7, 9, -3, 2_000_000_000, obj]);
    expect(q.pop()).toBe(false);
  });

  it('matches a sorted reference under random interleaved pushes and pops, growing past its capacity', () => {
    const rng = new RandomStream(42, 'test/event-queue');
    const q = new EventQueue(16);
    const reference: { time: number; seq: number; id: number }[] = [];
    let seq = 0;
    let now = 0;
    const popped: number[] = [];
    const expected: number[] = [];
    for (let step = 0; step < 20_000; step++) {
      if (rng.int(3) > 0 || reference.length === 0) {
        const time = now + rng.int(50); // many ties
        q.push(time, 0, seq, 0, undefined);
        reference.push({ time, seq, id: seq });
        seq++;
      } else {
        reference.sort((a, b) => a.time - b.time || a.seq - b.seq);
        const next = reference.shift()!;
        expected.push(next.id);
        q.pop();
        now = q.popTime;
        popped.push(q.popA0);
      }
    }
    expect(q.size).toBe(reference.length);
    expect(popped).toEqual(expected);
    reference.sort((a, b) => a.time - b.time || a.seq - b.seq);
    expect(drain(q).map(([, id]) => id)).toEqual(reference.map((r) => r.id));
  });
});

describe('EventQueue seq renumbering', () => {
  it('keeps the scheduling order of ties when seqs are renumbered', () => {
    const q = new EventQueue(16, 8); // renumber every 8 pushes
    const order: number[] = [];
    let id = 0;
    // Same-time events pushed across several renumberings must still pop FIFO.
    for (let round = 0; round < 5; round++) {
      for (let k = 0; k < 5; k++) q.push(100, 0, id++, 0, undefined);
      q.push(1, 0, -1, 0, undefined); // an earlier event popped each round
      q.pop();
      order.push(q.popA0);
    }
    while (q.pop()) order.push(q.popA0);
    expect(order).toEqual([-1, -1, -1, -1, -1, ...Array.from({ length: 25 }, (_, i) => i)]);
  });

  it('numbers the first event after a renumbering past every pending one, whatever slot it reuses', () => {
    const q = new EventQueue(16, 4); // renumber at the fifth push
    q.push(1, 0, -1, 0, undefined); // takes the lowest slot, freed below
    for (const id of [0, 1, 2]) q.push(100, 0, id, 0, undefined);
    q.pop();
    // Renumbered 0..2, the pending three leave seq 3 to this one, in the slot the first left.
    q.push(100, 0, 3, 0, undefined);
    const order: number[] = [];
    while (q.pop()) order.push(q.popA0);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});

describe("the event queue's times and V8's small integers", () => {
  it('pops a time below 2^30 as a small integer, not a boxed double (a boxed one changed the hidden class of every node)', () => {
    // Only V8's own %IsSmi can tell the two apart, so the check runs in a child with natives syntax.
    const src = pathToFileURL(join(import.meta.dirname, '../../src/kernel/event-queue.ts')).href;
    const code = `
      const { EventQueue } = await import(${JSON.stringify(src)});
      const q = new EventQueue(16);
      q.push(3_000_000, 1, 0, 0, undefined);
      q.push(2 ** 31, 1, 0, 0, undefined);
      q.pop(); const small = %IsSmi(q.popTime) && q.popTime === 3_000_000;
      q.pop(); const large = q.popTime === 2 ** 31;
      console.log(JSON.stringify({ small, large }));`;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ small: true, large: true });
  });
});
