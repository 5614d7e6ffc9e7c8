import { describe, expect, it } from 'vitest';
import { buildTopology, nodeCountProblem } from '../../src/network/build-topology.ts';
import { Mesh } from '../../src/network/mesh.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const alewife = loadTestPlatform('alewife').network;

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
    // 12 is found before 9 (one above, two below): the suggestions are listed in order.
    expect(nodeCountProblem(alewife, 11)).toMatch(/e\.g\. 9 or 12\)$/);
  });
});
