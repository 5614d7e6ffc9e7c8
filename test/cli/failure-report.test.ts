/**
 * How a failed run is told (src/cli/failure-report.ts): an app that asked the host for
 * more memory than it has gets, after its failure line, the advice to make the input
 * smaller or give Node more; any other failure does not.
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
    const lines = report(new AppError('node 3 at cycle 12: RangeError: Invalid array length', { cause: thrown(new RangeError('Invalid array length')) }));
    expect(lines).toEqual([
      'sim: run failed: node 3 at cycle 12: RangeError: Invalid array length',
      'sim: the host could not allocate the memory this run asks for: make the input smaller, or give Node more with NODE_OPTIONS=--max-old-space-size=<MB>',
    ]);
  });

  it('without it for any other failure', () => {
    expect(report(new AppError('node 1 at cycle 5: Error: index out of range', { cause: thrown(new Error('index out of range')) }))).toEqual(['sim: run failed: node 1 at cycle 5: Error: index out of range']);
  });
});
