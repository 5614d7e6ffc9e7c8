import { describe, expect, it } from 'vitest';
import { buildTopology, nodeCountProblem } from '../../src/network/build-topology.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const atm = loadTestPlatform('atm').network;

describe('switch (ATM)', () => {
  it('puts every pair of hosts two hops apart, any size up to the port count', () => {
    const s = buildTopology(atm, 5);
    expect(s.hops(0, 4)).toBe(2);
    expect(s.hops(3, 3)).toBe(0);
    expect(nodeCountProblem(atm, 1024)).toBeNull();
    expect(nodeCountProblem(atm, 1025)).toBe('expected at most 1024 nodes for this switch network');
  });
});
