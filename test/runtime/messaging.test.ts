import { describe, expect, it } from 'vitest';
import { RunFailure } from '../../src/kernel/errors.ts';
import { DeadlockError } from '../../src/kernel/errors.ts';
import type { Handler, Op, Runtime } from '../../src/runtime/index.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { runInline } from '../support/inline-app.ts';

const cm5 = loadTestPlatform('cm5').messaging;
const noop: Handler = () => {};

describe('active-message costs on the CM-5 (Appendix A Table 1)', () => {
  it('SendLeftPollBoth costs 43 cycles and PollBothTilEmpty 22 when nothing arrives', () => {
    const { results } = runInline('cm5', 2, function* (rt) {
      if (rt.self !== 0) return [0, 0];
      let start = rt.cycleCount();
      yield* rt.sendLeftPollBoth(1, noop, 1, 2, 3, 4);
      const send = rt.elapsedCycles(start);
      start = rt.cycleCount();
      yield* rt.pollBothTilEmpty();
      return [send, rt.elapsedCycles(start)];
    });
    expect(results[0]).toEqual([43, 22]);
  });

  it('charges the receive overhead per message handled, plus what the handler charges', () => {
    const handler: Handler = (rt) => rt.compute(7);
    const { results } = runInline('cm5', 2, function* (rt) {
      if (rt.self === 1) {
        for (let i = 0; i < 5; i++) yield* rt.sendLeftPollBoth(0, handler);
        return 0;
      }
      rt.compute(10_000); // let all five arrive
      const start = rt.cycleCount();
      const handled = yield* rt.pollBothTilEmpty();
      expect(handled).toBe(5);
      return rt.elapsedCycles(start);
    });
    // Five receives; the final round finds both networks empty.
    expect(results[0]).toBe(5 * (cm5.receiveOverheadCycles + 7) + 2 * cm5.pollEmptyCycles + 5 * cm5.pollEmptyCycles);
  });

  /** Node 1 sends node 0 three messages on the left network and two on the right; what node 0's `receive` returns once all five have arrived. */
  function threeLeftTwoRight(receive: (rt: Runtime) => Op<number[]>): number[] {
    const { results } = runInline('cm5', 2, function* (rt) {
      if (rt.self === 1) {
        for (let i = 0; i < 3; i++) yield* rt.sendLeftPollBoth(0, noop);
        for (let i = 0; i < 2; i++) yield* rt.sendBothRLPollRight(0, noop);
        return [];
      }
      rt.compute(10_000); // let all five arrive
      return yield* receive(rt);
    });
    return results[0];
  }

  it('counts every message the poll-then-both variants and PollBothTilEmpty handle, the first poll\'s included', () => {
    const counts = threeLeftTwoRight(function* (rt) {
      const first = yield* rt.pollLeftThenBothTilEmpty();
      const nothing = yield* rt.pollRightThenBothTilEmpty();
      // PollBothTilEmpty with nothing pending handles none: 0, a number like any count.
      const none = yield* rt.pollBothTilEmpty();
      return [first, nothing, none];
    });
    expect(counts).toEqual([5, 0, 0]);
  });

  it('counts the messages of each PollBoth round: one per network that had one', () => {
    const counts = threeLeftTwoRight(function* (rt) {
      const rounds: number[] = [];
      for (let i = 0; i < 4; i++) rounds.push(yield* rt.pollBoth());
      return rounds;
    });
    expect(counts).toEqual([2, 2, 1, 0]);
  });

  it('counts messages whose handlers are generators as any other, the right network\'s alone too', () => {
    function* slow(rt: Runtime): Op {
      rt.compute(5);
    }
    const { results } = runInline('cm5', 2, function* (rt) {
      if (rt.self === 1) {
        for (let i = 0; i < 2; i++) yield* rt.sendBothRLPollRight(0, slow);
        yield* rt.barrier();
        for (let i = 0; i < 3; i++) yield* rt.sendLeftPollBoth(0, slow);
        return [];
      }
      rt.compute(10_000); // let both arrive, on the right
      const right = yield* rt.pollBothTilEmpty();
      yield* rt.barrier();
      rt.compute(10_000); // three on the left
      return [right, yield* rt.pollBothTilEmpty()];
    });
    expect(results[0]).toEqual([2, 3]);
  });

  it('delivers each send variant on its network and polls as Appendix A 6.1 says', () => {
    const arrivals: string[] = [];
    const { results } = runInline('alewife', 2, function* (rt) {
      if (rt.self === 1) {
        const start = rt.cycleCount();
        yield* rt.sendLeftPollBoth(0, noop);
        yield* rt.sendBothRLPollBoth(0, noop);
        yield* rt.sendBothLRPollBoth(0, noop);
        yield* rt.sendBothRLPollRight(0, noop);
        yield* rt.sendBothLRPollRight(0, noop);
        return rt.elapsedCycles(start);
      }
      rt.compute(5_000);
      for (;;) {
        const left = yield* rt.pollLeft();
        const right = yield* rt.pollRight();
        if (left) arrivals.push('left');
        if (right) arrivals.push('right');
        if (!left && !right) break;
      }
      return 0;
    });
    expect(arrivals.sort()).toEqual(['left', 'left', 'left', 'right', 'right']);
    const m = loadTestPlatform('alewife').messaging;
    // Four variants poll once after a successful send; SendBothLRPollRight does not.
    expect(results[1]).toBe(5 * m.sendOverheadCycles + 4 * m.pollEmptyCycles);
  });

  it('lets generator handlers reply, and runs replies atomically at the receiver', () => {
    function* ping(rt: Runtime<{ pongs: number }>, value: number): Op {
      yield* rt.sendBothRLPollRight(0, pong, value * 2);
    }
    const pong: Handler<{ pongs: number }> = (rt, doubled) => {
      rt.globals.pongs += doubled;
    };
    const { results } = runInline(
      'paragon',
      4,
      function* (rt) {
        if (rt.self === 0) {
          for (let n = 1; n < 4; n++) yield* rt.sendLeftPollBoth(n, ping, n);
          yield* rt.pollBothUntil(() => rt.globals.pongs === 2 * (1 + 2 + 3));
        }
        return rt.globals.pongs;
      },
      { globals: () => ({ pongs: 0 }) },
    );
    expect(results[0]).toBe(12);
  });
});

describe('message checks', () => {
  it('refuses more argument words than the platform carries (4 on the CM-5)', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 0) yield* rt.sendLeftPollBoth(1, noop, 1, 2, 3, 4, 5);
      }),
    ).toThrow(/5 argument words, but this platform's active messages carry at most 4/);
  });

  it('refuses arguments that are not 32-bit words and destinations that are not nodes', () => {
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 0) yield* rt.sendLeftPollBoth(1, noop, 0.5);
      }),
    ).toThrow(/argument 0\.5 is not a 32-bit word/);
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 0) yield* rt.sendLeftPollBoth(2, noop);
      }),
    ).toThrow(/message to node 2: expected a node number from 0 to 1/);
  });

  // They said "a handler word can only name a function" and "12345 is not a handler word".
  it('names what handlerWord and handlerOf were given and what they take', () => {
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        rt.handlerWord(5 as unknown as null);
      }),
    ).toThrow(/^handlerWord\(5\): expected a handler function, or null for none$/);
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        rt.handlerOf(rt.handlerWord(noop) + 12345);
      }),
    ).toThrow(/^handler word 12346: expected a word rt\.handlerWord gave \(0 to \d+\)$/);
  });

  // It failed at the first poll as "TypeError: this.condition is not a function".
  it('refuses a pollBothUntil condition that is not a function', () => {
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        yield* rt.pollBothUntil(true as unknown as () => boolean);
      }),
    ).toThrow(/^node 0: pollBothUntil\(boolean\): expected a function that returns true when the wait is over$/);
  });

  // A JavaScript app's "1" (a number read from text) was shown as 1: "message to node 1:
  // expected a node number from 0 to 1", and "argument 7 is not a 32-bit word".
  it('names a string where a number belongs as a string', () => {
    const asText = (x: string): number => x as unknown as number;
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 0) yield* rt.sendLeftPollBoth(asText('1'), noop);
      }),
    ).toThrow(/^node 0: message to node "1" \(a string\): expected a node number from 0 to 1$/);
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        if (rt.self === 0) yield* rt.sendLeftPollBoth(1, noop, asText('7'));
      }),
    ).toThrow(/^node 0: message to node 1: argument "7" \(a string\) is not a 32-bit word$/);
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        rt.compute(asText('5'));
      }),
    ).toThrow(/^node 0: compute\("5" \(a string\)\): expected a non-negative integer/);
  });

  it('catches an operation created without yield*, in main and in a plain handler', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 0) {
          void rt.sendLeftPollBoth(1, noop);
          yield* rt.pollBoth();
        }
      }),
    ).toThrow(/created rt\.sendLeftPollBoth\(\.\.\.\) without running it; write `yield\* rt\.sendLeftPollBoth\(\.\.\.\)`/);
    const forgetful: Handler = (rt) => {
      void rt.sendLeftPollBoth(0, noop);
    };
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, forgetful);
        else yield* rt.pollBothUntil(() => false);
      }),
    ).toThrow(/node 0: handler forgetful created rt\.sendLeftPollBoth\(\.\.\.\)/);
  });
});

describe('waiting', () => {
  /** Node 1 sends one message after `delay` cycles; node 0 waits for it by `wait`; returns node 0's finish cycle and events. */
  function waitFor(delay: number, wait: 'literal' | 'elided') {
    const flag: Handler<{ done: boolean }> = (rt) => {
      rt.globals.done = true;
    };
    const run = runInline(
      'cm5',
      2,
      function* (rt) {
        if (rt.self === 1) {
          rt.compute(delay);
          yield* rt.sendLeftPollBoth(0, flag);
          return 0;
        }
        if (wait === 'literal') {
          while (!rt.globals.done) yield* rt.pollBothTilEmpty();
        } else {
          yield* rt.pollBothUntil(() => rt.globals.done);
        }
        return rt.currentCycle64();
      },
      { globals: () => ({ done: false }) },
    );
    return { cycle: run.results[0], events: run.summary.events };
  }

  it.each([0, 1, 13, 777, 5000])('pollBothUntil finishes on the same cycle as a literal polling loop (message after %i cycles)', (delay) => {
    const literal = waitFor(delay, 'literal');
    const elided = waitFor(delay, 'elided');
    expect(elided.cycle).toBe(literal.cycle);
    if (delay === 5000) expect(elided.events).toBeLessThan(literal.events / 10);
  });

  it('reports a deadlock with every node and what it waits in', () => {
    let error: unknown;
    try {
      runInline('alewife', 4, function* (rt) {
        if (rt.self === 2) yield* rt.pollBothUntil(() => false, 'waitForGhost');
        if (rt.self === 3) yield* rt.barrier();
        if (rt.self === 1) yield* rt.pollBothUntil(() => false, 'waiting for a ghost');
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeadlockError);
    expect(error).toBeInstanceOf(RunFailure);
    const message = (error as Error).message;
    expect(message).toMatch(/^deadlock at cycle \d+: 3 node\(s\) waiting with nothing left to happen\n/);
    expect(message).toContain('  node 0: exited');
    // A label that says 'waiting' itself is shown as it is.
    expect(message).toContain('  node 1: waiting for a ghost\n');
    expect(message).toContain('  node 2: waiting in waitForGhost');
    expect(message).toContain('  node 3: waiting in completeBarrier');
  });
});

describe('timing, random numbers and states', () => {
  it('times with zero overhead and converts cycles at the platform clock', () => {
    const { results } = runInline('cm5', 1, function* (rt) {
      const start = rt.cycleCount();
      const adjacent = rt.elapsedCycles(start);
      rt.compute(1234);
      yield* rt.pollBoth();
      return [adjacent, rt.elapsedCycles(start), rt.currentCycle(), rt.cyclesToSeconds(33_000_000)];
    });
    expect(results[0]).toEqual([0, 1234 + 22, 1234 + 22, 1]);
  });

  it('gives each node the Park-Miller minimal standard sequence seeded with self + 1 (Appendix A 3.6)', () => {
    const { results } = runInline('atm', 3, function* (rt) {
      const first = [rt.random(), rt.random(), rt.random()];
      rt.setRandomSeed(1);
      let x = 0;
      for (let i = 0; i < 10_000; i++) x = rt.random();
      return { first, tenThousandth: x };
    });
    // Park & Miller (CACM 1988): from seed 1 the sequence starts 16807, 282475249, 1622650073
    // and its 10,000th value is 1043618065.
    expect(results[0].first).toEqual([16807, 282475249, 1622650073]);
    expect(results[1].first[0]).toBe(2 * 16807);
    expect(results[2].tenThousandth).toBe(1043618065);
  });

  it('setState returns the previous state and refuses states outside 0..255', () => {
    const { results } = runInline('cm5', 1, function* (rt) {
      return [rt.setState(1), rt.setState(9), rt.getState()];
    });
    expect(results[0]).toEqual([0, 1, 9]);
    expect(() =>
      runInline('cm5', 1, function* (rt) {
        rt.setState(256);
      }),
    ).toThrow(/setState\(256\): expected an integer from 0 to 255/);
    // A string was shown as the number it spelt: "setState(5): expected an integer from 0 to 255".
    expect(() =>
      runInline('cm5', 1, function* (rt) {
        rt.setState('5' as never);
      }),
    ).toThrow(/setState\("5" \(a string\)\): expected an integer from 0 to 255/);
  });
});
