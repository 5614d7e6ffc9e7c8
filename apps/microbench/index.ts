/**
 * microbench: the Strata models of thesis Fig. 6-6, measured on the simulator the way
 * the thesis's calibration code measures them (6.3): time an operation with the
 * cycle counter, `reps` times, and report the mean. Models:
 *
 *   SendRequest    a request as CMAML_request makes it (Table 1's comparison):
 *                  SendLeftPollBoth followed by PollBothTilEmpty, nothing arriving
 *   SendRPC        SendBothRLPollBoth (CMAML_rpc's Strata equivalent, Appendix A 6.1),
 *                  nothing arriving
 *   Roundtrip      node 0 sends a request (SendLeftPollBoth) to every other node in
 *                  turn, whose handler replies (SendBothRLPollRight); cycles until the
 *                  reply has been handled, by hop count, with the least-squares line
 *                  intercept + slope x hops
 *   CombineVector  a ScanAdd CombineVector of `length` words on every node after a
 *                  barrier; the mean over nodes
 *   ClearMemory    ClearMemory of `length` bytes on node 0
 *
 * Fig. 6-6's InterruptDelay is not offered: the simulated Strata receives only by
 * polling, as the released Strata does, so no operation pays an interrupt entry.
 */
import { CombineOp, defineApp, type Handler, type Op, type Runtime } from '../../src/runtime/index.ts';

interface Globals {
  received: number;
  /** Node 0 in Roundtrip: the node being asked, and whether its reply arrived. */
  partner: number;
  hasReply: boolean;
  badReplies: number;
  /** Node 0 in Roundtrip: replies handled. */
  replies: number;
}

interface Result {
  /** Mean cycles per operation (SendRequest, SendRPC, CombineVector, ClearMemory). */
  cycles: number;
  /** Roundtrip, node 0: [hops, mean cycles] per partner. */
  trips: [number, number][];
  received: number;
  /** Node 0 in Roundtrip: replies handled before it finished. */
  replies: number;
  /** What the operation produced that the run checks (combine results, cleared words). */
  check: number[];
}

const sink: Handler<Globals> = (rt) => {
  rt.globals.received++;
};

const reply: Handler<Globals> = (rt, token) => {
  const g = rt.globals;
  if (token !== g.partner * 7 + 1) g.badReplies++;
  g.replies++;
  g.hasReply = true;
};

function* request(rt: Runtime<Globals>, from: number): Op {
  rt.globals.received++;
  yield* rt.sendBothRLPollRight(from, reply, rt.self * 7 + 1);
}

/** Cycles between operations so that the receiver has drained the network (not timed). */
const GAP_CYCLES = 20000;

/** Least-squares line through (x, y) points: [intercept, slope]. */
function line(points: [number, number][]): [number, number] {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return [my - slope * mx, slope];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Most words a CombineVector may hold over all nodes, as the sorts' limit of 2^26 keys:
 * measured 24 to 43 bytes of host memory a word on the CM-5 (64 nodes x 65,536 words:
 * 148 MB peak RSS, about 50 of them an idle process's; x 1,048,576 words: 2.9 GB) and 58
 * on Alewife's combining tree (x 65,536: 294 MB).
 */
const MAX_VECTOR_WORDS = 1 << 26;

export default defineApp({
  name: 'microbench',
  description: 'Strata operation costs measured as thesis 6.3 measures them (the models of Fig. 6-6)',
  params: {
    model: {
      type: 'enum',
      values: ['SendRequest', 'SendRPC', 'Roundtrip', 'CombineVector', 'ClearMemory'],
      default: 'Roundtrip',
      doc: 'which Fig. 6-6 model to measure',
    },
    reps: { type: 'int', default: 10, min: 1, max: 100000, doc: 'timed repetitions (Roundtrip: per partner)' },
    length: { type: 'int', default: 16, min: 1, max: 1 << 20, doc: 'CombineVector: words (at most 2^19 - 1 over a tree of messages, the platforms without a control network); ClearMemory: bytes' },
  },
  check(p, machine) {
    if ((p.model === 'SendRequest' || p.model === 'SendRPC' || p.model === 'Roundtrip') && machine.nodes < 2) {
      return `model ${p.model} needs at least 2 nodes, got ${machine.nodes}`;
    }
    // A combining tree's header announces at most 2^19 - 1 words: it failed at the first combine, exit 1.
    if (p.model === 'CombineVector' && p.length > machine.maxCombineWords) {
      return `CombineVector of ${p.length} words: this machine combines over a tree of messages, which takes vectors of at most ${machine.maxCombineWords} words; expected length at most that`;
    }
    if (p.model === 'CombineVector' && machine.nodes * p.length > MAX_VECTOR_WORDS) {
      return `CombineVector of ${p.length} words on ${machine.nodes} nodes is ${machine.nodes * p.length} words; the simulator holds 24 to 58 bytes of host memory per word (the app's vector, the copy it combines, its result and the combine's own messages), so expected nodes x length at most ${MAX_VECTOR_WORDS} (2^26, 2 to 4 GB)`;
    }
    return null;
  },
  globals: (): Globals => ({ received: 0, partner: 0, hasReply: false, badReplies: 0, replies: 0 }),

  *main(rt, p): Op<Result> {
    const g = rt.globals;
    const result: Result = { cycles: 0, trips: [], received: 0, replies: 0, check: [] };
    switch (p.model) {
      case 'SendRequest':
      case 'SendRPC': {
        if (rt.self === 0) {
          let total = 0;
          for (let i = 0; i < p.reps; i++) {
            const start = rt.cycleCount();
            if (p.model === 'SendRequest') {
              yield* rt.sendLeftPollBoth(1, sink, i, 0, 0, 0);
              yield* rt.pollBothTilEmpty();
            } else {
              yield* rt.sendBothRLPollBoth(1, sink, i, 0, 0, 0);
            }
            total += rt.elapsedCycles(start);
            rt.compute(GAP_CYCLES);
          }
          result.cycles = total / p.reps;
        } else if (rt.self === 1) {
          yield* rt.pollBothUntil(() => g.received === p.reps);
        }
        break;
      }
      case 'Roundtrip': {
        if (rt.self === 0) {
          for (let partner = 1; partner < rt.partitionSize; partner++) {
            let total = 0;
            g.partner = partner;
            for (let i = 0; i < p.reps; i++) {
              g.hasReply = false;
              const start = rt.cycleCount();
              yield* rt.sendLeftPollBoth(partner, request, 0);
              yield* rt.pollBothUntil(() => g.hasReply);
              total += rt.elapsedCycles(start);
            }
            result.trips.push([rt.hopsTo(partner), total / p.reps]);
          }
        } else {
          yield* rt.pollBothUntil(() => g.received === p.reps);
        }
        break;
      }
      case 'CombineVector': {
        const v = new Int32Array(p.length);
        let total = 0;
        for (let i = 0; i < p.reps; i++) {
          v.fill(rt.self + i);
          yield* rt.barrier();
          const start = rt.cycleCount();
          yield* rt.combineVector(v, v, CombineOp.ScanAdd);
          total += rt.elapsedCycles(start);
        }
        result.cycles = total / p.reps;
        result.check = [v[0], v[p.length - 1]];
        break;
      }
      case 'ClearMemory': {
        if (rt.self === 0) {
          const region = new Uint32Array(Math.ceil(p.length / 4)).fill(0xffffffff);
          let total = 0;
          for (let i = 0; i < p.reps; i++) {
            region.fill(0xffffffff);
            const start = rt.cycleCount();
            rt.clearMemory(region, p.length);
            total += rt.elapsedCycles(start);
          }
          result.cycles = total / p.reps;
          result.check = [region.reduce((a, b) => a | b, 0)];
        }
        break;
      }
    }
    result.received = g.received;
    result.replies = g.replies;
    result.check.push(g.badReplies);
    return result;
  },

  verify({ params, machine, results }) {
    const problems: string[] = [];
    const P = machine.nodes;
    const metrics: Record<string, number | Record<string, number>> = {};
    switch (params.model) {
      case 'SendRequest':
      case 'SendRPC':
        if (results[1].received !== params.reps) problems.push(`node 1 received ${results[1].received} of ${params.reps} messages`);
        metrics.cycles = round2(results[0].cycles);
        break;
      case 'Roundtrip': {
        for (let i = 1; i < P; i++) {
          if (results[i].received !== params.reps) problems.push(`node ${i} answered ${results[i].received} of ${params.reps} requests`);
        }
        if (results[0].check[0] > 0) problems.push(`node 0 got ${results[0].check[0]} wrong replies`);
        // Timing a round trip without waiting for its reply verified, the times the sends' alone.
        const trips = (P - 1) * params.reps;
        if (results[0].replies !== trips) problems.push(`node 0 handled ${results[0].replies} replies before it finished, expected ${trips} (one per round trip timed)`);
        const [intercept, slope] = line(results[0].trips);
        metrics.intercept = round2(intercept);
        metrics.slope = round2(slope);
        metrics.cyclesByHops = Object.fromEntries(
          [...new Set(results[0].trips.map(([h]) => h))].sort((a, b) => a - b).map((h) => {
            const c = results[0].trips.filter(([x]) => x === h).map(([, y]) => y);
            return [String(h), round2(c.reduce((a, b) => a + b, 0) / c.length)];
          }),
        );
        break;
      }
      case 'CombineVector': {
        // The last repetition's ScanAdd of (node + reps - 1): node i gets sum_{j<i} (j + reps - 1).
        const r = params.reps - 1;
        results.forEach((res, i) => {
          const want = (i * (i - 1)) / 2 + i * r;
          if (res.check[0] !== want || res.check[1] !== want) problems.push(`node ${i} got ${res.check[0]}, expected ${want}`);
        });
        metrics.cycles = round2(results.reduce((s, res) => s + res.cycles, 0) / P);
        metrics.logP = Math.ceil(Math.log2(P));
        break;
      }
      case 'ClearMemory':
        if (results[0].check[0] !== 0) problems.push('node 0 found words left uncleared');
        metrics.cycles = round2(results[0].cycles);
        break;
    }
    return {
      ok: problems.length === 0,
      detail: problems.length === 0 ? `${params.model} measured over ${params.reps} repetitions and checked` : problems.join('; '),
      metrics,
    };
  },
});
