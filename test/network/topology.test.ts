import { describe, expect, it } from 'vitest';
import { buildTopology, nodeCountProblem } from '../../src/network/build-topology.ts';
import { FatTree } from '../../src/network/fat-tree.ts';
import { Mesh } from '../../src/network/mesh.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const cm5 = loadTestPlatform('cm5').network;
const alewife = loadTestPlatform('alewife').network;
const atm = loadTestPlatform('atm').network;

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

  it('has a thinner top level for sizes that are not powers of four', () => {
    const t = buildTopology(cm5, 32) as FatTree;
    expect(t.levels).toBe(3);
    expect(t.hops(0, 31)).toBe(6);
    expect(t.describe()).toBe('4-ary fat tree, 3 levels');
  });

  it('doubles link bandwidth per level and continues the pattern above the listed levels', () => {
    const t = buildTopology(cm5, 4096) as FatTree;
    // Thesis Fig. 7-1: 40/80/160 MB/s bidirectional = 20/40/80 MB/s each way at 33 MHz.
    expect(t.linkBytesPerCycle(0) * 33).toBeCloseTo(20, 0);
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

describe('mesh (Alewife, Paragon)', () => {
  it('lays nodes out row by row in a near-square rectangle', () => {
    expect([64, 32, 128, 12, 2, 1].map((n) => { const m = buildTopology(alewife, n) as Mesh; return `${m.width}x${m.height}`; }))
      .toEqual(['8x8', '8x4', '16x8', '4x3', '2x1', '1x1']);
  });

  it('counts Manhattan hops', () => {
    const m = buildTopology(alewife, 64);
    expect(m.hops(0, 0)).toBe(0);
    expect(m.hops(0, 7)).toBe(7);
    expect(m.hops(0, 63)).toBe(14);
    expect(m.hops(9, 18)).toBe(2);
  });

  it('refuses sizes with no near-square shape and suggests neighbours', () => {
    expect(nodeCountProblem(alewife, 7)).toBe(
      'expected a near-square mesh size, width x height with height <= width <= 2 x height (e.g. 6 or 8)',
    );
    expect(nodeCountProblem(alewife, 3)).toMatch(/e\.g\. 2 or 4\)$/);
  });
});

describe('switch (ATM)', () => {
  it('puts every pair of hosts two hops apart, any size up to the port count', () => {
    const s = buildTopology(atm, 5);
    expect(s.hops(0, 4)).toBe(2);
    expect(s.hops(3, 3)).toBe(0);
    expect(nodeCountProblem(atm, 1024)).toBeNull();
    expect(nodeCountProblem(atm, 1025)).toBe('expected at most 1024 nodes for this switch network');
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
