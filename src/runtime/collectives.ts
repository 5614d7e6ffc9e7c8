/**
 * Barriers, global ORs, combines and scans as apps call them (Appendix A 4.1-4.3):
 * argument checks, the segment boundary, the vector a split-phase combine writes to,
 * logging of each step when the run logs global operations, and states 6-7 while a
 * traced node waits. The machinery underneath is a CombineEngine (control network or
 * combining tree). Methods that take time do their checks and the logging that
 * comes before an operation starts when called, and return the operation's body:
 * the façade runs it through the OpGuard's op(), engines through nested().
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import {
  COMBINE_CHANNEL,
  COMBINE_OP_NAMES,
  CombineOp,
  GLOBAL_OR_CHANNEL,
  isCombineOp,
  isSegmentType,
  SegmentType,
  VECTOR_CHANNEL,
  type CombineChannel,
  type ReduceOp,
} from '../network/combine.ts';
import type { CombineEngine } from './global-ops.ts';
import type { NodeOutput } from './node-output.ts';
import type { OpGuard } from './op-guard.ts';
import { State, type NodeStates } from './states.ts';
import { firstNonWord, notAWord } from './words.ts';

/** A writable array of 32-bit words (Int32Array, Uint32Array or number[]). */
export type WordArray = { length: number; [index: number]: number };

export class Collectives {
  private readonly self: number;
  private readonly engine: CombineEngine;
  private readonly guard: OpGuard;
  private readonly output: NodeOutput;
  private readonly states: NodeStates;
  private segment: SegmentType = SegmentType.NoBoundary;
  /** Where completeCombineVector writes. */
  private pendingVector: WordArray | null = null;
  /**
   * Bit `ch` set once this node has started an episode of channel `ch` (a completion
   * before any has no result). A number, not an array of three booleans: an object
   * less per node to build and collect on a 4096-node machine.
   */
  private started = 0;

  constructor(self: number, engine: CombineEngine, guard: OpGuard, output: NodeOutput, states: NodeStates) {
    this.self = self;
    this.engine = engine;
    this.guard = guard;
    this.output = output;
    this.states = states;
  }

  // ---- barriers and global OR (4.1, 4.2) ---------------------------------------------

  startBarrier(): Op {
    return this.start(GLOBAL_OR_CHANNEL, CombineOp.ReduceOr, [0], SegmentType.NoBoundary, 'startBarrier');
  }

  query(ch: CombineChannel): Op<boolean> {
    return this.engine.query(ch);
  }

  *completeBarrier(): Op {
    yield* this.await(GLOBAL_OR_CHANNEL, 'completeBarrier');
  }

  *barrier(): Op {
    yield* this.guard.nested(this.startBarrier());
    yield* this.guard.nested(this.completeBarrier());
  }

  startGlobalOR(notDone: boolean): Op {
    return this.start(GLOBAL_OR_CHANNEL, CombineOp.ReduceOr, [notDone ? 1 : 0], SegmentType.NoBoundary, `startGlobalOR(${notDone})`);
  }

  completeGlobalOR(): Op<boolean> {
    this.checkStarted(GLOBAL_OR_CHANNEL, 'completeGlobalOR', 'startGlobalOR (or barrier)');
    return this.completeGlobalORBody();
  }

  private *completeGlobalORBody(): Op<boolean> {
    return (yield* this.await(GLOBAL_OR_CHANNEL, 'completeGlobalOR'))[0] !== 0;
  }

  *globalOR(notDone: boolean): Op<boolean> {
    yield* this.guard.nested(this.startGlobalOR(notDone));
    return yield* this.guard.nested(this.completeGlobalOR());
  }

  // ---- combines and scans (4.3) --------------------------------------------------------

  /** SetSegment: this node's boundary for the scans that start after it (4.3.1). */
  setSegment(boundary: SegmentType): void {
    if (!isSegmentType(boundary)) {
      throw new RunFailure(`node ${this.self}: setSegment(${boundary}): expected NoBoundary (0), ElementBoundary (1) or ArrayBoundary (2)`);
    }
    this.segment = boundary;
  }

  get currentSegment(): SegmentType {
    return this.segment;
  }

  startCombineInt(value: number, op: CombineOp): Op {
    this.checkCombine([value], op, 'combine');
    return this.start(COMBINE_CHANNEL, op, [value], this.segment, `startCombineInt(${value}, ${COMBINE_OP_NAMES[op]})`);
  }

  completeCombineInt(): Op<number> {
    this.checkStarted(COMBINE_CHANNEL, 'completeCombineInt', 'startCombineInt');
    return this.completeCombineIntBody();
  }

  private *completeCombineIntBody(): Op<number> {
    return (yield* this.await(COMBINE_CHANNEL, 'completeCombineInt'))[0];
  }

  /**
   * Refuses a completion on a channel this node never started: there is no result
   * to return (completeCombineInt gave undefined, completeGlobalOR true). Completing
   * one episode again returns its result again.
   */
  private checkStarted(ch: CombineChannel, what: string, start: string): void {
    if (((this.started >> ch) & 1) === 0) throw new RunFailure(`node ${this.self}: ${what} before any ${start} on this node`);
  }

  combineInt(value: number, op: CombineOp): Op<number> {
    this.checkCombine([value], op, 'combine');
    return this.combineIntBody(value, op);
  }

  private *combineIntBody(value: number, op: CombineOp): Op<number> {
    yield* this.guard.nested(this.startCombineInt(value, op));
    return yield* this.guard.nested(this.completeCombineInt());
  }

  combineVector(to: WordArray, from: ArrayLike<number>, op: CombineOp, count: number): Op {
    return this.combineVectorBody(to, this.vectorWords(to, from, op, count, 'combineVector'), op);
  }

  private *combineVectorBody(to: WordArray, words: readonly number[], op: CombineOp): Op {
    yield* this.guard.nested(this.startVector(to, words, op));
    yield* this.guard.nested(this.completeCombineVector());
  }

  startCombineVector(to: WordArray, from: ArrayLike<number>, op: CombineOp, count: number): Op {
    return this.startVector(to, this.vectorWords(to, from, op, count, 'startCombineVector'), op);
  }

  private startVector(to: WordArray, words: readonly number[], op: CombineOp): Op {
    this.pendingVector = to;
    return this.start(VECTOR_CHANNEL, op, words, this.segment, `startCombineVector(${words.length} elements, ${COMBINE_OP_NAMES[op]})`);
  }

  /** Checks a vector call and copies the words it combines, once, when it is called. */
  private vectorWords(to: WordArray, from: ArrayLike<number>, op: CombineOp, count: number, what: string): number[] {
    this.checkVector(to, from, count, what);
    const words = copyWords(from, count);
    // An Int32Array's or Uint32Array's elements are words by their type: checking
    // 65,536 of them a combine (radix sort's 16-bit digits) took as long as the combine.
    if (from instanceof Int32Array || from instanceof Uint32Array) this.checkOp(op, 'vector combine');
    else this.checkCombine(words, op, 'vector combine');
    return words;
  }

  completeCombineVector(): Op {
    const to = this.pendingVector;
    if (to === null) throw new RunFailure(`node ${this.self}: completeCombineVector without a vector combine in progress`);
    return this.completeVectorBody(to);
  }

  private *completeVectorBody(to: WordArray): Op {
    copyInto(to, yield* this.await(VECTOR_CHANNEL, 'completeCombineVector'));
    this.pendingVector = null;
  }

  /** Reduces `words` element-wise across all nodes on the combine channel (for composite reductions). */
  *reduceWords(op: ReduceOp, words: readonly number[]): Op<readonly number[]> {
    yield* this.guard.nested(this.start(COMBINE_CHANNEL, op, words, SegmentType.NoBoundary, `composite reduction step (${COMBINE_OP_NAMES[op]})`));
    return yield* this.await(COMBINE_CHANNEL, 'composite reduction step');
  }

  // ---- shared steps -------------------------------------------------------------------

  /** Checks combine values and the op (also used for broadcast words with ReduceOr). */
  checkCombine(words: readonly number[], op: number, what: string): void {
    this.checkOp(op, what);
    const bad = firstNonWord(words);
    if (bad >= 0) throw notAWord(`node ${this.self}: ${what} value`, words[bad]);
  }

  private checkOp(op: number, what: string): void {
    if (!isCombineOp(op)) throw new RunFailure(`node ${this.self}: ${what} op ${op} is not one of the fifteen CombineOps`);
  }

  /** Checks a vector call's count against its arrays. */
  checkVector(to: WordArray, from: ArrayLike<number>, count: number, what: string): void {
    // Called from JavaScript with its arguments out of order, it said "(undefined elements): expected 1 to NaN".
    const isArray = (a: unknown) => a !== null && typeof a === 'object' && typeof (a as { length?: unknown }).length === 'number';
    if (!isArray(to) || !isArray(from)) throw new RunFailure(`node ${this.self}: ${what}(to, from, op, count?): expected arrays for to and from, got ${to === null ? 'null' : typeof to} and ${from === null ? 'null' : typeof from}`);
    const shorter = Math.min(from.length, to.length);
    // An empty array (count defaults to its length) said "expected 1 to 0".
    if (shorter < 1) {
      const lengths = to === from ? 'the array is empty' : `to holds ${to.length} and from ${from.length}`;
      throw new RunFailure(`node ${this.self}: ${what}(${count} elements): expected arrays of at least 1 element; ${lengths}`);
    }
    if (!Number.isInteger(count) || count < 1 || count > shorter) {
      throw new RunFailure(`node ${this.self}: ${what}(${count} elements): expected 1 to ${shorter} (the arrays' lengths)`);
    }
  }

  /** Joins an episode: logs the step when called (before the operation starts), then the engine's start. */
  private start(ch: CombineChannel, op: ReduceOp, words: readonly number[], segment: SegmentType, what: string): Op {
    this.output.logGlobal(what);
    this.started |= 1 << ch;
    return this.engine.start(ch, op, words, segment);
  }

  /** Waits for `ch` inside an operation body, logging the wait when the run logs global operations. */
  private *await(ch: CombineChannel, what: string): Op<readonly number[]> {
    this.output.logGlobal(`${what}: waiting`);
    const previous = this.states.enter(ch === GLOBAL_OR_CHANNEL ? State.Barrier : State.Combine);
    const result = yield* this.guard.nested(this.engine.complete(ch, what));
    this.states.leave(previous);
    this.output.logGlobal(`${what}: done`);
    return result;
  }
}

/**
 * The first `count` of `from` as an array of their own (a split-phase combine may see
 * `from` change before it completes). Made at its length and filled in: three times
 * faster than pushing (about 12 against 35 ns a word).
 */
function copyWords(from: ArrayLike<number>, count: number): number[] {
  const words = new Array<number>(count);
  for (let i = 0; i < count; i++) words[i] = from[i];
  return words;
}

/** to[i] = result[i] for all of `result`: a plain function, optimized apart from the generator that completes the combine. */
function copyInto(to: WordArray, result: readonly number[]): void {
  for (let i = 0; i < result.length; i++) to[i] = result[i];
}
