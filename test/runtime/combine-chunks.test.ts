/**
 * Vector combines without a control network travel as trees of active messages of
 * combineChunkWords vector words each (tree-combine.ts, thesis 6.2): the RadixSort
 * models count those messages (apps.spec's combine_iter_logP), so the two must agree.
 */
import { describe, expect, it } from 'vitest';
import { CombineOp } from '../../src/network/combine.ts';
import { combineChunkWords } from '../../src/platform/packets.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** The slowest node's cycles for one ReduceAdd of an n-word vector on 16 nodes. */
function combineCycles(platform: 'paragon' | 'atm' | 'alewife', n: number): number {
  const { results } = runInline(platform, 16, function* (rt) {
    const v = new Array<number>(n).fill(1);
    yield* rt.barrier();
    const start = rt.cycleCount();
    yield* rt.combineVector(v, v, CombineOp.ReduceAdd);
    return rt.elapsedCycles(start);
  });
  return Math.max(...results);
}

describe.each(['paragon', 'atm', 'alewife'] as const)('vector combines on %s', (platform) => {
  const chunk = combineChunkWords(loadTestPlatform(platform));

  it('carry handlerArgWords - 3 words of the vector a message: a word past a full message costs a message more a tree level', () => {
    const within = combineCycles(platform, chunk) - combineCycles(platform, chunk - 1);
    const across = combineCycles(platform, chunk + 1) - combineCycles(platform, chunk);
    // Measured: Paragon 78 against 850 cycles, ATM 186 against 7,811, Alewife 118 against 496.
    expect(across).toBeGreaterThan(3 * within);
  });
});

it('a control network combines word by word', () => {
  expect(combineChunkWords(loadTestPlatform('cm5'))).toBe(1);
});
