/**
 * Strata's 32-bit words (src/runtime/words.ts): the one check every message argument,
 * Xfer word and combine value passes, and a double's two words.
 */
import { describe, expect, it } from 'vitest';
import { doubleToWords, firstNonWord, notAWord, wordsToDouble } from '../../src/runtime/words.ts';
import { runInline } from '../support/inline-app.ts';

describe('32-bit words', () => {
  it('accepts signed and unsigned spellings and nothing outside them', () => {
    expect(firstNonWord([0, -0x80000000, 0x7fffffff, 0xffffffff])).toBe(-1);
    expect(firstNonWord([1, 2, 0x100000000])).toBe(2);
    expect(firstNonWord([-0x80000001])).toBe(0);
    expect(firstNonWord([3, 1.5])).toBe(1);
    expect(firstNonWord([Number.NaN])).toBe(0);
  });

  it('finds a missing value too (a JavaScript app can pass undefined where a word belongs)', () => {
    expect(firstNonWord([7, undefined as unknown as number])).toBe(1);
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 0) yield* rt.sendLeftPollBoth(1, () => {}, undefined as unknown as number);
      }),
    ).toThrow(/node 0: message to node 1: argument undefined is not a 32-bit word/);
  });

  it('names the value in one line', () => {
    expect(notAWord('node 3: Xfer word', 2.5).message).toBe('node 3: Xfer word 2.5 is not a 32-bit word');
  });

  it('carries a double in two words, high first, exactly', () => {
    for (const x of [0, -0, 1.5, Math.PI, -1e308, Number.MIN_VALUE]) expect(Object.is(wordsToDouble(doubleToWords(x)), x)).toBe(true);
    expect(doubleToWords(1)).toEqual([0x3ff00000, 0]);
  });
});
