/**
 * What a combine operation computes: the five associative functions of the CM-5
 * control network (signed add, or, xor, unsigned add, signed max) crossed with
 * forward scan, backward scan and reduction — the fifteen `CombineOp`s of Appendix A
 * 4.3. Values are 32-bit words; results are signed except for unsigned add. Both the
 * control network and the runtime's combining trees use these definitions.
 */

/** The fifteen combine operations (Appendix A 4.3), numbered mode * 5 + function. */
export const CombineOp = {
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
} as const;
export type CombineOp = (typeof CombineOp)[keyof typeof CombineOp];

export const COMBINE_OP_NAMES = Object.keys(CombineOp) as (keyof typeof CombineOp)[];

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
export function modeOf(op: CombineOp): number {
  return Math.floor(op / 5);
}

/** Applies the op's associative function to two words. */
export function combineWords(op: CombineOp, a: number, b: number): number {
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
export function identityOf(op: CombineOp): number {
  return op % 5 === MAX ? -0x80000000 : 0;
}

/** Normalizes an input word to the op's signedness. */
export function asWord(op: CombineOp, value: number): number {
  return op % 5 === UADD ? value >>> 0 : value | 0;
}

/**
 * Reference semantics over all nodes' values at once: element i of the result is
 * what node i receives. Used by the control network, which computes in hardware.
 */
export function combineAll(op: CombineOp, values: readonly number[]): number[] {
  const n = values.length;
  const out = new Array<number>(n);
  const id = identityOf(op);
  const mode = modeOf(op);
  if (mode === SCAN) {
    let acc = id;
    for (let i = 0; i < n; i++) {
      out[i] = acc;
      acc = combineWords(op, acc, asWord(op, values[i]));
    }
  } else if (mode === BACKSCAN) {
    let acc = id;
    for (let i = n - 1; i >= 0; i--) {
      out[i] = acc;
      acc = combineWords(op, asWord(op, values[i]), acc);
    }
  } else {
    let acc = id;
    for (let i = 0; i < n; i++) acc = combineWords(op, acc, asWord(op, values[i]));
    out.fill(acc);
  }
  return out;
}
