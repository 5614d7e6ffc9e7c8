/**
 * patterns: every node sends one block of `blockBytes` to a target chosen by
 * `pattern` (thesis 7.2): `cshift` (self + shift, eq. 49), `exchange` (self XOR 2,
 * eq. 50) or `random` (uniform, drawn from the run seed). Blocks travel as a stream
 * of single-packet active messages, as many argument words per packet as the
 * platform allows (4 on the CM-5: 16 bytes, as Strata's block transfers carry), sent
 * alternately on both networks. Receivers check every word of every block; the
 * metric is effective bandwidth per node (thesis Fig. 7-5).
 */
import { defineApp, type Handler, type Op } from '../../src/runtime/index.ts';

interface Block {
  words: number;
  sum: number;
  xor: number;
}

interface Globals {
  /** What arrived, by sender. */
  from: Map<number, Block>;
  wordsReceived: number;
}

interface Input {
  targets: number[];
  /** Words each node will receive (from the targets; a receiver reads its own entry). */
  incomingWords: number[];
  /** One handler per sender: the handler word says whose block a packet belongs to. */
  handlers: Handler<Globals>[];
}

interface Result {
  from: [number, Block][];
  cycles: number;
}

/** Word `index` of `sender`'s block. */
function dataWord(sender: number, index: number): number {
  return (Math.imul(sender + 0x9e37, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

function mix(w: number): number {
  return Math.imul(w ^ (w >>> 15), 0x2c1b3c6d) >>> 0;
}

function receiverFor(sender: number): Handler<Globals> {
  return (rt, ...words) => {
    const g = rt.globals;
    let b = g.from.get(sender);
    if (b === undefined) {
      b = { words: 0, sum: 0, xor: 0 };
      g.from.set(sender, b);
    }
    for (const w of words) {
      b.words++;
      b.sum = (b.sum + mix(w)) >>> 0;
      b.xor = (b.xor ^ w) >>> 0;
    }
    g.wordsReceived += words.length;
    rt.computeOps({ loads: words.length, stores: words.length + 1, intOps: 2 });
  };
}

/** What a receiver should hold from `sender` after a block of `words` words. */
function expectedBlock(sender: number, words: number): Block {
  const b: Block = { words, sum: 0, xor: 0 };
  for (let i = 0; i < words; i++) {
    const w = dataWord(sender, i);
    b.sum = (b.sum + mix(w)) >>> 0;
    b.xor = (b.xor ^ w) >>> 0;
  }
  return b;
}

export default defineApp({
  name: 'patterns',
  description: 'each node sends one block to a target chosen by the pattern (thesis 7.2)',
  params: {
    pattern: { type: 'enum', values: ['cshift', 'exchange', 'random'], default: 'cshift', doc: 'how targets are chosen' },
    blockBytes: { type: 'int', default: 4096, min: 4, max: 1 << 24, doc: 'bytes each node sends (a multiple of 4)' },
    shift: { type: 'int', default: 4, min: 0, doc: 'cshift distance (thesis 7.2 uses 4)' },
  },
  check(p, machine) {
    if (p.blockBytes % 4 !== 0) return `blockBytes ${p.blockBytes}: expected a multiple of 4 (whole words)`;
    if (p.pattern === 'exchange' && machine.nodes < 4) return `pattern exchange (target = self XOR 2) needs at least 4 nodes, got ${machine.nodes}`;
    if (p.pattern === 'exchange' && (machine.nodes & (machine.nodes - 1)) !== 0) {
      return `pattern exchange (target = self XOR 2) needs a power-of-two node count, got ${machine.nodes}`;
    }
    return null;
  },
  setup({ params, machine, random }): Input {
    const P = machine.nodes;
    const targets = Array.from({ length: P }, (_, i) =>
      params.pattern === 'cshift' ? (i + params.shift) % P : params.pattern === 'exchange' ? i ^ 2 : random.int(P),
    );
    const incomingWords = new Array<number>(P).fill(0);
    for (const t of targets) incomingWords[t] += params.blockBytes / 4;
    return { targets, incomingWords, handlers: Array.from({ length: P }, (_, i) => receiverFor(i)) };
  },
  globals: (): Globals => ({ from: new Map(), wordsReceived: 0 }),

  *main(rt, p, input): Op<Result> {
    const g = rt.globals;
    const target = input.targets[rt.self];
    const expected = input.incomingWords[rt.self];
    const perPacket = rt.maxArgWords;
    const words = p.blockBytes / 4;
    const handler = input.handlers[rt.self];
    yield* rt.barrier();
    const start = rt.cycleCount();
    const packet: number[] = [];
    for (let i = 0, n = 0; i < words; i += perPacket, n++) {
      packet.length = 0;
      for (let j = i; j < Math.min(words, i + perPacket); j++) packet.push(dataWord(rt.self, j));
      rt.computeOps({ loads: packet.length, intOps: 2 });
      // Alternating the two send variants spreads packets over both networks (Appendix A 6.1).
      if (n % 2 === 0) yield* rt.sendBothLRPollBoth(target, handler, ...packet);
      else yield* rt.sendBothRLPollBoth(target, handler, ...packet);
    }
    yield* rt.pollBothUntil(() => g.wordsReceived >= expected);
    const cycles = rt.elapsedCycles(start);
    yield* rt.barrier();
    return { from: [...g.from.entries()], cycles };
  },

  verify({ params, machine, input, results }) {
    const problems: string[] = [];
    const words = params.blockBytes / 4;
    results.forEach((r, node) => {
      const got = new Map(r.from);
      const senders = input.targets.flatMap((t, s) => (t === node ? [s] : []));
      for (const s of senders) {
        const want = expectedBlock(s, words);
        const have = got.get(s);
        if (have === undefined) problems.push(`node ${node} got nothing from node ${s}`);
        else if (have.words !== want.words) problems.push(`node ${node} got ${have.words} of ${want.words} words from node ${s}`);
        else if (have.sum !== want.sum || have.xor !== want.xor) problems.push(`node ${node} got corrupted data from node ${s}`);
        got.delete(s);
      }
      for (const s of got.keys()) problems.push(`node ${node} got data from node ${s}, which did not target it`);
    });
    const cycles = Math.max(...results.map((r) => r.cycles));
    const micros = cycles / machine.clockMHz;
    const perDirection = params.blockBytes / micros; // bytes per microsecond = MB/s
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `every block of ${params.blockBytes} bytes arrived intact at its target`
          : problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : ''),
      metrics: {
        cycles,
        // Per node and direction, as thesis eq. 47 counts (5.93 MB/s two-way on the CM-5).
        mbPerSecPerNode: Math.round(perDirection * 1000) / 1000,
        maxIncomingBlocks: Math.max(...input.incomingWords) / words,
      },
    };
  },
});
