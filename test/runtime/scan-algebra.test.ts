/**
 * The segmented-scan algebra of the combining trees (src/runtime/scan-algebra.ts),
 * checked without a network: summaries composed up a binomial tree and distributed
 * down it must give exactly combineAll's answer (the control network's definition)
 * for all fifteen CombineOps, any segment boundaries and any machine size.
 */
import { describe, expect, it } from 'vitest';
import { asWord, CombineOp, combineAll, modeOf, REDUCE, SegmentType, type ReduceOp } from '../../src/network/combine.ts';
import { compose, distribute, EMPTY, emptySummary, flagsFromWord, flagsToWord, ownFlags, type Summary } from '../../src/runtime/scan-algebra.ts';
import { binomialChildren } from '../../src/runtime/tree-combine.ts';
import { RandomStream } from '../../src/kernel/random-stream.ts';

/** Runs one combine on a binomial tree of `values.length` nodes rooted at 0, as TreeCombine does. */
function treeCombine(op: ReduceOp, values: readonly number[], segments: readonly number[]): number[] {
  const n = values.length;
  const own = (i: number): Summary => ({
    flags: ownFlags((modeOf(op) === REDUCE ? SegmentType.NoBoundary : segments[i]) as SegmentType),
    values: [asWord(op, values[i])],
  });
  const totals = new Map<number, Summary>();
  const up = (i: number): Summary => {
    let total = own(i);
    for (const c of binomialChildren(i, n)) total = compose(op, total, up(c));
    totals.set(i, total);
    return total;
  };
  const rootTotal = up(0);
  const results = new Array<number>(n);
  const down = (i: number, carried: Summary): void => {
    const children = binomialChildren(i, n);
    const { result, toChild } = distribute(op, carried, own(i), children.map((c) => totals.get(c)!));
    results[i] = result[0];
    children.forEach((c, k) => down(c, toChild[k]));
  };
  down(0, modeOf(op) === REDUCE ? rootTotal : emptySummary(op, 1));
  return results;
}

describe('the segmented-scan algebra', () => {
  it('treats the summary of no nodes as an identity on either side', () => {
    const one: Summary = { flags: ownFlags(SegmentType.ArrayBoundary), values: [7] };
    const empty = emptySummary(CombineOp.ScanAdd, 1);
    expect(empty.flags).toBe(EMPTY);
    expect(compose(CombineOp.ScanAdd, empty, one)).toBe(one);
    expect(compose(CombineOp.ScanAdd, one, empty)).toBe(one);
  });

  it('carries the empty flags through a message word and back, and leaves real flags alone', () => {
    expect(flagsToWord(EMPTY)).toBe(0xffffffff);
    expect(flagsFromWord(flagsToWord(EMPTY))).toBe(EMPTY);
    for (const s of [SegmentType.NoBoundary, SegmentType.ElementBoundary, SegmentType.ArrayBoundary]) {
      expect(flagsFromWord(flagsToWord(ownFlags(s)))).toBe(ownFlags(s));
    }
  });

  it('restarts a forward scan at a boundary: node 3 sees only node 2; an element boundary also gives node 2 the identity', () => {
    expect(treeCombine(CombineOp.ScanAdd, [1, 2, 3, 4], [0, 0, 1, 0])).toEqual([0, 1, 0, 3]);
    expect(treeCombine(CombineOp.ScanAdd, [1, 2, 3, 4], [0, 0, 2, 0])).toEqual([0, 1, 3, 3]);
  });

  it('matches combineAll for every op, random segments and every size from 1 to 33 nodes', () => {
    const random = new RandomStream(7, 'scan-algebra test');
    let checked = 0;
    for (let n = 1; n <= 33; n++) {
      for (let op = 0; op < 15; op++) {
        for (let trial = 0; trial < 3; trial++) {
          const values = Array.from({ length: n }, () => random.int(2001) - 1000);
          const segments = Array.from({ length: n }, () => (random.int(4) === 0 ? 1 + random.int(2) : 0));
          expect(treeCombine(op as ReduceOp, values, segments), `op ${op}, ${n} nodes, segments ${segments.join('')}`).toEqual(
            combineAll(op as ReduceOp, values, segments),
          );
          checked++;
        }
      }
    }
    expect(checked).toBe(33 * 15 * 3);
  });
});
