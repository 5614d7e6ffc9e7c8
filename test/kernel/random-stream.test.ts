import { describe, expect, it } from 'vitest';
import { MAX_SEED, RandomStream } from '../../src/kernel/random-stream.ts';

const take = (s: RandomStream, n: number) => Array.from({ length: n }, () => s.uint32());

describe('RandomStream', () => {
  it('is a function of (seed, stream id) only', () => {
    expect(take(new RandomStream(7, 'net'), 5)).toEqual(take(new RandomStream(7, 'net'), 5));
    expect(take(new RandomStream(7, 'net'), 5)).not.toEqual(take(new RandomStream(8, 'net'), 5));
    expect(take(new RandomStream(7, 'net'), 5)).not.toEqual(take(new RandomStream(7, 'node/0'), 5));
  });

  it('draws integers and floats in range with the right means', () => {
    const s = new RandomStream(3, 'dist');
    let intSum = 0;
    let expSum = 0;
    for (let i = 0; i < 20_000; i++) {
      const k = s.int(10);
      expect(k >= 0 && k < 10 && Number.isInteger(k)).toBe(true);
      intSum += k;
      const f = s.float();
      expect(f >= 0 && f < 1).toBe(true);
      expSum += s.exponential(100);
    }
    expect(intSum / 20_000).toBeCloseTo(4.5, 1);
    expect(expSum / 20_000).toBeGreaterThan(95);
    expect(expSum / 20_000).toBeLessThan(105);
  });

  it('draws unsigned 32-bit integers, half of them at or above 2^31', () => {
    const draws = take(new RandomStream(5, 'keys'), 2000);
    expect(draws.every((k) => Number.isInteger(k) && k >= 0 && k < 2 ** 32)).toBe(true);
    const high = draws.filter((k) => k >= 2 ** 31).length;
    expect(high).toBeGreaterThan(900);
    expect(high).toBeLessThan(1100);
  });

  it('rejects seeds outside the unsigned 32-bit range', () => {
    expect(() => new RandomStream(-1, 'x')).toThrow(/seed/);
    expect(() => new RandomStream(2 ** 32, 'x')).toThrow(/seed/);
    expect(() => new RandomStream(1.5, 'x')).toThrow(/seed/);
  });

  it('accepts both ends of the seed range, 0 and MAX_SEED, as distinct streams', () => {
    const low = take(new RandomStream(0, 'x'), 3);
    const high = take(new RandomStream(MAX_SEED, 'x'), 3);
    expect(high).not.toEqual(low);
    expect(high).toEqual(take(new RandomStream(2 ** 32 - 1, 'x'), 3));
  });
});
