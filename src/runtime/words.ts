/**
 * Strata's 32-bit words: the one check that a number is a word (message arguments,
 * Xfer words, combine and broadcast values) and the two-word form of a double that
 * BroadcastDouble sends; and how a value an app passed for a number is named. Signed and unsigned spellings of a word are both accepted,
 * as C Strata's `int` and `unsigned` arguments are.
 */
import { RunFailure } from '../kernel/errors.ts';

/** Whether `w` is an integer that fits in 32 bits, signed or unsigned. */
function isWord(w: number): boolean {
  return Number.isInteger(w) && w >= -0x80000000 && w <= 0xffffffff;
}

/**
 * The index of the first of `words` that is not a 32-bit word, or -1 if all are; the
 * caller builds the failure (notAWord) only then, keeping message text off the
 * per-message path.
 */
export function firstNonWord(words: ArrayLike<number>): number {
  for (let i = 0; i < words.length; i++) {
    if (!isWord(words[i])) return i;
  }
  return -1;
}

/** The failure for a value that is not a 32-bit word; `what` starts the message, e.g. "node 3: Xfer word". */
export function notAWord(what: string, w: number): RunFailure {
  return new RunFailure(`${what} ${shownArgument(w)} is not a 32-bit word`);
}

/**
 * A value an app passed where a number belongs, as a message names it: a number as
 * itself, a string quoted (a JavaScript app's "1" was shown as 1: "message to node 1:
 * expected a node number from 0 to 3"), anything else by its kind.
 */
export function shownArgument(x: unknown): string {
  if (typeof x === 'number') return String(x);
  if (typeof x === 'string') return `${JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}...` : x)} (a string)`;
  return x === null ? 'null' : Array.isArray(x) ? 'a list' : typeof x === 'bigint' ? `${x}n (a bigint)` : typeof x;
}

const doubleView = new DataView(new ArrayBuffer(8));

/** The IEEE double `x` as two words, high word first. */
export function doubleToWords(x: number): number[] {
  doubleView.setFloat64(0, x);
  return [doubleView.getUint32(0), doubleView.getUint32(4)];
}

/** The double that two words (high first) hold. */
export function wordsToDouble(words: readonly number[]): number {
  doubleView.setUint32(0, words[0] >>> 0);
  doubleView.setUint32(4, words[1] >>> 0);
  return doubleView.getFloat64(0);
}
