import { describe, expect, it } from 'vitest';
import { buildTopology, nodeCountProblem } from '../../src/network/build-topology.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const atm = loadTestPlatform('atm').network;

describe('switch (ATM)', () => {
  it('puts hosts on one switch two hops apart and hosts on different switches four', () => {
    const one = buildTopology(atm, 5);
    expect(one.hops(0, 4)).toBe(2);
    expect(one.hops(3, 3)).toBe(0);
    expect(one.describe()).toBe('5-port crossbar switch');
    const four = buildTopology(atm, 64);
    expect(four.hops(0, 15)).toBe(2);
    expect(four.hops(15, 16)).toBe(4);
    expect(four.describe()).toBe('4 switches of up to 16 hosts under a root switch');
    expect(nodeCountProblem(atm, 1024)).toBeNull();
    expect(nodeCountProblem(atm, 1025)).toBe('expected at most 1024 nodes for this switch network');
    expect(nodeCountProblem({ ...atm, maxNodes: 1 }, 2)).toBe('expected at most 1 node for this switch network');
  });

  it('delivers a packet to another switch two hops (2 x hopLatencyCycles) later than within its own', () => {
    const arrival = (dest: number) =>
      runInline(
        'atm',
        32,
        function* (rt) {
          if (rt.self === 0) yield* rt.sendBothLRPollBoth(dest, (r) => void (r.globals.at = r.currentCycle64()));
          else if (rt.self === dest) yield* rt.pollBothUntil(() => rt.globals.at >= 0);
          return rt.globals.at;
        },
        { globals: () => ({ at: -1 }), network: 'packet' },
      ).results[dest];
    // The receiver notices a packet at its next poll, one PollBoth round (2 x pollEmptyCycles) at most later.
    const round = 2 * loadTestPlatform('atm').messaging.pollEmptyCycles;
    const extra = arrival(20) - arrival(1);
    expect(extra).toBeGreaterThan(2 * atm.hopLatencyCycles - round);
    expect(extra).toBeLessThan(2 * atm.hopLatencyCycles + round);
  });
});
