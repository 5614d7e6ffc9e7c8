import { describe, expect, it } from 'vitest';
import { enumerateMinimum, integerMinimum, integerRoot, localMinima, minimize } from '../../src/library/optimize.ts';

describe('IntegerRoot (thesis 5.1)', () => {
  it('finds a falling curve\'s root rounded down, in at most 8 steps over [0, 100] and 5 over [0, 20] (5.4)', () => {
    for (let root = 0; root < 100; root++) {
      const r = integerRoot(0, 100, (x) => root + 0.5 - x);
      expect(r.value).toBe(root);
      expect(r.steps).toBeLessThanOrEqual(8);
    }
    for (let root = 0; root < 20; root++) {
      const r = integerRoot(0, 20, (x) => root + 0.25 - x);
      expect(r.value).toBe(root);
      expect(r.steps).toBeLessThanOrEqual(5);
    }
  });

  it('returns an exact integer root, and rising curves too', () => {
    expect(integerRoot(0, 100, (x) => 37 - x).value).toBe(37);
    expect(integerRoot(0, 100, (x) => x - 37).value).toBe(37);
    expect(integerRoot(0, 100, (x) => x - 36.5).value).toBe(36);
  });

  it('returns bottom-1 for a strictly negative curve and top+1 for a strictly positive one', () => {
    expect(integerRoot(0, 100, (x) => -1 - x).value).toBe(-1);
    expect(integerRoot(5, 20, () => 3).value).toBe(21);
    expect(integerRoot(0, 100, (x) => x + 1).value).toBe(101);
    expect(integerRoot(0, 0, () => -2).value).toBe(-1);
    // A root past the range: the curve is positive on all of it.
    expect(integerRoot(0, 100, (x) => 100.5 - x).value).toBe(101);
  });

  it('finds roots at the ends of the range', () => {
    expect(integerRoot(0, 100, (x) => -x).value).toBe(0);
    expect(integerRoot(0, 100, (x) => 100 - x).value).toBe(100);
    expect(integerRoot(0, 100, (x) => 0.5 - x).value).toBe(0);
    expect(integerRoot(0, 100, (x) => 99.5 - x).value).toBe(99);
  });

  it('refuses an empty or non-integer range', () => {
    expect(() => integerRoot(5, 4, (x) => x)).toThrow(RangeError);
    expect(() => integerMinimum(0.5, 4, (x) => x)).toThrow(RangeError);
  });
});

describe('IntegerMinimum (thesis 5.1) and enumeration', () => {
  it('finds a single minimum anywhere, the endpoints included', () => {
    for (let m = 0; m <= 20; m++) {
      expect(integerMinimum(0, 20, (x) => (x - m) ** 2).value).toBe(m);
      expect(enumerateMinimum(0, 20, (x) => (x - m) ** 2)).toBe(m);
    }
    expect(integerMinimum(3, 9, (x) => x).value).toBe(3);
    expect(integerMinimum(3, 9, (x) => -x).value).toBe(9);
    expect(integerMinimum(4, 4, () => 1).value).toBe(4);
  });

  it('takes at most ceil(log2(range)) steps', () => {
    expect(integerMinimum(0, 100, (x) => (x - 63) ** 2).steps).toBeLessThanOrEqual(7);
  });

  it('reports when bisection and enumeration disagree: a curve with two minima', () => {
    const twoDips = (x: number) => [9, 5, 6, 7, 8, 9, 4, 8][x];
    expect(localMinima(0, 7, twoDips)).toEqual([1, 6]);
    const m = minimize(0, 7, twoDips);
    expect(m.value).toBe(6);
    expect(m.bisection.value).toBe(1);
    expect(m.disagree).toBe(true);
    expect(minimize(0, 7, (x) => (x - 2) ** 2).disagree).toBe(false);
  });

  it('gives ties to the smaller value', () => {
    expect(enumerateMinimum(0, 5, (x) => (x === 2 || x === 4 ? 0 : 1))).toBe(2);
  });

  it('stops at the first point of a flat minimum, where f stops falling', () => {
    const flat = (x: number) => [3, 1, 1, 2][x];
    expect(integerMinimum(0, 3, flat).value).toBe(1);
    expect(minimize(0, 3, flat)).toMatchObject({ value: 1, disagree: false });
  });

  it('counts as local minima only points strictly below their neighbours', () => {
    expect(localMinima(0, 3, (x) => [3, 1, 1, 3][x])).toEqual([]);
    expect(localMinima(0, 4, (x) => [3, 1, 2, 2, 3][x])).toEqual([1]);
  });
});
