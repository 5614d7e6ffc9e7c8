import { describe, expect, it } from 'vitest';
import { defineApp, runApp, runConfig, StrataFailure, TIME_BASED_SEED, type Handler, type MachineInfo } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

describe('StrataFail, assert and StrataExit (Appendix A 3.5, 9.2)', () => {
  it('StrataFail and a failed assert end the run naming the node and cycle', () => {
    expect(() =>
      runInline('cm5', 4, function* (rt) {
        rt.compute(100 * rt.self);
        if (rt.self === 2) rt.strataFail('bad pivot 7');
        yield* rt.barrier();
      }),
    ).toThrow(/^node 2 at cycle 200: StrataFail: bad pivot 7$/);
    expect(() =>
      runInline('alewife', 2, function* (rt) {
        rt.assert(rt.self === 0, 'only node 0 may pass');
        yield* rt.barrier();
      }),
    ).toThrow(StrataFailure);
  });

  // StrataFail's "arguments work like printf" (Appendix A 3.5); it took one string and
  // reported "bad pivot %d of %s".
  it('StrataFail formats its message as printf does', () => {
    expect(() =>
      runInline('atm', 3, function* (rt) {
        if (rt.self === 1) rt.strataFail('bad pivot %d of %s (%.1f%%)', 7, 'keys', 12.25);
        yield* rt.barrier();
      }),
    ).toThrow(/^node 1 at cycle 0: StrataFail: bad pivot 7 of keys \(12\.2%\)$/);
  });

  it('StrataExit(0) leaves main early and keeps serving messages; a non-zero code fails the run', () => {
    const count: Handler<{ got: number }> = (rt) => {
      rt.globals.got++;
    };
    const { results } = runInline(
      'paragon',
      2,
      function* (rt) {
        if (rt.self === 1) {
          rt.strataExit(0);
        }
        for (let i = 0; i < 3; i++) yield* rt.sendLeftPollBoth(1, count);
        return 'done';
      },
      { globals: () => ({ got: 0 }) },
    );
    expect(results).toEqual(['done', undefined]);
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) rt.strataExit(3);
        yield* rt.barrier();
      }),
    ).toThrow(/^node 1 at cycle 0: StrataExit\(3\)$/);
  });

  it('counts the messages still in the network when every node has exited: their handlers never run, and the summary says how many', () => {
    const count: Handler<{ got: number }> = (rt) => {
      rt.globals.got++;
    };
    // Node 1 sends twice and exits at once; node 0 has exited already, so the run ends with both in flight.
    const lost = runInline(
      'cm5',
      2,
      function* (rt) {
        if (rt.self === 1) for (let i = 0; i < 2; i++) yield* rt.sendLeftPollBoth(0, count);
        return rt.globals.got;
      },
      { globals: () => ({ got: 0 }) },
    );
    expect(lost.results).toEqual([0, 0]);
    expect(lost.summary.packetsSent).toBe(2);
    expect(lost.summary.unreceivedPackets).toBe(2);
    // Waiting for them (a barrier after the sends, while node 0 polls in it) leaves none, and no field.
    const kept = runInline('cm5', 2, function* (rt) {
      if (rt.self === 1) for (let i = 0; i < 2; i++) yield* rt.sendLeftPollBoth(0, count);
      yield* rt.barrier();
      yield* rt.pollBothTilEmpty();
      return rt.globals.got;
    }, { globals: () => ({ got: 0 }) });
    expect(kept.results).toEqual([2, 0]);
    expect(kept.summary).not.toHaveProperty('unreceivedPackets');
  });

  // A handler that StrataExit's loop ran was still going when the last node reached
  // StrataExit: the run ended there and passed, its handler cut off (one waiting for
  // ever on a real machine included). A handler runs to its end.
  it('waits for a handler still running when the last node reaches StrataExit; its node leaves StrataExit when it ends', () => {
    const noop: Handler = () => {};
    const reply: Handler = function* (rt) {
      rt.compute(2000);
      yield* rt.sendLeftPollBoth(1, noop);
    };
    // Node 0 has exited and serves node 1's message while node 2 computes; node 2 exits
    // at cycle 1000, in the middle of the handler, which then sends its reply.
    const run = runInline('paragon', 4, function* (rt) {
      if (rt.self === 1) yield* rt.sendLeftPollBoth(0, reply);
      if (rt.self === 2) rt.compute(1000);
    });
    expect(run.summary.packetsSent).toBe(2);
    // The reply went to node 1, which had left StrataExit: nobody handled it.
    expect(run.summary.unreceivedPackets).toBe(1);
    expect(run.summary.simulatedCycles).toBeGreaterThan(2000);
  });

  // A review found two ways a message was still handled once every node had reached
  // StrataExit, which the README says never happens: a node's exit loop, busy with a plain
  // handler's work at the last exit, went on to poll and started the next handler (cut off
  // when the run then stopped, and passed); and a lingering handler's own loop drained the
  // network after it ended (its message to itself was handled, one to a parked node not).
  it('handles no message once every node has reached StrataExit: not the next one a busy loop would poll, nor one a lingering handler sends', () => {
    const printed: string[] = [];
    const noop: Handler = (rt) => {
      rt.qprintf('noop on %d\n', rt.self);
    };
    const slow: Handler = (rt) => {
      rt.compute(1500);
    };
    const later: Handler = function* (rt) {
      rt.qprintf('later started\n');
      yield* rt.pollBoth();
    };
    // Its message to itself arrives while it computes, after its sends' own polls.
    const lingering: Handler = function* (rt) {
      rt.compute(3000);
      yield* rt.sendLeftPollBoth(0, noop);
      yield* rt.sendLeftPollBoth(rt.self, noop);
      rt.compute(2000);
    };
    const run = runInline(
      'cm5',
      4,
      function* (rt) {
        if (rt.self === 1) {
          yield* rt.sendLeftPollBoth(3, lingering);
          yield* rt.sendLeftPollBoth(0, slow);
          yield* rt.sendLeftPollBoth(0, later);
        }
        // Node 2 reaches StrataExit last, at cycle 1500: node 0 is then busy with slow's work, node 3 in lingering.
        if (rt.self === 2) rt.compute(1500);
      },
      { output: (_stream, text) => printed.push(text) },
    );
    expect(printed.join('')).toBe('');
    // later's message, and lingering's two.
    expect(run.summary.unreceivedPackets).toBe(3);
  });

  // Stopped at a limit while node 0 lingered, it read "node 0: cycle ..., running" beside three "exited".
  it('says a node lingers in a handler after StrataExit when a limit stops the run there', () => {
    const noop: Handler = () => {};
    const long: Handler = function* (rt) {
      rt.compute(10_000);
      yield* rt.sendLeftPollBoth(1, noop);
    };
    const app = defineApp({
      name: 'linger',
      description: 'node 0 serves a long handler after main',
      params: {},
      *main(rt) {
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, long);
        if (rt.self === 2) rt.compute(1000);
      },
      verify: () => ({ ok: true, detail: 'ran' }),
    });
    expect(() => runApp(runConfig(loadTestPlatform('paragon'), app, { nodes: 4, limits: { maxCycles: 5000 } }))).toThrow(
      /\n  node 0: cycle \d+, (running|waiting in \w+) \(in a handler after StrataExit, which every node had reached\)\n  node 1: cycle \d+, exited\n/,
    );
  });

  it('refuses StrataExit(0) in a handler a node runs after returning from main, in words', () => {
    const exits: Handler = (rt) => rt.strataExit(0);
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) {
          rt.compute(500);
          yield* rt.sendLeftPollBoth(0, exits);
          rt.compute(500);
        }
      }),
    ).toThrow(/^node 0 at cycle \d+: StrataExit\(0\) in a handler run after this node had returned from main \(it is in StrataExit already\); expected it in main, or in a handler main's polls run$/);
  });

  it('reports a handler that never ends after every node reached StrataExit as a deadlock naming it', () => {
    const forever: Handler<{ never: boolean }> = function* (rt) {
      yield* rt.pollBothUntil(() => rt.globals.never);
    };
    const stuck = () =>
      runInline('paragon', 4, function* (rt) {
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, forever);
        if (rt.self === 2) rt.compute(1000);
      }, { globals: () => ({ never: false }) });
    expect(stuck).toThrow(/^deadlock at cycle \d+: 1 node\(s\) waiting with nothing left to happen\n  node 0: waiting in pollBothUntil \(in a handler after StrataExit, which every node had reached\)\n  nodes 1-3: exited$/);
  });
});

describe('computeOps', () => {
  it('charges the CPU table and refuses counts that are negative, not finite or misnamed', () => {
    const cpu = loadTestPlatform('cm5').cpu;
    const { results } = runInline('cm5', 1, function* (rt) {
      const start = rt.cycleCount();
      rt.computeOps({ intOps: 10, loads: 2.5 });
      return rt.elapsedCycles(start);
    });
    expect(results[0]).toBe(Math.round(10 * cpu.intOpCycles + 2.5 * cpu.loadCycles));
    // A negative count moved time backwards (busy -998,985 cycles), NaN made the clock NaN, a misspelt name cost nothing: all exit 0.
    for (const [ops, message] of [
      [{ intOps: -1000000 }, /^node 0: cost\/computeOps: intOps -1000000: expected a finite count of 0 or more$/],
      [{ loads: NaN }, /loads NaN: expected a finite count/],
      [{ intOps: Infinity }, /intOps Infinity: expected a finite count/],
      [{ bogus: 5 }, /^node 0: cost\/computeOps: no operation "bogus" \(expected intOps, floatAdds, .*calls\)$/],
      [{ intOps: 1e300 }, /^node 0: computeOps: the counts cost 1e\+300 cycles; expected at most 2\^53 - 1$/],
    ] as const) {
      expect(() =>
        runInline('cm5', 1, function* (rt) {
          rt.computeOps(ops as never);
          yield* rt.barrier();
        }),
      ).toThrow(message);
    }
  });
});

describe('compute', () => {
  it('refuses Infinity and counts past 2^53 on the CM-5, whose interrupts then looped past any cycle limit', () => {
    for (const cycles of [Infinity, 1e300, 2 ** 53]) {
      expect(() =>
        runInline('cm5', 1, function* (rt) {
          rt.compute(cycles);
          yield* rt.barrier();
        }),
      ).toThrow(new RegExp(`^node 0: compute\\(${String(cycles).replace('+', '\\+')}\\): expected a non-negative integer number of cycles, at most 2\\^53 - 1$`));
    }
  });
});

describe('ClearMemory, ResetCurrentCycle, TIME_BASED_SEED', () => {
  it('ClearMemory zeroes whole words and costs start + length x per-byte cycles (Fig. 6-6)', () => {
    const cpu = loadTestPlatform('cm5').cpu;
    const { results } = runInline('cm5', 1, function* (rt) {
      const region = new Uint32Array(10).fill(7);
      const start = rt.cycleCount();
      rt.clearMemory(region, 18); // 4.5 words: five are zeroed
      return { region: Array.from(region), cycles: rt.elapsedCycles(start) };
    });
    expect(results[0].region).toEqual([0, 0, 0, 0, 0, 7, 7, 7, 7, 7]);
    expect(results[0].cycles).toBe(Math.round(cpu.clearMemoryStartCycles + 18 * cpu.clearMemoryCyclesPerByte));
    expect(() =>
      runInline('cm5', 1, function* (rt) {
        rt.clearMemory(new Uint32Array(2), 12);
      }),
    ).toThrow(/clearMemory\(12 bytes\): expected 0 to 8 bytes/);
  });

  it('ResetCurrentCycle restarts currentCycle on every node at a barrier', () => {
    const { results } = runInline('alewife', 4, function* (rt) {
      rt.compute(1000 + 10 * rt.self);
      yield* rt.resetCurrentCycle();
      const after = rt.currentCycle();
      return [after, rt.currentCycle64() > 1000];
    });
    for (const [after, long] of results) {
      expect(after).toBe(0);
      expect(long).toBe(true);
    }
  });

  it('TIME_BASED_SEED gives nodes different seeds, the same for the same run seed', () => {
    const seeds = (runSeed: number) =>
      runInline('cm5', 4, function* (rt) {
        return rt.setRandomSeed(TIME_BASED_SEED);
      }, { seed: runSeed }).results;
    expect(seeds(1)).toEqual(seeds(1));
    expect(new Set(seeds(1)).size).toBe(4);
    expect(seeds(1)).not.toEqual(seeds(2));
  });

  it('refuses to clear what is not an array of words', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        rt.clearMemory(null as unknown as number[], 4);
      }),
    ).toThrow('node 0: clearMemory(null, ...): expected an array of words to clear');
  });

  // hopsTo(99) on 4 nodes gave 8, a distance to a node the machine does not have; so did machine.hops.
  it('refuses a hop count to a node the machine does not have', () => {
    expect(() =>
      runInline('cm5', 4, function* (rt) {
        return rt.hopsTo(99);
      }),
    ).toThrow('node 0: hopsTo(99): expected a node number from 0 to 3');
    const { results } = runInline('cm5', 4, function* (rt) {
      return rt.hopsTo(3);
    });
    expect(results[0]).toBeGreaterThan(0);
    let hops: MachineInfo['hops'] = () => 0;
    const far = defineApp({
      name: 'far',
      description: 'keeps the machine it is verified on',
      params: {},
      *main() {},
      verify: ({ machine }) => {
        hops = machine.hops;
        return { ok: true, detail: 'kept' };
      },
    });
    runApp(runConfig(loadTestPlatform('cm5'), far, { nodes: 4 }));
    expect(() => hops(0, -1)).toThrow('machine.hops(0, -1): expected node numbers from 0 to 3');
    expect(hops(0, 3)).toBe(results[0]);
  });

  // NaN became the seed, and every rt.random() after it was NaN, with the run verified.
  it('refuses a seed that is not a finite number', () => {
    for (const [seed, shown] of [[Number.NaN, 'NaN'], [Infinity, 'Infinity'], ['7', '"7" (a string)']] as const) {
      expect(() =>
        runInline('cm5', 2, function* (rt) {
          rt.setRandomSeed(seed as number);
          return rt.random();
        }),
      ).toThrow(`node 0: setRandomSeed(${shown}): expected an integer seed, or TIME_BASED_SEED`);
    }
    const { results } = runInline('cm5', 2, function* (rt) {
      rt.setRandomSeed(-7);
      return rt.random();
    });
    expect(results[0]).toBeGreaterThan(0);
  });
});
