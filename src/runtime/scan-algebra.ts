/**
 * The algebra of segmented scans over ranges of nodes (Appendix A 4.3.1), for the
 * combining trees (tree-combine.ts). A range's summary is more than its combination:
 * for forward scans, whether the range holds a segment start and the combination
 * since its last one; for back-scans, the first node's boundary, whether a later node
 * starts a segment, and the combination up to that node. Composing summaries stays
 * associative, so a tree computes exactly combineAll's semantics (network/combine.ts)
 * without commutativity, as long as its subtrees are contiguous ranges.
 */
import { accumulate, BACKSCAN, identityOf, modeOf, SCAN, SegmentType, type ReduceOp } from '../network/combine.ts';

/** Summary flags. EMPTY marks the summary of no nodes. */
export const EMPTY = -1;
/** Forward: some node of the range starts a segment. */
const ANY_BOUNDARY = 1;
/** Backward: some node after the range's first starts a segment. */
const LATER_BOUNDARY = 2;
/** Bits 2-3: the SegmentType of the range's first node. */
const FIRST_SHIFT = 2;
/** How EMPTY travels in a message word. */
const EMPTY_WORD = 0xffffffff;

/** A range of nodes, as far as a combine needs to know it. */
export interface Summary {
  flags: number;
  values: number[];
}

function firstBoundary(flags: number): number {
  return flags >> FIRST_SHIFT;
}

/** The flags of a one-node range whose node has segment boundary `segment`. */
export function ownFlags(segment: SegmentType): number {
  return (segment !== SegmentType.NoBoundary ? ANY_BOUNDARY : 0) | (segment << FIRST_SHIFT);
}

/** Flags as a message word, and back. */
export function flagsToWord(flags: number): number {
  return flags === EMPTY ? EMPTY_WORD : flags;
}

export function flagsFromWord(word: number): number {
  return word === EMPTY_WORD ? EMPTY : word;
}

/** The summary of range l followed by range r. */
export function compose(op: ReduceOp, l: Summary, r: Summary): Summary {
  if (l.flags === EMPTY) return r;
  if (r.flags === EMPTY) return l;
  const flags =
    ((l.flags | r.flags) & ANY_BOUNDARY) |
    (l.flags & LATER_BOUNDARY) |
    (r.flags & LATER_BOUNDARY) |
    (firstBoundary(r.flags) !== SegmentType.NoBoundary ? LATER_BOUNDARY : 0) |
    (firstBoundary(l.flags) << FIRST_SHIFT);
  // A forward scan restarts at r's last boundary; a backward one stops at l's first.
  const keepLeft = modeOf(op) === BACKSCAN && ((l.flags & LATER_BOUNDARY) !== 0 || firstBoundary(r.flags) !== SegmentType.NoBoundary);
  const keepRight = modeOf(op) !== BACKSCAN && (r.flags & ANY_BOUNDARY) !== 0;
  if (keepLeft) return { flags, values: l.values.slice() };
  if (keepRight) return { flags, values: r.values.slice() };
  // combineWords(op, l, r) element by element: accumulate's asWord on r's words changes no
  // result (the integer functions work modulo 2^32, the float ones on the bits).
  const values = l.values.slice();
  accumulate(op, values, r.values, values.length, true);
  return { flags, values };
}

/** The summary of no nodes, with `length` identity values. */
export function emptySummary(op: ReduceOp, length: number): Summary {
  return { flags: EMPTY, values: new Array<number>(length).fill(identityOf(op)) };
}

/** What a tree node learns once its subtree's outside is known. */
export interface Distribution {
  /** This node's own result. */
  result: readonly number[];
  /** For each child, in order, what that child's range needs from outside it. */
  toChild: Summary[];
}

/**
 * A node whose range is [itself, children's ranges in order] learns `carried`, the
 * summary of what its range needs from outside — all nodes before it (scans), after
 * it (back-scans) or the total (reductions) — and works out its own result and each
 * child's carried summary. `own` is its own one-node summary, `totals` its children's.
 */
export function distribute(op: ReduceOp, carried: Summary, own: Summary, totals: readonly Summary[]): Distribution {
  const n = totals.length;
  const toChild = new Array<Summary>(n);
  const length = own.values.length;
  const identity = (): number[] => new Array<number>(length).fill(identityOf(op));
  const mode = modeOf(op);
  if (mode === SCAN) {
    const result = firstBoundary(own.flags) === SegmentType.ElementBoundary ? identity() : carried.values;
    let run = compose(op, carried, own);
    for (let k = 0; k < n; k++) {
      toChild[k] = run;
      run = compose(op, run, totals[k]);
    }
    return { result, toChild };
  }
  if (mode === BACKSCAN) {
    let after = carried;
    for (let k = n - 1; k >= 0; k--) {
      toChild[k] = after;
      after = compose(op, totals[k], after);
    }
    const restart = after.flags !== EMPTY && firstBoundary(after.flags) === SegmentType.ElementBoundary;
    return { result: restart ? identity() : after.values, toChild };
  }
  toChild.fill(carried);
  return { result: carried.values, toChild };
}
