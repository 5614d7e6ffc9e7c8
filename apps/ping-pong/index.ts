/**
 * ping-pong: node 0 measures round trips to every other node in turn, `rounds` times
 * each; the partner's handler echoes a transformed token back. Reports mean cycles
 * per round trip by hop count (the shape of thesis Fig. 6-6's Roundtrip(hops) model)
 * and verifies every echo and every partner's ping count.
 */
import { defineApp, type Handler, type Op, type Runtime } from '../../src/runtime/index.ts';

interface Globals {
  pings: number;
  badPings: number;
  /** Round expected back at node 0, and whether its echo arrived. */
  awaiting: number;
  hasReply: boolean;
  badEchoes: number;
  /** Node 0: echoes handled. */
  echoes: number;
  /** Node 0 only: the partner being measured. */
  partner: number;
}

interface Result {
  pings: number;
  badPings: number;
  badEchoes: number;
  echoes: number;
  /** Node 0 only: [partner, hops, mean round-trip cycles]. */
  trips: [number, number, number][];
}

/** A token that depends on partner and round, so a misrouted echo cannot pass. */
function token(partner: number, round: number): number {
  return (Math.imul(partner, 0x9e3779b1) ^ Math.imul(round + 1, 0x85ebca6b)) >>> 0;
}

function echoOf(t: number): number {
  return (Math.imul(t, 3) + 1) >>> 0;
}

const pong: Handler<Globals> = (rt, round, echo) => {
  const g = rt.globals;
  if (round !== g.awaiting || echo !== echoOf(token(g.partner, round))) g.badEchoes++;
  g.echoes++;
  g.hasReply = true;
};

function* ping(rt: Runtime<Globals>, round: number, t: number): Op {
  const g = rt.globals;
  if (t !== token(rt.self, round)) g.badPings++;
  g.pings++;
  yield* rt.sendBothRLPollRight(0, pong, round, echoOf(t));
}

export default defineApp({
  name: 'ping-pong',
  description: 'round trips from node 0 to every other node; cycles per round trip by hop count',
  params: {
    rounds: { type: 'int', default: 8, min: 1, max: 100000, doc: 'round trips to each partner' },
  },
  // On one node there is no partner: it "verified" 0 round trips and measured nothing (microbench's Roundtrip refuses it too).
  check: (_params, machine) => (machine.nodes < 2 ? `round trips need a partner for node 0: expected at least 2 nodes, got ${machine.nodes}` : null),
  globals: (): Globals => ({ pings: 0, badPings: 0, awaiting: -1, hasReply: false, badEchoes: 0, echoes: 0, partner: -1 }),

  *main(rt, p): Op<Result> {
    const g = rt.globals;
    const trips: [number, number, number][] = [];
    if (rt.self === 0) {
      for (let partner = 1; partner < rt.partitionSize; partner++) {
        g.partner = partner;
        let total = 0;
        for (let round = 0; round < p.rounds; round++) {
          g.awaiting = round;
          g.hasReply = false;
          const start = rt.cycleCount();
          yield* rt.sendLeftPollBoth(partner, ping, round, token(partner, round));
          yield* rt.pollBothUntil(() => g.hasReply);
          total += rt.elapsedCycles(start);
        }
        trips.push([partner, rt.hopsTo(partner), total / p.rounds]);
      }
    } else {
      yield* rt.pollBothUntil(() => g.pings === p.rounds);
    }
    return { pings: g.pings, badPings: g.badPings, badEchoes: g.badEchoes, echoes: g.echoes, trips };
  },

  verify({ params, machine, results }) {
    const problems: string[] = [];
    for (let i = 1; i < machine.nodes; i++) {
      const r = results[i];
      if (r.pings !== params.rounds) problems.push(`node ${i} received ${r.pings} pings, expected ${params.rounds}`);
      if (r.badPings > 0) problems.push(`node ${i} received ${r.badPings} corrupted pings`);
    }
    if (results[0].badEchoes > 0) problems.push(`node 0 received ${results[0].badEchoes} wrong echoes`);
    // Every ping reached its partner and came back intact even where node 0 timed no round trip:
    // sending the next ping without waiting for the echo verified, its times the sends' alone.
    const trips = (machine.nodes - 1) * params.rounds;
    if (results[0].echoes !== trips) problems.push(`node 0 handled ${results[0].echoes} echoes before it finished, expected ${trips} (one per round trip timed)`);
    const byHops = new Map<number, number[]>();
    for (const [, hops, cycles] of results[0].trips) byHops.set(hops, [...(byHops.get(hops) ?? []), cycles]);
    const roundTripCyclesByHops: Record<string, number> = {};
    for (const hops of [...byHops.keys()].sort((a, b) => a - b)) {
      const c = byHops.get(hops)!;
      roundTripCyclesByHops[String(hops)] = round2(c.reduce((s, x) => s + x, 0) / c.length);
    }
    return {
      ok: problems.length === 0,
      detail: problems.length === 0 ? `${trips} round trips echoed correctly` : problems.join('; '),
      metrics: { roundTrips: trips, roundTripCyclesByHops },
    };
  },
});

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
