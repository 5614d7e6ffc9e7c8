import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../src/kernel/random-stream.ts';
import { Simulation } from '../../src/kernel/simulation.ts';
import { AnalyticNetwork } from '../../src/network/analytic-network.ts';
import { buildTopology } from '../../src/network/build-topology.ts';
import { PERTURB_DELIVERY_CYCLES } from '../../src/network/data-network.ts';
import { Packet } from '../../src/network/packet.ts';
import { loadTestPlatform, PLATFORM_NAMES } from '../support/platforms.ts';

const PACKET_BYTES = 20;

describe.each(PLATFORM_NAMES)('analytic network on %s', (name) => {
  const platform = loadTestPlatform(name);

  it('delivers each packet after the zero-load latency, and under --perturb 0 to PERTURB_DELIVERY_CYCLES cycles later, every one of them taken', () => {
    const sim = new Simulation(1);
    const topology = buildTopology(platform.network, 4);
    const arrivals: number[] = [];
    const net = new AnalyticNetwork(sim, topology, () => arrivals.push(sim.now));
    const delays = (packets: number) => {
      const seen = new Set<number>();
      for (let i = 0; i < packets; i++) {
        arrivals.length = 0;
        const start = sim.now;
        expect(net.tryInject(new Packet(0, 3, i % 2, PACKET_BYTES, null, []))).toBe(true);
        sim.run();
        expect(net.receive(3, i % 2)).not.toBeNull();
        seen.add(arrivals[0] - start - topology.zeroLoadLatencyCycles(0, 3, PACKET_BYTES));
      }
      return [...seen].sort((a, b) => a - b);
    };
    expect(delays(10)).toEqual([0]);
    net.perturbation = new RandomStream(7, 'perturb/network');
    // The README's "packets 0-8".
    expect(delays(300)).toEqual(Array.from({ length: PERTURB_DELIVERY_CYCLES + 1 }, (_, j) => j));
    expect(net.stats).toEqual({ packetsInjected: 310, bytesInjected: 310 * PACKET_BYTES, packetsDelivered: 310 });
  });
});
