/**
 * sample-sort: parallel sample sort (thesis 4.5.2, Fig. 4-12) of `keys` unsigned keys
 * of `keyBits` bits per node, drawn by `dist` (apps/radix-sort/keys.ts).
 *
 * Each pass:
 *   1. every node picks `oversample` keys at random (in later passes, in proportion
 *      to the keys it then holds); the parallel radix sort sorts these p x s samples;
 *      every s-th goes to node 0, which broadcasts the p - 1 splitters;
 *   2. each key's target is found by binary search; keys equal to splitters are dealt
 *      round-robin over the nodes those splitters bound, so equal keys cannot pile
 *      onto one node;
 *   3. a vector scan and reduction of the per-target counts give every key its place
 *      in its target's array of 2n/p keys (`memory` x n/p) and tell everyone which
 *      targets overflow; keys beyond a target's room are forwarded to nodes with room
 *      to spare, in node order, so that everyone computes the same placement;
 *   4. keys are grouped into per-destination buffers of `bufferKeys`, each sent when
 *      full through the asynchronous block-transfer engine (one service round per
 *      buffer, interleaving the transfers) and the rest at the end; each node counts
 *      its incoming keys down to zero, then a barrier;
 *   5. if any key was forwarded, the data is not yet in bucket order: the pass repeats
 *      with a fresh sample (thesis 4.5.3), most keys already being in place.
 * Finally each node sorts its keys locally. The difference from the thesis: a forward
 * goes straight from the sender to the node with room, since the counts say in
 * advance where room is, instead of through the overfull target.
 *
 * Verification: the output is a sorted permutation of the input, node 0 holding the
 * smallest keys (nodes may hold different numbers of keys).
 */
import { CombineOp, defineApp, STRATA_MAX_XFER_OFFSET, type Op, type Runtime } from '../../src/runtime/index.ts';
import { checkKeyCount, checkSorted, digitTableProblem, DISTRIBUTIONS, makeKeys, type Distribution } from '../radix-sort/keys.ts';
import { RADIX_STATES, radixSort } from '../radix-sort/radix.ts';

interface Globals {
  /** The key array this pass fills (its port is DATA_PORT). */
  incoming: Uint32Array;
  /** Node 0: the splitters received so far, by node. */
  splitters: Int32Array;
  splittersIn: number;
}

interface Result {
  keys: Uint32Array;
  passes: number;
  forwarded: number;
  cycles: number;
}

const SAMPLE_PORTS = { even: 0, odd: 1 };
/** The digit width of the samples' radix sort by default (the SampleSort model's sampleIter, apps.spec). */
export const SAMPLE_DIGIT_BITS = 4;
const DATA_PORT = 2;
/** memory's least value: the room per node is at least 1.5 n/p keys. */
const MIN_MEMORY = 1.5;
/** memory's default: the thesis's room of 2 n/p keys (4.5.2). */
export const SAMPLE_MEMORY = 2;
/** The most keys per node whose room (memory x keys, at the least memory) block transfers can address. */
const MAX_KEYS = Math.floor(STRATA_MAX_XFER_OFFSET / MIN_MEMORY);
const MAX_PASSES = 32;

/**
 * Why a node's room of `memory` x `keys` keys cannot hold keys of `dist`, or null: more
 * than block transfers address, or with four distinct keys (dist=few) less than 2 n/p
 * (the sort module's sample variant asks it too).
 */
export function roomProblem(memory: number, keys: number, dist = 'uniform', keyBits = 32): string | null {
  const room = Math.ceil(memory * keys);
  if (room > STRATA_MAX_XFER_OFFSET) return `memory ${memory} x keys ${keys} = ${room} keys of room per node; block transfers address at most ${STRATA_MAX_XFER_OFFSET} words, so expected at most that`;
  // With four distinct keys, the nodes a value's splitters bound share its keys, and a
  // node where two values meet takes a share of each: up to 2 n/p keys, the thesis's
  // room (4.5.2). With less, every pass overflows the same way and the sort never
  // settles (issue 23, case 209), so such a run is refused before it starts.
  if (dist === 'few' && memory < 2) {
    return `dist=few with memory ${memory}: a node where two of the four key values meet holds up to 2 x n/p keys, so every pass overflows; expected memory >= 2 for dist=few`;
  }
  // Keys of 1 or 2 bits take at most four values too: they failed after the whole run, every seed (StrataFail after 32 passes).
  if (keyBits <= 2 && memory < 2) {
    return `keys of ${keyBits} bit${keyBits === 1 ? '' : 's'} with memory ${memory}: they take at most ${2 ** keyBits} values, and a node where two of them meet holds up to 2 x n/p keys, so every pass overflows; expected memory >= 2, or keys of more bits`;
  }
  return null;
}

function* splitterArrived(rt: Runtime<Globals>, j: number, key: number): Op {
  rt.globals.splitters[j - 1] = key | 0;
  rt.globals.splittersIn++;
}

/** Number of entries of sorted `a` that are < x (strict) or <= x. */
function bound(a: Uint32Array, x: number, inclusive: boolean): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x || (inclusive && a[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Each key's target node by binary search of the splitters, keys equal to splitters
 * dealt round-robin over their nodes from this node's number on (`self`), and the
 * keys each node gets. A function of its own rather than a loop in main: V8 compiles
 * it in a fraction of the time it takes to compile all of main to replace the loop
 * mid-run, and the loop runs unoptimized until then.
 */
function findTargets(keys: Uint32Array, splitters: Uint32Array, self: number, target: Int32Array, counts: Int32Array): void {
  let tie = self;
  for (let i = 0; i < keys.length; i++) {
    const lo = bound(splitters, keys[i], false);
    const hi = bound(splitters, keys[i], true);
    const t = lo === hi ? lo : lo + (tie++ % (hi - lo + 1));
    target[i] = t;
    counts[t]++;
  }
}

export default defineApp({
  name: 'sample-sort',
  states: RADIX_STATES,
  description: 'parallel sample sort with oversampling and asynchronous block transfers (thesis 4.5.2)',
  params: {
    keys: { type: 'int', default: 1000, min: 1, max: MAX_KEYS, doc: 'keys per node (memory x keys at most 524,287: the room is addressed by block transfer offsets)' },
    keyBits: { type: 'int', default: 32, min: 1, max: 32, doc: 'bits per key' },
    dist: { type: 'enum', values: [...DISTRIBUTIONS], default: 'uniform', doc: 'key distribution' },
    oversample: { type: 'int', default: 64, min: 1, max: 4096, doc: 'samples per node (thesis: 64)' },
    digitBits: { type: 'int', default: SAMPLE_DIGIT_BITS, min: 1, max: 16, doc: 'digit width of the radix sort of the samples (small samples favour narrow digits)' },
    bufferKeys: { type: 'int', default: 256, min: 1, max: 65536, doc: 'keys per transfer buffer (1 KB)' },
    memory: { type: 'float', default: SAMPLE_MEMORY, min: MIN_MEMORY, max: 64, doc: 'room per node, in multiples of the average n/p keys (thesis: 2; below 2, keys with few distinct values, or splitters of few samples, can fail to fit)' },
  },
  check(p, machine) {
    const tooMany = checkKeyCount(machine.nodes, p.keys) ?? digitTableProblem(machine.nodes, p.digitBits);
    if (tooMany !== null) return tooMany;
    return roomProblem(p.memory, p.keys, p.dist, p.keyBits);
  },
  setup({ params, machine, random }): Uint32Array[] {
    return makeKeys(params.dist as Distribution, machine.nodes, params.keys, params.keyBits, random);
  },
  globals: (): Globals => ({ incoming: new Uint32Array(0), splitters: new Int32Array(0), splittersIn: 0 }),

  *main(rt, p, input): Op<Result> {
    const g = rt.globals;
    const P = rt.partitionSize;
    const cap = Math.ceil(p.memory * p.keys);
    const s = p.oversample;
    let keys: Uint32Array = input[rt.self].slice();
    let passes = 0;
    let forwarded = 0;
    yield* rt.barrier();
    const start = rt.cycleCount();

    for (;;) {
      passes++;
      // Below the thesis's room of 2 n/p, keys with few distinct values can leave a node where two
      // values meet more than its room on every pass (the dist=few case check() refuses), and so
      // can splitters of few samples (oversample 1: uniform 32-bit keys failed on every seed);
      // which runs do depends on the keys drawn, so it is said here, with the way out.
      if (passes > MAX_PASSES) {
        rt.strataFail(
          `sample sort found no splitters that fit in ${MAX_PASSES} passes: with memory ${p.memory}, a node's bucket can need more than its room, from splitters of ${s} sample${s === 1 ? '' : 's'} a node (oversample), or where two key values meet when values repeat (keys of ${p.keyBits} bits, dist=${p.dist}); memory 2, the thesis's room (4.5.2), more samples, or wider keys avoid it`,
        );
      }

      // 1. Sample, sort the sample with radix sort, gather and broadcast the splitters.
      // A node samples in proportion to the keys it holds (s each on the first pass), so
      // that later passes, after forwarding has unbalanced the nodes, sample fairly;
      // short samples are padded with the largest key to the common length.
      const mine = Math.round((s * keys.length) / p.keys);
      const total = yield* rt.combineInt(mine, CombineOp.ReduceAdd);
      const k = Math.max(1, yield* rt.combineInt(mine, CombineOp.ReduceMax));
      const sample = new Uint32Array(k).fill(0xffffffff);
      for (let i = 0; i < mine; i++) sample[i] = keys[rt.random() % keys.length];
      rt.computeOps({ intOps: 4 * k, loads: k, stores: k, calls: mine });
      const sorted = yield* radixSort(rt, sample, p.keyBits, p.digitBits, SAMPLE_PORTS);
      const splitters = new Uint32Array(P - 1);
      if (rt.self === 0) {
        g.splitters = new Int32Array(P - 1);
        g.splittersIn = 0;
      }
      yield* rt.barrier();
      // Splitter j is the sample's element j x total / P (every s-th key on the first pass).
      for (let j = 1; j < P; j++) {
        const at = Math.floor((j * total) / P) - rt.self * k;
        if (at >= 0 && at < k) yield* rt.sendLeftPollBoth(0, splitterArrived, j, sorted[at]);
      }
      if (P > 1) {
        if (rt.self === 0) {
          yield* rt.pollBothUntil(() => g.splittersIn === P - 1, 'sample sort: waiting for splitters');
          yield* rt.broadcastVector(splitters, g.splitters);
        } else {
          yield* rt.receiveBroadcastVector(splitters);
        }
      }

      // 2. Targets by binary search; keys equal to splitters dealt round-robin over their nodes.
      const target = new Int32Array(keys.length);
      const counts = new Int32Array(P);
      findTargets(keys, splitters, rt.self, target, counts);
      // One binary search per key (a load, a compare and a branch per level), plus the bookkeeping.
      const levels = Math.ceil(Math.log2(P));
      rt.computeOps({ intOps: keys.length * (levels + 4), loads: keys.length * (levels + 1), branches: keys.length * (levels + 1), stores: 2 * keys.length });

      // 3. Places: my offset in each target, the totals, and where overflow goes.
      const offsets = new Int32Array(P);
      const totals = new Int32Array(P);
      yield* rt.combineVector(offsets, counts, CombineOp.ScanAdd);
      yield* rt.combineVector(totals, counts, CombineOp.ReduceAdd);
      const kept = Array.from(totals, (t) => Math.min(t, cap));
      const overflowBefore = new Array<number>(P + 1).fill(0);
      for (let t = 0; t < P; t++) overflowBefore[t + 1] = overflowBefore[t] + (totals[t] - kept[t]);
      const roomBefore = new Array<number>(P + 1).fill(0);
      for (let n = 0; n < P; n++) roomBefore[n + 1] = roomBefore[n] + (cap - kept[n]);
      const overflow = overflowBefore[P];
      /** Where overflow key number `o` (in target order) goes: the spare room of the nodes, in order. */
      const spareSlot = (o: number): [number, number] => {
        let n = 0;
        while (roomBefore[n + 1] <= o) n++;
        return [n, kept[n] + (o - roomBefore[n])];
      };
      let incomingTotal = kept[rt.self];
      if (overflow > 0) {
        const first = roomBefore[rt.self];
        incomingTotal += Math.max(0, Math.min(overflow, roomBefore[rt.self + 1]) - first);
      }
      rt.computeOps({ intOps: 6 * P, loads: 4 * P, stores: 3 * P });

      // 4. Move the keys in per-destination buffers through the asynchronous engine.
      g.incoming = new Uint32Array(cap);
      const port = rt.port(DATA_PORT);
      port.setBase(g.incoming);
      port.count += incomingTotal;
      yield* rt.barrier(); // every node's key array is ready before any data moves
      const bufferKeys = p.bufferKeys;
      const buffers = Array.from({ length: P }, () => ({ keys: new Uint32Array(bufferKeys), length: 0, at: 0 }));
      const rank = offsets.slice();
      function* flush(n: number, service: boolean): Op {
        const b = buffers[n];
        if (b.length === 0) return;
        if (n === rt.self) {
          g.incoming.set(b.keys.subarray(0, b.length), b.at);
          port.count -= b.length;
          rt.computeOps({ loads: b.length, stores: b.length });
        } else {
          rt.asyncBlockXfer(n, DATA_PORT, b.at, b.keys.slice(0, b.length));
          if (service) yield* rt.serviceAllTransfers(1);
        }
        b.length = 0;
      }
      let moved = 0;
      for (let i = 0; i < keys.length; i++) {
        const t = target[i];
        const r = rank[t]++;
        let dest = t;
        let index = r;
        if (r >= cap) {
          [dest, index] = spareSlot(overflowBefore[t] + (r - cap));
          moved++;
        }
        const b = buffers[dest];
        if (b.length > 0 && (b.at + b.length !== index || b.length === bufferKeys)) yield* flush(dest, true);
        if (b.length === 0) b.at = index;
        b.keys[b.length++] = keys[i];
      }
      rt.computeOps({ intOps: 6 * keys.length, loads: 3 * keys.length, stores: 2 * keys.length });
      for (let n = 0; n < P; n++) yield* flush(n, false);
      yield* rt.serviceAllTransfers(-1);
      yield* rt.pollBothUntil(() => port.count === 0, 'sample sort: waiting for keys');
      yield* rt.barrier();
      forwarded += moved;
      keys = g.incoming.slice(0, incomingTotal);

      // 5. Done when nothing overflowed; otherwise sample again.
      if (overflow === 0) break;
    }

    keys.sort();
    const n = Math.max(1, keys.length);
    rt.computeOps({ intOps: Math.ceil(2 * n * Math.log2(n + 1)), loads: Math.ceil(n * Math.log2(n + 1)), stores: n });
    const cycles = rt.elapsedCycles(start);
    return { keys, passes, forwarded, cycles };
  },

  verify({ params, machine, input, results }) {
    const problems = checkSorted(input, results.map((r) => r.keys));
    const cycles = Math.max(...results.map((r) => r.cycles));
    const counts = results.map((r) => r.keys.length);
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `${machine.nodes * params.keys} keys of ${params.keyBits} bits came out sorted in ${results[0].passes} pass(es)`
          : problems.slice(0, 3).join('; '),
      metrics: {
        cycles,
        passes: results[0].passes,
        keysForwarded: results.reduce((a, r) => a + r.forwarded, 0),
        maxKeysPerNode: Math.max(...counts),
        microseconds: Math.round((cycles / machine.clockMHz) * 100) / 100,
        cyclesPerKey: Math.round((cycles / params.keys) * 100) / 100,
      },
    };
  },
});
