/**
 * patterns: the communication experiments of thesis chapter 7. In each of `rounds`
 * rounds every node sends one block of `blockBytes` by Strata block transfer to a
 * target chosen by `pattern`:
 *
 *   cshift     self + shift (eq. 49), every round
 *   exchange   self XOR 2 (eq. 50), every round
 *   random     uniform, drawn afresh each round from the run seed
 *   transpose  all-pairs: round r is the cyclic shift by r, so P rounds use every
 *              offset once (7.3)
 *
 * `barriers` separates rounds: `none`, `each` (a split-phase barrier after every
 * round, during which the node keeps receiving; 7.3.1) or `optimized` (one every
 * ceil(512 / blockBytes) rounds, eq. 52). `bwMatch`, `delay` and `poll` set the block
 * transfers' bandwidth matching, its delay and the poll policy (6.1.3, 7.3.3); `transfer=async`
 * queues `batch` rounds' blocks at a time with the asynchronous block-transfer engine
 * and services them interleaved (7.4.1; barriers then fall between batches).
 *
 * Before each barrier a node also waits until it holds the blocks of the rounds
 * before it, so that no round's packets are still in the network when the next
 * starts (7.3.1: permutations separated by barriers never collide at a target).
 *
 * Each receiver gives every sender its own port, expecting that sender's blocks one
 * after another; the run checks every word afterwards. The metric is the effective
 * bandwidth per node: bytes a node sends over the time until every node has sent and
 * received everything (thesis Figs. 7-5, 7-6, 7-8, 7-9).
 */
import { defineApp, InputError, STRATA_MAX_XFER_OFFSET, type Op, type PortHandler, type Runtime } from '../../src/runtime/index.ts';

interface Globals {
  /** Ports whose expected blocks have all arrived. */
  portsDone: number;
}

interface Input {
  /** targets[round][node]. */
  targets: number[][];
  /** For each receiver, the number of blocks it gets from each sender that sends it any. */
  incoming: Map<number, number>[];
  /** For each receiver, [round, sender] of every block it gets, in round order. */
  arrivals: [number, number][][];
}

interface Result {
  /** What arrived, by sender (one block after another). */
  memory: [number, Uint32Array][];
  cycles: number;
}

/** Word `index` of the `k`-th block `sender` sends to `receiver`. */
function dataWord(sender: number, receiver: number, k: number, index: number): number {
  const h = Math.imul(sender + 0x9e37, 0x85ebca6b) ^ Math.imul(receiver + 0x7f4a, 0xc2b2ae35) ^ Math.imul(k + 1, 0x27d4eb2f);
  return (h ^ Math.imul(index + 1, 0x165667b1)) >>> 0;
}

const portFinished: PortHandler<Globals> = (rt) => {
  rt.globals.portsDone++;
};

/**
 * Most host memory a run's blocks may take: 2 GiB, as the stencil's largest grid. Each
 * block holds its data at its receiver until the check, and about 150 bytes more of
 * bookkeeping (its round's target, its receiver's arrival list and counts): transposes
 * of 4-byte blocks on 256 and 1024 CM-5 nodes (65,536 and 1,048,576 blocks) peaked at 67
 * and 215 MB. The largest shipped runs move 262,144 blocks of 1 KB (W5) and 32,768 of
 * 1 KB (Fig. 7-6 at 64 nodes).
 */
const MAX_BLOCK_MEMORY = 2 ** 31;
const BOOKKEEPING_BYTES_PER_BLOCK = 150;

/** Blocks each node sends (the rounds parameter, 0 meaning P for transpose and 1 otherwise). */
function roundsOf(p: { rounds: number; pattern: string }, nodes: number): number {
  return p.rounds > 0 ? p.rounds : p.pattern === 'transpose' ? nodes : 1;
}

/** Rounds between barriers (thesis eq. 52 for `optimized`); Infinity for none. */
function barrierEvery(barriers: string, blockBytes: number): number {
  if (barriers === 'none') return Infinity;
  return barriers === 'each' ? 1 : Math.ceil(512 / blockBytes);
}

/** A split-phase barrier that keeps receiving while it waits (7.3: a blocking one can deadlock). */
function* receivingBarrier(rt: Runtime<Globals>): Op {
  yield* rt.startBarrier();
  while (!(yield* rt.queryBarrier())) yield* rt.pollBothTilEmpty();
}

/**
 * Why `targets` (targets[round][node]) is not `pattern` on P nodes, or null: the blocks
 * are checked at the targets setup drew, so a pattern drawn wrong (a cshift by
 * shift + 1, a transpose that missed an offset) arrived intact and verified.
 */
function patternProblem(p: { pattern: string; shift: number }, P: number, targets: readonly (readonly number[])[]): string | null {
  for (let r = 0; r < targets.length; r++) {
    for (let i = 0; i < P; i++) {
      const t = targets[r][i];
      const want = p.pattern === 'cshift' ? (i + (p.shift % P)) % P : p.pattern === 'exchange' ? i ^ 2 : p.pattern === 'transpose' ? (i + r) % P : null;
      if (want === null ? !(Number.isInteger(t) && t >= 0 && t < P) : t !== want) {
        return `round ${r} sends node ${i}'s block to node ${t}, expected ${want === null ? `a node from 0 to ${P - 1}` : `node ${want}`} (pattern ${p.pattern})`;
      }
    }
  }
  return null;
}

export default defineApp({
  name: 'patterns',
  description: 'rounds of block transfers to targets chosen by a pattern (thesis chapter 7)',
  params: {
    pattern: { type: 'enum', values: ['cshift', 'exchange', 'random', 'transpose'], default: 'cshift', doc: 'how targets are chosen' },
    blockBytes: {
      type: 'int',
      default: 4096,
      min: 4,
      max: 4 * STRATA_MAX_XFER_OFFSET,
      doc: "bytes per block (a multiple of 4); a sender's blocks to one target lie back to back in its port, at most 524,287 words (block transfer offsets)",
    },
    shift: { type: 'int', default: 4, min: 0, doc: 'cshift distance (thesis 7.2 uses 4)' },
    rounds: { type: 'int', default: 0, min: 0, max: 4096, doc: 'blocks each node sends; 0: P for transpose, else 1' },
    barriers: { type: 'enum', values: ['none', 'each', 'optimized'], default: 'none', doc: 'barriers between rounds' },
    bwMatch: { type: 'bool', default: true, doc: "bandwidth matching: wait the platform delay after each packet when nothing arrived (not with DMA, as on Alewife: the DMA engine's rate is matched statically)" },
    poll: { type: 'enum', values: ['empty', 'once'], default: 'empty', doc: 'after each packet, poll until empty or handle one arrival' },
    // 7.3.3: "For the limited polling case, it was slightly beneficial to increase the
    // delay to 35 cycles to allow late processors to catch up more quickly."
    delay: {
      type: 'int',
      default: -1,
      min: -1,
      max: 1_000_000,
      doc: "bandwidth-matching delay in cycles; -1: the platform's (CM-5: 28, thesis 6.1.3; 7.3.3 used 35 with poll=once); none with DMA",
    },
    transfer: { type: 'enum', values: ['sync', 'async'], default: 'sync', doc: 'one block at a time, or interleaved asynchronous transfers' },
    batch: { type: 'int', default: 8, min: 1, max: 4096, doc: 'async: rounds queued per ServiceAllTransfers (the thesis used 8)' },
  },
  check(p, machine) {
    if (p.blockBytes % 4 !== 0) return `blockBytes ${p.blockBytes}: expected a multiple of 4 (whole words)`;
    if (p.pattern === 'exchange' && machine.nodes < 4) return `pattern exchange (target = self XOR 2) needs at least 4 nodes, got ${machine.nodes}`;
    if (p.pattern === 'exchange' && (machine.nodes & (machine.nodes - 1)) !== 0) {
      return `pattern exchange (target = self XOR 2) needs a power-of-two node count, got ${machine.nodes}`;
    }
    if (machine.nodes > 4096) return `at most 4096 nodes (one port per sender), got ${machine.nodes}`;
    // A block goes to offset k x words of its target's port for the sender (blockFor), and
    // block transfers address offsets up to STRATA_MAX_XFER_OFFSET (blocks past it failed at
    // run time): known here for all but random targets, which setup checks once drawn (on
    // one node every block goes to node 0).
    const perTarget = p.pattern === 'random' ? (machine.nodes === 1 ? roundsOf(p, 1) : 1) : p.pattern === 'transpose' ? Math.ceil(roundsOf(p, machine.nodes) / machine.nodes) : roundsOf(p, machine.nodes);
    if ((perTarget * p.blockBytes) / 4 > STRATA_MAX_XFER_OFFSET) {
      return `${perTarget} blocks of ${p.blockBytes} bytes from each sender to one target (pattern ${p.pattern}) take ${(perTarget * p.blockBytes) / 4} words of the target's port; block transfers address at most ${STRATA_MAX_XFER_OFFSET}, so expected fewer rounds or bytes`;
    }
    const blocks = roundsOf(p, machine.nodes) * machine.nodes;
    const bytes = blocks * (p.blockBytes + BOOKKEEPING_BYTES_PER_BLOCK);
    if (bytes > MAX_BLOCK_MEMORY) {
      return `${blocks} blocks of ${p.blockBytes} bytes (${machine.nodes} nodes x ${blocks / machine.nodes} rounds) take about ${bytes} bytes of host memory (each block's data and about ${BOOKKEEPING_BYTES_PER_BLOCK} bytes of bookkeeping), so expected at most ${MAX_BLOCK_MEMORY} (2 GiB): fewer nodes, rounds or bytes`;
    }
    return null;
  },
  setup({ params, machine, random }): Input {
    const P = machine.nodes;
    const rounds = roundsOf(params, P);
    const targets = Array.from({ length: rounds }, (_, r) =>
      Array.from({ length: P }, (_, i) => {
        switch (params.pattern) {
          case 'cshift':
            // Reduced first: i + shift lost its low bits past 2^53 (two nodes sent to node 0).
            return (i + (params.shift % P)) % P;
          case 'exchange':
            return i ^ 2;
          case 'transpose':
            return (i + r) % P;
          default:
            return random.int(P);
        }
      }),
    );
    const incoming = Array.from({ length: P }, () => new Map<number, number>());
    const arrivals = Array.from({ length: P }, (): [number, number][] => []);
    targets.forEach((round, r) =>
      round.forEach((t, s) => {
        incoming[t].set(s, (incoming[t].get(s) ?? 0) + 1);
        arrivals[t].push([r, s]);
      }),
    );
    // What random targets drew, checked as check() checks the other patterns: it failed at the block past the port's end, exit 1.
    const words = params.blockBytes / 4;
    incoming.forEach((from, t) =>
      from.forEach((blocks, s) => {
        if (blocks * words > STRATA_MAX_XFER_OFFSET) {
          throw new InputError(`app patterns: the random targets drew ${blocks} blocks of ${params.blockBytes} bytes from node ${s} to node ${t}, ${blocks * words} words of its port; block transfers address at most ${STRATA_MAX_XFER_OFFSET}, so expected fewer rounds or bytes`);
        }
      }),
    );
    return { targets, incoming, arrivals };
  },
  globals: (): Globals => ({ portsDone: 0 }),

  *main(rt, p, input): Op<Result> {
    const g = rt.globals;
    const words = p.blockBytes / 4;
    const rounds = input.targets.length;
    const delayCycles = p.delay >= 0 ? p.delay : rt.blockTransferOptions.delayCycles;
    rt.blockTransferOptions = { ...rt.blockTransferOptions, bandwidthMatching: p.bwMatch, delayCycles, poll: p.poll as 'empty' | 'once' };

    // A port per sender, expecting all its blocks back to back.
    const memory: [number, Uint32Array][] = [];
    for (const [sender, blocks] of input.incoming[rt.self]) {
      const m = new Uint32Array(blocks * words);
      const port = rt.port(sender);
      port.setBase(m);
      port.count = blocks * words;
      port.handler = portFinished as PortHandler;
      memory.push([sender, m]);
    }
    // Blocks already sent to each target, which places the next one in the target's port.
    const sentTo = new Map<number, number>();
    const blockFor = (target: number): [number, Uint32Array] => {
      const k = sentTo.get(target) ?? 0;
      sentTo.set(target, k + 1);
      const data = new Uint32Array(words);
      for (let i = 0; i < words; i++) data[i] = dataWord(rt.self, target, k, i);
      return [k * words, data];
    };
    const every = barrierEvery(p.barriers, p.blockBytes);
    // Waits until this node holds every block of the rounds before `round`.
    const arrivals = input.arrivals[rt.self];
    const incoming = input.incoming[rt.self];
    const dueBlocks = new Map<number, number>();
    let counted = 0;
    function* awaitRoundsBefore(round: number): Op {
      const senders: number[] = [];
      for (; counted < arrivals.length && arrivals[counted][0] < round; counted++) {
        const sender = arrivals[counted][1];
        dueBlocks.set(sender, (dueBlocks.get(sender) ?? 0) + 1);
        senders.push(sender);
      }
      // A port counts down from all of its sender's words.
      const holdsDue = (s: number): boolean => rt.port(s).count <= ((incoming.get(s) ?? 0) - (dueBlocks.get(s) ?? 0)) * words;
      yield* rt.pollBothUntil(() => senders.every(holdsDue), "waiting for the previous rounds' blocks");
    }

    yield* rt.barrier();
    const start = rt.cycleCount();
    const step = p.transfer === 'async' ? p.batch : 1;
    for (let r = 0; r < rounds; r += step) {
      if (p.transfer === 'async') {
        for (let q = r; q < Math.min(rounds, r + step); q++) {
          const target = input.targets[q][rt.self];
          const [offset, data] = blockFor(target);
          rt.asyncBlockXfer(target, rt.self, offset, data);
        }
        yield* rt.serviceAllTransfers(-1);
      } else {
        const target = input.targets[r][rt.self];
        const [offset, data] = blockFor(target);
        yield* rt.sendBlockXferPollBoth(target, rt.self, offset, data);
      }
      const done = r + step;
      if (done < rounds && Math.floor(done / every) !== Math.floor(r / every)) {
        yield* awaitRoundsBefore(done);
        yield* receivingBarrier(rt);
      }
    }
    yield* rt.pollBothUntil(() => g.portsDone === memory.length, 'waiting for its blocks');
    const cycles = rt.elapsedCycles(start);
    yield* rt.barrier();
    return { memory, cycles };
  },

  verify({ params, machine, input, results }) {
    const problems: string[] = [];
    const drawn = patternProblem(params, machine.nodes, input.targets);
    if (drawn !== null) problems.push(drawn);
    const words = params.blockBytes / 4;
    results.forEach((r, node) => {
      const got = new Map(r.memory);
      for (const [sender, blocks] of input.incoming[node]) {
        const m = got.get(sender);
        if (m === undefined || m.length !== blocks * words) {
          problems.push(`node ${node} has no room for the blocks of node ${sender}`);
          continue;
        }
        let bad = 0;
        for (let k = 0; k < blocks; k++) {
          for (let i = 0; i < words; i++) if (m[k * words + i] !== dataWord(sender, node, k, i)) bad++;
        }
        if (bad > 0) problems.push(`node ${node} holds ${bad} wrong words from node ${sender}`);
      }
    });
    const cycles = Math.max(...results.map((r) => r.cycles));
    const micros = cycles / machine.clockMHz;
    const sentBytes = params.blockBytes * input.targets.length;
    const blocksPerReceiver = input.incoming.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `all ${input.targets.length * machine.nodes} blocks of ${params.blockBytes} bytes arrived intact at their targets`
          : problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : ''),
      metrics: {
        cycles,
        rounds: input.targets.length,
        // Per node and direction, as thesis eq. 47 counts (5.93 MB/s two-way on the CM-5).
        mbPerSecPerNode: Math.round((sentBytes / micros) * 1000) / 1000,
        maxIncomingBlocks: Math.max(...blocksPerReceiver),
      },
    };
  },
});
