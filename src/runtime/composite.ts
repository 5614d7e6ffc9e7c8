/**
 * Strata's composite reductions (Appendix A 5; thesis 6.1.1, Table 6-1): Min, Max,
 * Average, Variance and Median of one value per node, for signed and unsigned
 * integers and single-precision floats, built from the primitive reductions the way
 * the thesis describes — so on the CM-5 they ride the control network and elsewhere
 * the combining trees. Reductions ignore segment boundaries.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { CombineOp, floatToWord, REDUCE_FLOAT_ADD, REDUCE_FLOAT_MAX, wordToFloat, type ReduceOp } from '../network/combine.ts';
import type { Collectives } from './collectives.ts';
import type { LocalWork } from './local-work.ts';
import type { OpGuard } from './op-guard.ts';
import { shownArgument } from './words.ts';

/** What a composite reduction needs of its node. */
export interface CompositeContext {
  readonly self: number;
  readonly nodes: number;
  readonly guard: OpGuard;
  readonly collectives: Collectives;
  readonly work: LocalWork;
}

/** The five composite operations (Appendix A 5). */
export const CompositeOp = Object.freeze({ Min: 0, Max: 1, Average: 2, Variance: 3, Median: 4 } as const);
export type CompositeOp = (typeof CompositeOp)[keyof typeof CompositeOp];
const COMPOSITE_NAMES = Object.keys(CompositeOp);

/** How one of the three value types orders, adds and rounds. */
interface ValueType {
  name: string;
  /** The runtime call that takes this type, and what it accepts, for messages. */
  call: string;
  expected: string;
  /** Whether `x` is a value of this type. */
  accepts(x: number): boolean;
  /** Rounds to the type (float32 for floats). */
  round(x: number): number;
  /** The global maximum of one value per node; `x` may be the type's -infinity. */
  max(ctx: CompositeContext, x: number): Op<number>;
  /** The global minimum; `x` may be the type's +infinity. */
  min(ctx: CompositeContext, x: number): Op<number>;
  /** The global sum, with the overflow behaviour of the type's ReduceAdd. */
  sum(ctx: CompositeContext, x: number): Op<number>;
  /** Sum / n as C computes it for the type. */
  divide(sum: number, n: number): number;
  readonly negInf: number;
  readonly posInf: number;
}

/** Reduces one word per node. */
function* reduceWord(ctx: CompositeContext, op: ReduceOp, word: number): Op<number> {
  return (yield* ctx.guard.nested(ctx.collectives.reduceWords(op, [word])))[0];
}

/** Integers ordered through signed keys: max by ReduceMax, min as ~max(~key). */
function integerType(name: string, signed: boolean): ValueType {
  const toKey = signed ? (x: number) => x | 0 : (x: number) => (x ^ 0x80000000) | 0;
  const fromKey = signed ? (k: number) => k | 0 : (k: number) => (k ^ 0x80000000) >>> 0;
  return {
    name,
    call: signed ? 'compositeInt' : 'compositeUint',
    expected: signed ? 'an int, an integer from -2147483648 to 2147483647' : 'an unsigned int, an integer from 0 to 4294967295',
    accepts: signed
      ? (x) => Number.isInteger(x) && x >= -0x80000000 && x <= 0x7fffffff
      : (x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff,
    round: (x) => x,
    *max(ctx, x) {
      return fromKey(yield* reduceWord(ctx, CombineOp.ReduceMax, toKey(x)));
    },
    *min(ctx, x) {
      return fromKey(~(yield* reduceWord(ctx, CombineOp.ReduceMax, ~toKey(x))));
    },
    *sum(ctx, x) {
      return yield* reduceWord(ctx, signed ? CombineOp.ReduceAdd : CombineOp.ReduceUadd, x);
    },
    divide: signed ? (sum, n) => Math.trunc(sum / n) : (sum, n) => Math.floor(sum / n),
    negInf: signed ? -0x80000000 : 0,
    posInf: signed ? 0x7fffffff : 0xffffffff,
  };
}

const floatType: ValueType = {
  name: 'float',
  call: 'compositeFloat',
  expected: 'a number (not NaN)',
  accepts: (x) => typeof x === 'number' && !Number.isNaN(x),
  round: Math.fround,
  *max(ctx, x) {
    return wordToFloat(yield* reduceWord(ctx, REDUCE_FLOAT_MAX, floatToWord(x)));
  },
  *min(ctx, x) {
    return -wordToFloat(yield* reduceWord(ctx, REDUCE_FLOAT_MAX, floatToWord(-x)));
  },
  *sum(ctx, x) {
    return wordToFloat(yield* reduceWord(ctx, REDUCE_FLOAT_ADD, floatToWord(x)));
  },
  divide: (sum, n) => Math.fround(sum / n),
  negInf: -Infinity,
  posInf: Infinity,
};

export const INT = integerType('int', true);
export const UINT = integerType('unsigned', false);
export const FLOAT = floatType;

/** Applies composite operation `op` to one `type` value per node; every node must call it. */
export function* composite(ctx: CompositeContext, type: ValueType, value: number, op: CompositeOp): Op<number> {
  // It said "Composite: -1 is not a unsigned value", naming neither the call nor the range.
  if (!type.accepts(value)) throw new RunFailure(`node ${ctx.self}: ${type.call}(${shownArgument(value)}, ...): expected ${type.expected}`);
  const x = type.round(value);
  const n = ctx.nodes;
  switch (op) {
    case CompositeOp.Min:
      return yield* type.min(ctx, x);
    case CompositeOp.Max:
      return yield* type.max(ctx, x);
    case CompositeOp.Average: {
      const sum = yield* type.sum(ctx, x);
      ctx.work.computeOps({ floatDivs: 1 });
      return type.divide(sum, n);
    }
    case CompositeOp.Variance:
      return yield* variance(ctx, type, x);
    case CompositeOp.Median:
      return yield* median(ctx, type, x);
    default:
      throw new RunFailure(`node ${ctx.self}: composite op ${String(op)} is not one of ${COMPOSITE_NAMES.join(', ')}`);
  }
}

/**
 * Sample variance by eq. 45: (sum x^2 - (sum x)^2 / n) / (n - 1), each sum a global
 * float reduction, so integer variances have float precision (Appendix A 5) and
 * saturate at the type's largest value. Zero on one node.
 */
function* variance(ctx: CompositeContext, type: ValueType, x: number): Op<number> {
  const n = ctx.nodes;
  if (n === 1) return 0;
  const f = Math.fround(x);
  const sum = yield* FLOAT.sum(ctx, f);
  const sumSquares = yield* FLOAT.sum(ctx, Math.fround(f * f));
  ctx.work.computeOps({ floatMuls: 2, floatAdds: 2, floatDivs: 2 });
  const v = Math.fround(Math.fround(sumSquares - Math.fround(Math.fround(sum * sum) / n)) / (n - 1));
  if (type === FLOAT) return v;
  // Converted as C would, saturating where the variance exceeds the type.
  return Math.min(type.posInf, Math.max(0, Math.trunc(v)));
}

/**
 * The global median by thesis Fig. 6-2: start at the smallest value at or above the
 * average and step through neighbouring values (a global min or max each) until the
 * candidate is the k-th smallest, k = ceil(n / 2) — the lower middle value for even n
 * (Appendix A 5). Each step counts the values <= p and < p in one two-word global
 * sum; that exact test replaces the figure's "count = n/2" with its too-small /
 * too-big guard, which ties and odd n would otherwise need. (The figure starts above
 * the average; starting at or above it always finds a value.)
 */
function* median(ctx: CompositeContext, type: ValueType, x: number): Op<number> {
  const k = Math.ceil(ctx.nodes / 2);
  const average = type.divide(yield* type.sum(ctx, x), ctx.nodes);
  let p = yield* type.min(ctx, x >= average ? x : type.posInf);
  for (;;) {
    const [atMost, below] = yield* ctx.guard.nested(ctx.collectives.reduceWords(CombineOp.ReduceAdd, [x <= p ? 1 : 0, x < p ? 1 : 0]));
    ctx.work.computeOps({ intOps: 4, branches: 3 });
    if (below < k && k <= atMost) return p;
    p = atMost < k ? yield* type.min(ctx, x > p ? x : type.posInf) : yield* type.max(ctx, x < p ? x : type.negInf);
  }
}
