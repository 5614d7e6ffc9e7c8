import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/kernel/simulation.ts';
import { buildTopology, nodeCountProblem } from '../../src/network/build-topology.ts';
import { Packet } from '../../src/network/packet.ts';
import { PacketNetwork } from '../../src/network/packet-network.ts';
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

describe('switch (ATM) packet routing', () => {
  it("carries traffic from two switches to a third through the root's one port down to it, where it queues", () => {
    // 48 hosts: three leaf switches. Hosts 0 and 16 (switches 0 and 1) each send a
    // packet at once to hosts 32 and 33 (switch 2): their uplinks are their own, but
    // both cross the root's port down to switch 2, so one waits for the other's tail.
    if (atm.kind !== 'switch') throw new Error('atm.json: expected a switch network');
    const sim = new Simulation(1);
    const topology = buildTopology(atm, 48);
    const arrivals: number[] = [];
    const net = new PacketNetwork(
      sim,
      topology,
      topology.packetRouting(),
      { routerPackets: atm.bufferPackets, injectionPackets: atm.injectionBufferPackets, receivePackets: atm.receiveBufferPackets, interfaceLatencyCycles: atm.interfaceLatencyCycles },
      () => arrivals.push(sim.now),
      () => {},
    );
    const bytes = 200;
    expect(net.tryInject(new Packet(0, 32, 0, bytes, null, []))).toBe(true);
    expect(net.tryInject(new Packet(16, 33, 0, bytes, null, []))).toBe(true);
    sim.run();
    const alone = topology.zeroLoadLatencyCycles(0, 32, bytes);
    expect(arrivals).toEqual([alone, alone + Math.ceil(bytes / atm.linkBytesPerCycle)]);
  });
});
