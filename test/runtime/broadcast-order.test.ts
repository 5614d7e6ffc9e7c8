/**
 * Broadcasts arrive in the order their root sent them (Appendix A 4.4: each
 * ReceiveBroadcast takes the next broadcast): on the data-network platforms (thesis
 * 6.2) even when a later broadcast's messages overtake an earlier one's, and on the
 * CM-5's control network even when a later broadcast is shorter; and there, in Table 1's times.
 */
import { describe, expect, it } from 'vitest';
import type { Op, Runtime } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';

describe('broadcasts from one root, back to back, on the packet network', () => {
  // On 64 Alewife nodes node 32 assembled the double before the word sent ahead of it
  // and failed: "receiveBroadcast expected 1 words but the broadcast carried 2".
  it.each([
    ['alewife', 64],
    ['paragon', 64],
    ['atm', 5],
  ] as const)('on %s with %i nodes are received in the order they were sent', (platform, nodes) => {
    const { results } = runInline(
      platform,
      nodes,
      function* (rt) {
        if (rt.self === 0) {
          yield* rt.broadcast(-1);
          yield* rt.broadcastDouble(-1.25e300);
          yield* rt.broadcastVector([0, 0], [0xffffffff, 7]);
          yield* rt.broadcast(42);
          return [];
        }
        const to = [0, 0];
        const word = yield* rt.receiveBroadcast();
        const double = yield* rt.receiveBroadcastDouble();
        yield* rt.receiveBroadcastVector(to);
        return [word, double, ...to, yield* rt.receiveBroadcast()];
      },
      { network: 'packet' },
    );
    for (const r of results.slice(1)) expect(r).toEqual([-1, -1.25e300, 0xffffffff, 7, 42]);
  });
});

describe('broadcasts on the combining trees, past their 16-bit sequence numbers', () => {
  // Numbered modulo 2^16 per root: the receiver's count, had it not wrapped too, or an
  // assembly of the first broadcast left behind, would have stopped the 65,537th.
  it('take every broadcast of a root that sends 65,537', () => {
    const count = 65_537;
    const { results } = runInline('atm', 2, function* (rt) {
      let last = -1;
      for (let i = 0; i < count; i++) {
        if (rt.self === 0) yield* rt.broadcast(i);
        else last = yield* rt.receiveBroadcast();
      }
      return last;
    });
    expect(results[1]).toBe(count - 1);
  });
});

describe("the CM-5 control network's broadcasts", () => {
  // A vector takes 49 cycles a word longer than a word (Table 1), and a word broadcast
  // just after a 10-word vector was delivered first: "receiveBroadcastVector expected 10
  // words but the broadcast carried 1".
  it.each([2, 64])('are delivered in the order they were sent, a long one before a short one, on %i nodes', (nodes) => {
    const { results } = runInline(
      'cm5',
      nodes,
      function* (rt) {
        const vector = Array.from({ length: 10 }, (_, i) => i * 3);
        if (rt.self === 0) {
          yield* rt.broadcastVector(vector.slice(), vector);
          yield* rt.broadcastDouble(2.5);
          yield* rt.broadcast(7);
          return [];
        }
        const to = new Array<number>(10).fill(0);
        yield* rt.receiveBroadcastVector(to);
        return [...to, yield* rt.receiveBroadcastDouble(), yield* rt.receiveBroadcast()];
      },
      { network: 'packet' },
    );
    for (const r of results.slice(1)) expect(r).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 2.5, 7]);
  });

  // BroadcastDouble went as a two-word vector, 90 + 49 cycles; Table 1 gives it 90, as Broadcast.
  it('take Table 1\'s times to reach every node: 90 cycles for a word or a double, 49 more a further vector word', () => {
    /** Cycles from the broadcaster's call until its QueryBroadcast says every node has it, and until node 1 has it. */
    const cycles = (send: (rt: Runtime) => Op, receive: (rt: Runtime) => Op<unknown>) =>
      runInline('cm5', 4, function* (rt) {
        yield* rt.barrier();
        const start = rt.cycleCount();
        if (rt.self === 0) {
          yield* send(rt);
          while (!(yield* rt.queryBroadcast()));
        } else yield* receive(rt);
        return rt.elapsedCycles(start);
      }).results;
    const word = cycles((rt) => rt.broadcast(7), (rt) => rt.receiveBroadcast());
    const double = cycles((rt) => rt.broadcastDouble(2.5), (rt) => rt.receiveBroadcastDouble());
    expect(word[0]).toBe(90);
    expect(double[0]).toBe(90);
    // The receiver loads each word it takes: 2 cycles on the CM-5 (cm5.json's loadCycles).
    expect(double[1] - word[1]).toBe(2);
    // Seen at the 5-cycle query at delivery: the broadcaster's queries start once its last
    // word is sent (start + 49 a further word), in step with the 90 cycles of the delivery.
    expect(cycles((rt) => rt.broadcastVector([0, 0], [1, 2]), (rt) => rt.receiveBroadcastVector([0, 0]))[0]).toBe(90 + 49);
    expect(cycles((rt) => rt.broadcastVector([0, 0, 0], [1, 2, 3]), (rt) => rt.receiveBroadcastVector([0, 0, 0]))[0]).toBe(90 + 2 * 49);
  });

  // It returned after its start alone, 10 cycles for any length: Appendix A 4.4, "Returns when all words are sent".
  it('keep a vector\'s broadcaster until its last word is sent: the start, then 49 cycles a further word', () => {
    const { results } = runInline('cm5', 4, function* (rt) {
      yield* rt.barrier();
      const start = rt.cycleCount();
      const words = Array.from({ length: 20 }, (_, i) => i);
      if (rt.self === 0) yield* rt.broadcastVector(words.slice(), words);
      else yield* rt.receiveBroadcastVector(new Array<number>(20).fill(0));
      return rt.elapsedCycles(start);
    });
    expect(results[0]).toBe(10 + 19 * 49);
    // Every word has been sent; not all received (the receivers have them a latency later).
    for (const r of results.slice(1)) expect(r).toBeGreaterThan(results[0]);
  });

  it('hand over a word as it was broadcast, as a message does: 0xffffffff came as -1', () => {
    const { results } = runInline('cm5', 2, function* (rt) {
      if (rt.self === 0) {
        yield* rt.broadcast(0xffffffff);
        yield* rt.broadcast(-1);
        return [];
      }
      return [yield* rt.receiveBroadcast(), yield* rt.receiveBroadcast()];
    });
    expect(results[1]).toEqual([0xffffffff, -1]);
  });
});
