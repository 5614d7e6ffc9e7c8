/**
 * The simulator's error types (src/kernel/errors.ts), each raised the way a user
 * meets it, by a tiny real run: what class it is, what it says, and that every one
 * is a SimError (so the CLI can tell deliberate errors from bugs).
 */
import { describe, expect, it } from 'vitest';
import { AppError, DeadlockError, InputError, RunFailure, SimError, StrataFailure } from '../../src/kernel/errors.ts';
import { Machine } from '../../src/machine/machine.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** What `run` threw (fails the test if it threw nothing). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

describe('error types', () => {
  it('InputError: a machine size the topology cannot take, named in one line', () => {
    const e = thrown(() => new Machine(loadTestPlatform('cm5'), { nodes: 12, seed: 1, network: 'packet' }));
    expect(e).toBeInstanceOf(InputError);
    expect(e).toBeInstanceOf(SimError);
    expect(e).not.toBeInstanceOf(RunFailure);
    expect((e as Error).message).not.toContain('\n');
    expect((e as Error).message).toMatch(/12/);
  });

  it("AppError: an exception in the app's main, with the node and cycle where it happened", () => {
    const e = thrown(() =>
      runInline('alewife', 4, function* (rt) {
        rt.compute(100);
        if (rt.self === 2) throw new TypeError('no such grid');
        yield* rt.barrier();
      }),
    );
    expect(e).toBeInstanceOf(AppError);
    expect(e).toBeInstanceOf(RunFailure);
    expect((e as Error).message).toBe('node 2 at cycle 100: TypeError: no such grid');
    expect((e as AppError).cause).toBeInstanceOf(TypeError);
  });

  it("StrataFailure: StrataFail and a failed assert, with each node's last log entry", () => {
    const e = thrown(() =>
      runInline('cm5', 2, function* (rt) {
        rt.strataLog('starting on %d', rt.self);
        yield* rt.barrier();
        rt.assert(rt.self !== 1, 'node 1 must not get here');
      }),
    );
    expect(e).toBeInstanceOf(StrataFailure);
    expect((e as Error).message).toMatch(/^node 1 at cycle \d+: StrataFail: node 1 must not get here$/);
    expect((e as StrataFailure).lastLogEntries).toEqual(['cycle 0 node 0: starting on 0', 'cycle 0 node 1: starting on 1']);
  });

  it('DeadlockError: every waiting node grouped by the call it waits in', () => {
    const e = thrown(() =>
      runInline('paragon', 6, function* (rt) {
        if (rt.self === 5) return;
        if (rt.self < 4) yield* rt.barrier();
        else yield* rt.pollBothUntil(() => false, 'a message that never comes');
      }),
    );
    expect(e).toBeInstanceOf(DeadlockError);
    const d = e as DeadlockError;
    expect(d.nodeStates[5]).toBe('exited');
    expect(d.message).toContain('5 node(s) waiting with nothing left to happen');
    expect(d.message).toContain('  node 4: waiting in a message that never comes');
    expect(d.message).toMatch(/ {2}nodes 0-3: waiting in /);
  });
});
