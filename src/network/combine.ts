/**
 * What a combine operation computes: the five associative functions of the CM-5
 * control network (signed add, or, xor, unsigned add, signed max) crossed with
 * forward scan, backward scan and reduction — the fifteen `CombineOp`s of Appendix A
 * 4.3. Values are 32-bit words; results are signed except for unsigned add. Both the
 * control network and the runtime's combining trees use these definitions.
 */

/**
 * The kinds of synchronous global operation, each with its own episodes: a node may
 * have one of each in progress (Appendix A 4). The control network and the runtime's
 * combining trees both number them this way.
 */
/** Global OR, of which a barrier is the special case GlobalOR(false) (Appendix A 4.1). */
export const GLOBAL_OR_CHANNEL = 0;
/** CombineInt and the composite reductions built on it. */
export const COMBINE_CHANNEL = 1;
/** CombineVector. */
export const VECTOR_CHANNEL = 2;
export type CombineChannel = typeof GLOBAL_OR_CHANNEL | typeof COMBINE_CHANNEL | typeof VECTOR_CHANNEL;
export const CHANNEL_NAMES: readonly string[] = ['barrier or global OR', 'combine', 'vector combine'];

/** The fifteen combine operations (Appendix A 4.3), numbered mode * 5 + function. */
export const CombineOp = Object.freeze({
  ScanAdd: 0,
  ScanOr: 1,
  ScanXor: 2,
  ScanUadd: 3,
  ScanMax: 4,
  BackScanAdd: 5,
  BackScanOr: 6,
  BackScanXor: 7,
  BackScanUadd: 8,
  BackScanMax: 9,
  ReduceAdd: 10,
  ReduceOr: 11,
  ReduceXor: 12,
  ReduceUadd: 13,
  ReduceMax: 14,
} as const);
export type CombineOp = (typeof CombineOp)[keyof typeof CombineOp];

export const COMBINE_OP_NAMES: readonly string[] = [...Object.keys(CombineOp), 'ReduceFloatAdd', 'ReduceFloatMax'];

/**
 * Reductions of single-precision floats, carried as their IEEE bit patterns: what
 * Strata's composite float operations (Appendix A 5) build on. Not user CombineOps.
 */
export const REDUCE_FLOAT_ADD = 15;
export const REDUCE_FLOAT_MAX = 16;

/** A CombineOp or one of the internal float reductions. */
export type ReduceOp = CombineOp | typeof REDUCE_FLOAT_ADD | typeof REDUCE_FLOAT_MAX;

/** Segment boundaries (Appendix A 4.3.1): where a node starts a new scan segment. */
export const SegmentType = Object.freeze({ NoBoundary: 0, ElementBoundary: 1, ArrayBoundary: 2 } as const);
export type SegmentType = (typeof SegmentType)[keyof typeof SegmentType];

export function isSegmentType(s: number): s is SegmentType {
  return s === 0 || s === 1 || s === 2;
}

const floatBits = new DataView(new ArrayBuffer(4));

/** The IEEE single-precision bit pattern of `x` (rounded to float), as an unsigned word. */
export function floatToWord(x: number): number {
  floatBits.setFloat32(0, x);
  return floatBits.getUint32(0);
}

/** The float whose bit pattern is `word`. */
export function wordToFloat(word: number): number {
  floatBits.setUint32(0, word >>> 0);
  return floatBits.getFloat32(0);
}

const ADD = 0;
const OR = 1;
const XOR = 2;
const UADD = 3;
const MAX = 4;

/** How results are distributed: exclusive prefix, exclusive suffix, or the total. */
export const SCAN = 0;
export const BACKSCAN = 1;
export const REDUCE = 2;

export function isCombineOp(op: number): op is CombineOp {
  return Number.isInteger(op) && op >= 0 && op <= 14;
}

/** SCAN, BACKSCAN or REDUCE. */
export function modeOf(op: ReduceOp): number {
  return op >= REDUCE_FLOAT_ADD ? REDUCE : Math.floor(op / 5);
}

/** Applies the op's associative function to two words. */
export function combineWords(op: ReduceOp, a: number, b: number): number {
  if (op === REDUCE_FLOAT_ADD) return floatToWord(wordToFloat(a) + wordToFloat(b));
  if (op === REDUCE_FLOAT_MAX) return wordToFloat(a) >= wordToFloat(b) ? a >>> 0 : b >>> 0;
  switch (op % 5) {
    case ADD:
      return (a + b) | 0;
    case OR:
      return a | b;
    case XOR:
      return a ^ b;
    case UADD:
      return (a + b) >>> 0;
    case MAX:
      return (a | 0) > (b | 0) ? a | 0 : b | 0;
    default:
      throw new RangeError(`not a combine op: ${op}`);
  }
}

/** The identity of the op's function: what node 0 gets from a scan. */
export function identityOf(op: ReduceOp): number {
  if (op === REDUCE_FLOAT_ADD) return 0;
  if (op === REDUCE_FLOAT_MAX) return NEGATIVE_INFINITY_WORD;
  return op % 5 === MAX ? -0x80000000 : 0;
}

const NEGATIVE_INFINITY_WORD = 0xff800000;

/** Normalizes an input word to the op's signedness (float words stay unsigned bit patterns). */
export function asWord(op: ReduceOp, value: number): number {
  return op >= REDUCE_FLOAT_ADD || op % 5 === UADD ? value >>> 0 : value | 0;
}

/**
 * Reference semantics over all nodes' values at once: element i of the result is
 * what node i receives. `segments[i]` is node i's SegmentType (all NoBoundary when
 * omitted); reductions ignore segments. The control network computes with this; the
 * combining trees must agree with it.
 *
 * Forward scans follow Appendix A 4.3.1: a node with ElementBoundary starts a segment
 * and receives the identity; with ArrayBoundary it starts a segment but still
 * receives the combination from the previous boundary up to itself ("the value from
 * the previous processor, but don't forward it"). Backward scans are the mirror
 * image: the last node before a boundary receives the identity (ElementBoundary) or
 * the combination of the next segment (ArrayBoundary).
 */
export function combineAll(op: ReduceOp, values: readonly number[], segments?: ArrayLike<number>): number[] {
  const n = values.length;
  const out = new Array<number>(n);
  const id = identityOf(op);
  const mode = modeOf(op);
  const seg = (i: number): number => (segments === undefined || i >= n ? SegmentType.NoBoundary : segments[i]);
  if (mode === SCAN) {
    let acc = id;
    for (let i = 0; i < n; i++) {
      const s = seg(i);
      out[i] = s === SegmentType.ElementBoundary ? id : acc;
      if (s !== SegmentType.NoBoundary) acc = id;
      acc = combineWords(op, acc, asWord(op, values[i]));
    }
  } else if (mode === BACKSCAN) {
    let acc = id;
    for (let i = n - 1; i >= 0; i--) {
      const s = seg(i + 1);
      out[i] = s === SegmentType.ElementBoundary ? id : acc;
      if (s !== SegmentType.NoBoundary) acc = id;
      acc = combineWords(op, asWord(op, values[i]), acc);
    }
  } else {
    let acc = id;
    for (let i = 0; i < n; i++) acc = combineWords(op, acc, asWord(op, values[i]));
    out.fill(acc);
  }
  return out;
}

/**
 * combineAll element by element over vectors: element e of result i is
 * combineAll(op, [vectors[0][e], ..., vectors[n-1][e]], segments)[i] for every e below
 * `length`. It walks the nodes once, a whole vector at a time, rather than gathering a
 * column of n values for each element (a 1,048,576-word CombineVector on 64 nodes is
 * 67 M elements). A reduction gives every node the same array (results are read, not
 * written: ControlNetwork.result).
 */
export function combineVectors(op: ReduceOp, vectors: readonly (readonly number[])[], length: number, segments?: ArrayLike<number>): (readonly number[])[] {
  const n = vectors.length;
  const out = new Array<readonly number[]>(n);
  const id = identityOf(op);
  const mode = modeOf(op);
  const seg = (i: number): number => (segments === undefined || i >= n ? SegmentType.NoBoundary : segments[i]);
  const acc = new Array<number>(length).fill(id);
  if (mode === REDUCE) {
    for (const v of vectors) accumulate(op, acc, v, length, true);
    return out.fill(acc);
  }
  const forward = mode === SCAN;
  for (let k = 0; k < n; k++) {
    const i = forward ? k : n - 1 - k;
    // A forward scan's boundary is the node's own; a backward scan's, the next node's.
    const s = seg(forward ? i : i + 1);
    out[i] = s === SegmentType.ElementBoundary ? new Array<number>(length).fill(id) : acc.slice();
    if (s !== SegmentType.NoBoundary) acc.fill(id);
    accumulate(op, acc, vectors[i], length, forward);
  }
  return out;
}

/**
 * acc[e] = combineWords(op, acc[e], asWord(op, v[e])) for every e below `length` (with
 * the two swapped when not `accFirst`: a backward scan), with the op's function chosen
 * once rather than at every element: a 65,536-word vector (radix sort's 16-bit digits)
 * on 64 nodes is 4 M elements a combine. The integer functions are commutative, so
 * only the float reductions keep the argument order. Also what the combining trees'
 * summaries compose with (runtime/scan-algebra.ts).
 */
export function accumulate(op: ReduceOp, acc: number[], v: readonly number[], length: number, accFirst: boolean): void {
  if (op >= REDUCE_FLOAT_ADD) {
    for (let e = 0; e < length; e++) acc[e] = accFirst ? combineWords(op, acc[e], asWord(op, v[e])) : combineWords(op, asWord(op, v[e]), acc[e]);
    return;
  }
  switch (op % 5) {
    case ADD:
      for (let e = 0; e < length; e++) acc[e] = (acc[e] + (v[e] | 0)) | 0;
      return;
    case OR:
      for (let e = 0; e < length; e++) acc[e] = acc[e] | v[e];
      return;
    case XOR:
      for (let e = 0; e < length; e++) acc[e] = acc[e] ^ v[e];
      return;
    case UADD:
      for (let e = 0; e < length; e++) acc[e] = (acc[e] + (v[e] >>> 0)) >>> 0;
      return;
    case MAX:
      for (let e = 0; e < length; e++) {
        const a = acc[e] | 0;
        const b = v[e] | 0;
        acc[e] = a > b ? a : b;
      }
      return;
    default:
      throw new RangeError(`not a combine op: ${op}`);
  }
}
