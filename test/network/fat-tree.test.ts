import { describe, expect, it } from 'vitest';
import { buildTopology, nodeCountProblem } from '../../src/network/build-topology.ts';
import { FatTree } from '../../src/network/fat-tree.ts';
import { Simulation } from '../../src/kernel/simulation.ts';
import { Packet } from '../../src/network/packet.ts';
import { PacketNetwork } from '../../src/network/packet-network.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const cm5 = loadTestPlatform('cm5').network;

describe('fat tree (CM-5)', () => {
  it('takes 2 hops per level crossed on a 4-ary tree', () => {
    const t = buildTopology(cm5, 64) as FatTree;
    expect(t.levels).toBe(3);
    expect(t.hops(5, 5)).toBe(0);
    expect(t.hops(0, 3)).toBe(2); // same level-1 switch
    expect(t.hops(0, 4)).toBe(4); // same level-2 switch
    expect(t.hops(0, 63)).toBe(6); // through the root
    expect(t.hops(17, 18)).toBe(2);
    expect(t.hops(15, 16)).toBe(6);
  });

  it('finds the common ancestor by bits as by repeated division, for every arity', () => {
    if (cm5.kind !== 'fat-tree') throw new Error('the CM-5 has a fat tree');
    for (const arity of [2, 3, 4, 5, 8, 16]) {
      const t = new FatTree({ ...cm5, arity }, 4096);
      for (let src = 0; src < 4096; src += 37) {
        for (let dst = 0; dst < 4096; dst += 29) {
          let a = src;
          let b = dst;
          let level = 0;
          for (; a !== b; level++) {
            a = Math.floor(a / arity);
            b = Math.floor(b / arity);
          }
          if (t.lcaLevel(src, dst) !== level) expect({ arity, src, dst, level: t.lcaLevel(src, dst) }).toEqual({ arity, src, dst, level });
        }
      }
    }
  });

  it('routes by shifts and masks as by the divisions, for power-of-two arities and parallel channels or not', () => {
    if (cm5.kind !== 'fat-tree') throw new Error('the CM-5 has a fat tree');
    // [0.758, 1.515, 3.03] gives 1, 2, 4 parallel channels (the shift path); 3x growth gives 1, 3, 9 (the division path).
    for (const [arity, growth] of [[4, 2], [2, 2], [8, 2], [4, 3], [3, 2]]) {
      const params = { ...cm5, arity, linkBytesPerCycleByLevel: [1], upperLevelGrowth: growth };
      const t = new FatTree(params, 256);
      const routing = t.packetRouting();
      const parallel = [0];
      for (let l = 1; l <= t.levels; l++) parallel.push(Math.max(1, Math.round(t.linkBytesPerCycle(l - 1) / t.linkBytesPerCycle(0))));
      // Channel ids as the routing's layout numbers them: per level, the up channels, then the down ones.
      const upBase = [0];
      const downBase = [0];
      let at = 0;
      for (let l = 1; l <= t.levels; l++) {
        const groups = Math.ceil(256 / arity ** (l - 1));
        upBase.push(at);
        downBase.push(at + groups * parallel[l]);
        at += 2 * groups * parallel[l];
      }
      const out: number[] = [];
      for (let src = 0; src < 256; src += 7) {
        for (let dst = 0; dst < 256; dst += 5) {
          if (src === dst) continue;
          const top = t.lcaLevel(src, dst);
          for (let hop = 0; hop < 2 * top; hop++) {
            for (const lane of [0, 1, 2, 5]) {
              const n = routing.nextChannels(src, dst, hop, lane, out);
              const got = out.slice(0, n);
              let want: number[];
              if (hop < top) {
                const l = hop + 1;
                const first = upBase[l] + Math.floor(src / arity ** (l - 1)) * parallel[l];
                want = Array.from({ length: parallel[l] }, (_, i) => first + i);
              } else {
                const l = 2 * top - hop;
                want = [downBase[l] + Math.floor(dst / arity ** (l - 1)) * parallel[l] + (lane % parallel[l])];
              }
              if (got.join() !== want.join()) expect({ arity, growth, src, dst, hop, lane, got }).toEqual({ arity, growth, src, dst, hop, lane, got: want });
            }
          }
        }
      }
    }
  });

  it('brings packets down from the chip their climb reached: one sender to one receiver uses every top link', () => {
    // Thesis 7.1: random chips on the way up, one physical path down from the chip reached.
    // Down-routing by destination alone sent all of node 0's packets to node 63 down one
    // of the four links into 63's quarter of the machine.
    const t = buildTopology(cm5, 64) as FatTree;
    const routing = t.packetRouting();
    const sim = new Simulation(1);
    let sent = 0;
    const inject = (): void => {
      while (sent < 64 && net.tryInject(new Packet(0, 63, 0, 20, null, []))) sent++;
    };
    const net = new PacketNetwork(sim, t, routing, { routerPackets: 2, injectionPackets: 1, receivePackets: 64, interfaceLatencyCycles: 0 }, () => {}, inject);
    inject();
    sim.run();
    expect(net.waiting(63, 0)).toBe(64);
    const busy = net.channelBusyCycles(0);
    const out: number[] = [];
    const downLinks = (hop: number, lanes: number): number[] =>
      Array.from({ length: lanes }, (_, lane) => (routing.nextChannels(0, 63, hop, lane, out), out[0]));
    // Hop 3 comes down from the root (4 chips), hop 4 from level 2 (2 chips), hop 5 from level 1 (1).
    expect(downLinks(3, 4).map((c) => busy[c] > 0)).toEqual([true, true, true, true]);
    expect(downLinks(4, 2).map((c) => busy[c] > 0)).toEqual([true, true]);
    expect(new Set(downLinks(5, 4)).size).toBe(1);
  });

  it('gives a group no more parallel channels than it has nodes, however fast the level above it', () => {
    if (cm5.kind !== 'fat-tree') throw new Error('the CM-5 has a fat tree');
    // Both in the schema's range: a level 10^7 times the node link's asked for 10^7 channels
    // per group (the heap ran out building them), and 16-fold growth on a binary tree 16^10.
    for (const params of [
      { ...cm5, linkBytesPerCycleByLevel: [0.001, 10_000] },
      { ...cm5, arity: 2, upperLevelGrowth: 16 },
    ]) {
      const t = new FatTree(params, 4096);
      const routing = t.packetRouting();
      // Up and down channels: per level at most one per node, plus a loopback per node.
      expect(routing.channels.length).toBeLessThanOrEqual(2 * 4096 * t.levels + 4096);
      // The level's bandwidth is kept: its channels share it.
      const sim = new Simulation(1);
      const arrivals: number[] = [];
      const net = new PacketNetwork(sim, t, routing, { routerPackets: 1, injectionPackets: 1, receivePackets: 1, interfaceLatencyCycles: 0 }, (node) => arrivals.push(node), () => {});
      expect(net.tryInject(new Packet(0, 4095, 0, 20, null, []))).toBe(true);
      sim.run();
      expect(arrivals).toEqual([4095]);
    }
  });

  it('has a thinner top level for sizes that are not powers of four', () => {
    const t = buildTopology(cm5, 32) as FatTree;
    expect(t.levels).toBe(3);
    expect(t.hops(0, 31)).toBe(6);
    expect(t.describe()).toBe('4-ary fat tree, 3 levels');
  });

  it('doubles link bandwidth per level and continues the pattern above the listed levels', () => {
    const t = buildTopology(cm5, 4096) as FatTree;
    // Thesis Fig. 7-1: 40/80/160 MB/s bidirectional = 20/40/80 MB/s of data each way at
    // 33 MHz; a 20-byte packet carries 16 data bytes (platforms/README.md).
    expect(t.linkBytesPerCycle(0) * 33 * (16 / 20)).toBeCloseTo(20, 0);
    expect(t.linkBytesPerCycle(2) / t.linkBytesPerCycle(0)).toBeCloseTo(4);
    expect(t.linkBytesPerCycle(4) / t.linkBytesPerCycle(2)).toBeCloseTo(4);
  });

  it('accepts powers of two only', () => {
    expect(nodeCountProblem(cm5, 2)).toBeNull();
    expect(nodeCountProblem(cm5, 4096)).toBeNull();
    expect(nodeCountProblem(cm5, 48)).toBe('expected a power of two for a fat-tree network');
    expect(nodeCountProblem(cm5, 8192)).toBe('expected at most 4096 nodes for this fat-tree network');
    expect(nodeCountProblem(cm5, 0)).toBe('expected a positive integer node count');
  });
});

describe('zero-load latency', () => {
  it('adds interface latency, per-hop router latency and one serialization', () => {
    const t = buildTopology(cm5, 64);
    const p = cm5 as typeof cm5 & { kind: 'fat-tree' };
    const ser = Math.ceil(20 / p.linkBytesPerCycleByLevel[0]);
    expect(t.zeroLoadLatencyCycles(0, 63, 20)).toBe(p.interfaceLatencyCycles + 6 * p.hopLatencyCycles + ser);
    expect(t.zeroLoadLatencyCycles(0, 63, 20) - t.zeroLoadLatencyCycles(0, 1, 20)).toBe(4 * p.hopLatencyCycles);
  });
});
