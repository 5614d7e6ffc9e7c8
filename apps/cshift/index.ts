/**
 * cshift: a cyclic shift of active messages (thesis 7.2, eq. 49). Every node sends
 * `messages` active messages to node (self + shift) mod P, each carrying its sender,
 * sequence number and a payload word; every node checks it received each message
 * from (self - shift) mod P exactly once with the right payload, and the run checks that
 * this sender is the shift partner the parameters name.
 */
import { defineApp, type Handler, type Op } from '../../src/runtime/index.ts';

interface Globals {
  /** Which sequence numbers have arrived. */
  seen: Uint8Array;
  received: number;
  duplicates: number;
  wrongSender: number;
  badPayload: number;
  expectedSender: number;
}

interface Result {
  /** The node whose messages this one accepted (the others count as wrongSender). */
  from: number;
  received: number;
  missing: number;
  duplicates: number;
  wrongSender: number;
  badPayload: number;
  cycles: number;
}

function payload(sender: number, seq: number): number {
  return (Math.imul(sender + 1, 0x27d4eb2f) ^ Math.imul(seq, 0x165667b1)) >>> 0;
}

const receive: Handler<Globals> = (rt, sender, seq, word) => {
  const g = rt.globals;
  if (sender !== g.expectedSender) {
    g.wrongSender++;
    return;
  }
  if (seq < 0 || seq >= g.seen.length || g.seen[seq] === 1) {
    g.duplicates++;
    return;
  }
  if (word !== payload(sender, seq)) g.badPayload++;
  g.seen[seq] = 1;
  g.received++;
  rt.computeOps({ loads: 2, stores: 2, intOps: 4 });
};

export default defineApp({
  name: 'cshift',
  description: 'cyclic shift of active messages: node i sends to (i + shift) mod P',
  params: {
    shift: { type: 'int', default: 1, min: 0, doc: 'distance of the shift (taken modulo the node count)' },
    messages: { type: 'int', default: 64, min: 1, max: 1_000_000, doc: 'active messages each node sends' },
  },
  globals: (): Globals => ({
    seen: new Uint8Array(0),
    received: 0,
    duplicates: 0,
    wrongSender: 0,
    badPayload: 0,
    expectedSender: -1,
  }),

  *main(rt, p): Op<Result> {
    const g = rt.globals;
    const P = rt.partitionSize;
    g.seen = new Uint8Array(p.messages);
    // Reduced first: self + shift lost its low bits past 2^53 (shift 2^53 - 1 deadlocked).
    const shift = p.shift % P;
    g.expectedSender = (rt.self - shift + P) % P;
    const dest = (rt.self + shift) % P;
    yield* rt.barrier();
    const start = rt.cycleCount();
    for (let seq = 0; seq < p.messages; seq++) {
      rt.computeOps({ intOps: 3, loads: 1 });
      yield* rt.sendLeftPollBoth(dest, receive, rt.self, seq, payload(rt.self, seq));
    }
    yield* rt.pollBothUntil(() => g.received + g.duplicates + g.wrongSender >= p.messages);
    const cycles = rt.elapsedCycles(start);
    yield* rt.barrier();
    return {
      from: g.expectedSender,
      received: g.received,
      missing: p.messages - g.received,
      duplicates: g.duplicates,
      wrongSender: g.wrongSender,
      badPayload: g.badPayload,
      cycles,
    };
  },

  verify({ params, results }) {
    const problems: string[] = [];
    const P = results.length;
    const shift = params.shift % P;
    results.forEach((r, i) => {
      // Each node checks its messages against the sender it expects: a shift every node got
      // wrong the same way (node i sending to i + shift + 1) was "received from its shift partner".
      const partner = (i - shift + P) % P;
      if (r.from !== partner) problems.push(`node ${i} received from node ${r.from}, expected node ${partner} (shift ${params.shift} on ${P} nodes)`);
      if (r.missing > 0) problems.push(`node ${i} is missing ${r.missing} messages`);
      if (r.duplicates > 0) problems.push(`node ${i} got ${r.duplicates} duplicates`);
      if (r.wrongSender > 0) problems.push(`node ${i} got ${r.wrongSender} messages from the wrong sender`);
      if (r.badPayload > 0) problems.push(`node ${i} got ${r.badPayload} corrupted payloads`);
    });
    const maxCycles = Math.max(...results.map((r) => r.cycles));
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `every node received all ${params.messages} messages from its shift partner, each once and intact`
          : problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : ''),
      metrics: {
        shiftCycles: maxCycles,
        cyclesPerMessage: Math.round((maxCycles / params.messages) * 100) / 100,
      },
    };
  },
});
