// The machine's spare packets and block-packet words (src/network/packet-pool.ts): a
// handled packet is made again as new, a block packet's words come back to be refilled,
// and nothing else's do. Then the story that makes it matter: on a real machine, block
// transfers and active messages go through the same recycled packets and every word
// still arrives as sent.
import { describe, expect, it } from 'vitest';
import { Packet } from '../../src/network/packet.ts';
import { PacketPool } from '../../src/network/packet-pool.ts';
import type { Machine } from '../../src/machine/machine.ts';
import type { Handler, Op, PortHandler, Runtime } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';

/** A packet's fields as a plain object, to compare a made-again packet with a new one. */
const fields = (p: Packet) => ({ ...p });

describe('a PacketPool', () => {
  it('makes a handled packet again as new Packet would, its routing state reset', () => {
    const pool = new PacketPool(5);
    const handler = () => {};
    const first = pool.packet(3, 4, 1, 20, handler, [1, 2, 3, 4, 5], true);
    // What a trip through the network leaves on a packet.
    Object.assign(first, { injectedAt: 900, at: 17, hop: 3, lane: 2, isReady: true, id: 41, nextWaiter: 12 });
    pool.release(first);
    const words = pool.wordsOf(5);
    const again = pool.packet(7, 2, 0, 12, handler, [9, 8, 7], false);
    expect(again).toBe(first);
    expect(fields(again)).toEqual(fields(new Packet(7, 2, 0, 12, handler, [9, 8, 7])));
    expect(again.argsArePooled).toBe(false);
    // Its old words came back to be filled again.
    expect(words).toEqual([1, 2, 3, 4, 5]);
  });

  it("takes back only a block packet's words, and only the pool's: an app's or an engine's arguments are never reused", () => {
    const pool = new PacketPool(5);
    const appArgs = [1, 2, 3, 4, 5];
    pool.release(pool.packet(0, 1, 0, 20, null, appArgs, false));
    const short = pool.wordsOf(3);
    pool.release(pool.packet(0, 1, 0, 12, null, short, true));
    // The second packet was the first made again: one spare packet, no spare words.
    expect(pool.spare).toEqual({ packets: 1, words: 0 });
    expect(pool.wordsOf(5)).not.toBe(appArgs);
    // A handled packet lets go of its words and handler.
    const p = pool.packet(0, 1, 0, 20, () => {}, pool.wordsOf(5), true);
    pool.release(p);
    expect([p.args, p.handler, p.argsArePooled]).toEqual([[], null, false]);
    expect(pool.spare).toEqual({ packets: 1, words: 1 });
  });

  it('keeps at most 1,024 packets and 1,024 arrays, however many are handled without a send between', () => {
    const pool = new PacketPool(2);
    for (let i = 0; i < 3000; i++) pool.release(new Packet(0, 1, 0, 8, null, []));
    for (let i = 0; i < 3000; i++) {
      const p = new Packet(0, 1, 0, 8, null, [i, i]);
      p.argsArePooled = true;
      pool.release(p);
    }
    expect(pool.spare).toEqual({ packets: 1024, words: 1024 });
  });
});

interface Node {
  memory: Uint32Array;
  blocksIn: number;
  messages: number[][];
}

const blockIn: PortHandler<Node> = (rt) => {
  rt.globals.blocksIn++;
};
const message: Handler<Node> = (rt, ...args) => {
  rt.globals.messages.push(args);
};

const ROUNDS = 6;
const WORDS = 64;
const word = (from: number, round: number, i: number) => (Math.imul(from + 1, 0x9e3779b1) ^ Math.imul(round * WORDS + i + 1, 0x85ebca6b)) >>> 0;

describe('packets recycled on a real machine', () => {
  it('carry every block word and every message argument as sent, while the machine reuses them', () => {
    let machine: Machine | null = null;
    const { results } = runInline(
      'cm5',
      8,
      function* (rt: Runtime<Node>): Op<Node> {
        const g = rt.globals;
        const next = (rt.self + 1) % rt.partitionSize;
        const port = rt.port(1);
        port.setBase(g.memory);
        port.count = ROUNDS * WORDS;
        port.handler = blockIn as PortHandler;
        yield* rt.barrier();
        for (let r = 0; r < ROUNDS; r++) {
          // A block (pooled words), then messages (the app's own arguments), one after the other.
          const block = Array.from({ length: WORDS }, (_, i) => word(rt.self, r, i));
          yield* rt.sendBlockXferPollBoth(next, 1, r * WORDS, block);
          for (let m = 0; m < 3; m++) yield* rt.sendLeftPollBoth(next, message as Handler, rt.self, r, m, word(rt.self, r, m));
        }
        yield* rt.pollBothUntil(() => g.blocksIn === 1 && g.messages.length === 3 * ROUNDS);
        yield* rt.barrier();
        return g;
      },
      { network: 'packet', globals: () => ({ memory: new Uint32Array(ROUNDS * WORDS), blocksIn: 0, messages: [] }), inspect: (m) => void (machine = m) },
    );
    results.forEach((g, node) => {
      const from = (node + 7) % 8;
      expect([...g.memory]).toEqual(Array.from({ length: ROUNDS * WORDS }, (_, k) => word(from, Math.floor(k / WORDS), k % WORDS)));
      const sent = Array.from({ length: ROUNDS }, (_, r) => [0, 1, 2].map((m) => [from, r, m, word(from, r, m)])).flat();
      expect(g.messages.sort((a, b) => a[1] - b[1] || a[2] - b[2])).toEqual(sent);
    });
    // The machine did reuse them: spare block words are left at the end.
    expect(machine!.packets.spare.words).toBeGreaterThan(0);
  });
});
