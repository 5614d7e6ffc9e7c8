/**
 * How a failed run is told (src/cli/failure-report.ts): an app that asked the host for
 * more memory than it has gets, after its failure line, the advice to make the input
 * smaller or give Node more; one that asked for an array longer than the language
 * allows, to make it smaller; any other failure neither.
 */
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.ts';
import { reportFailure } from '../../src/cli/failure-report.ts';
import { AppError } from '../../src/kernel/errors.ts';

function report(e: AppError): string[] {
  const err: string[] = [];
  const io: Io = { out: () => {}, err: (t) => err.push(t), write: () => {} };
  reportFailure(e, io);
  return err;
}

/** `e` as the app threw it, without stack frames (the app's file and line are app-location.ts's). */
function thrown(e: Error): Error {
  e.stack = `${e.name}: ${e.message}`;
  return e;
}

describe('a failed run is reported', () => {
  it('with the memory advice when the app could not allocate', () => {
    const lines = report(new AppError('node 3 at cycle 12: RangeError: Array buffer allocation failed', { cause: thrown(new RangeError('Array buffer allocation failed')) }));
    expect(lines).toEqual([
      'sim: run failed: node 3 at cycle 12: RangeError: Array buffer allocation failed',
      'sim: the host could not allocate the memory this run asks for: make the input smaller, or give Node more with NODE_OPTIONS=--max-old-space-size=<MB>',
    ]);
  });

  // It was told to give Node more memory, which cannot lift a limit of the language.
  it.each([
    ['an Array longer than JavaScript takes', () => new Array(2 ** 32)],
    ['a typed array longer than JavaScript takes', () => new Float64Array(2 ** 33)],
    // "longer than JavaScript allows" of a negative length.
    ['an Array of a negative length', () => new Array(-1)],
    ['a typed array of a negative length', () => new Float64Array(-2)],
  ])('with the length advice when the app asked for %s', (_what, make) => {
    let caught: unknown;
    try {
      make();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RangeError);
    const message = (caught as Error).message;
    const lines = report(new AppError(`node 3 at cycle 12: RangeError: ${message}`, { cause: thrown(caught as Error) }));
    expect(lines[1]).toBe('sim: the app asked for an array of a length JavaScript does not take (negative, not whole, or past its largest: 2^32 - 1 elements for an Array), whatever the memory: expected a length it takes');
  });

  it('without it for any other failure', () => {
    expect(report(new AppError('node 1 at cycle 5: Error: index out of range', { cause: thrown(new Error('index out of range')) }))).toEqual(['sim: run failed: node 1 at cycle 5: Error: index out of range']);
  });
});
