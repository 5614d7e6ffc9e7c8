import { describe, expect, it } from 'vitest';
import type { Handler, Runtime } from '../../src/runtime/index.ts';
import type { LogEntry, OutputStream } from '../../src/runtime/printing.ts';
import { runInline } from '../support/inline-app.ts';

type Flag = { done: boolean };
const flag = (): Flag => ({ done: false });

describe('Qprintf (Appendix A 9.1)', () => {
  it('formats like C printf, queues from main and handlers, and reaches the run output on flush', () => {
    const printed: string[] = [];
    const note: Handler<Flag> = (rt, from) => {
      rt.qprintf('handler on %d got a message from %d\n', rt.self, from);
      rt.globals.done = true;
    };
    const { results } = runInline(
      'paragon',
      2,
      function* (rt) {
        if (rt.self === 0) {
          const length = rt.qprintf('%s %05.1f|%-4d|%x\n', 'zero', 3.14159, 42, 255);
          yield* rt.sendBothLRPollBoth(1, note, 0);
          return length;
        }
        yield* rt.pollBothUntil(() => rt.globals.done);
        rt.qfprintf('stderr', 'one on stderr\n');
        return yield* rt.emptyPrintQ();
      },
      { globals: flag, output: (stream: OutputStream, text: string) => printed.push(`${stream}: ${text}`) },
    );
    expect(results).toEqual(['zero 003.1|42  |ff\n'.length, 2]);
    expect(printed).toEqual(
      expect.arrayContaining(['stdout: zero 003.1|42  |ff\n', 'stdout: handler on 1 got a message from 0\n', 'stderr: one on stderr\n']),
    );
    expect(printed).toHaveLength(3);
  });

  // qprintf(123) printed nothing and the run verified; qprintf(undefined) failed inside the
  // formatter, "TypeError: Cannot read properties of undefined (reading 'length')".
  it('refuses a format that is not a string, naming the call', () => {
    const asFormat = (x: unknown): string => x as string;
    const cases: [(rt: Runtime) => void, string][] = [
      [(rt) => rt.qprintf(asFormat(123)), "node 0: qprintf format 123: expected a string (C printf's format)"],
      [(rt) => rt.qfprintf('stderr', asFormat(undefined), 1), 'node 0: qprintf format undefined: expected a string'],
      [(rt) => rt.strataLog(asFormat(null)), 'node 0: strataLog format null: expected a string'],
    ];
    for (const [print, message] of cases) {
      expect(() =>
        runInline('cm5', 2, function* (rt) {
          print(rt);
        }),
      ).toThrow(message);
    }
  });

  it("keeps a handler's output queued while the handler polls, then prints it in order", () => {
    const printed: string[] = [];
    const chatty: Handler<Flag> = function* (rt) {
      rt.qprintf('a');
      yield* rt.pollBothTilEmpty(); // non-atomic, but inside a handler: no flush here
      printed.push('|');
      rt.qprintf('b');
      rt.globals.done = true;
    };
    runInline(
      'alewife',
      2,
      function* (rt) {
        if (rt.self === 0) yield* rt.sendBothLRPollBoth(1, chatty);
        else yield* rt.pollBothUntil(() => rt.globals.done);
      },
      { globals: flag, output: (_s: OutputStream, text: string) => printed.push(text) },
    );
    expect(printed.join('')).toBe('|ab');
  });
});

describe("Qprintf's formats are C printf's (Appendix A 9.1)", () => {
  // Each expected line is what gcc's printf wrote for the same format and C-typed arguments.
  // The formatter before wrote %ld, %lu, %lx, %X, %+d and % d as they stood, %c 65 as "65",
  // %.3s uncut, %f of 1.5 as "1.5", %e as "1.2345678e+4", rounded %.0f of 2.5 up, and %g and
  // %hd stopped the run with "Error: Unknown format specifier.".
  const cases: [string, unknown[], string][] = [
    ['[%ld|%lu|%lx]', [7, 8, 0xffffffff], '[7|8|ffffffff]'],
    ['[%c|%.3s|%5s|%-5s|]', [65, 'abcdef', 'ab', 'ab'], '[A|abc|   ab|ab   |]'],
    ['[%d|%u|%x|%X|%#x|%o|%#o]', [0xffffffff, -1, 255, 255, 255, 8, 8], '[-1|4294967295|ff|FF|0xff|10|010]'],
    ['[%+d|% d|%05d|%-5d|%.5d|%+05d|%.0d|%*d|%-*d]', [5, 5, -42, 42, -42, 42, 0, 5, 3, 4, 7], '[+5| 5|-0042|42   |-00042|+0042||    3|7   ]'],
    ['[%hd|%hhu|%lld|%llu]', [70000, 257, 2 ** 40, -1], '[4464|1|1099511627776|18446744073709551615]'],
    ['[%f|%.2f|%.0f|%.0f|%#.0f|%8.3f|%05.1f|%+.1f]', [1.5, 3.14159, 2.5, 3.5, 3, -2.5, 3.14159, 0.25], '[1.500000|3.14|2|4|3.|  -2.500|003.1|+0.2]'],
    ['[%e|%E|%.3e|%.0e]', [12345.678, 1.5e-300, 0, 9.96], '[1.234568e+04|1.500000E-300|0.000e+00|1e+01]'],
    ['[%g|%g|%g|%g|%g|%G|%.3g|%.10g|%#g]', [0.5, 0.0001, 1e-5, 1e10, 100000, 1e-10, 3.14159, 1 / 3, 1], '[0.5|0.0001|1e-05|1e+10|100000|1E-10|3.14|0.3333333333|1.00000]'],
    ['[%f|%F|%f|%g]', [Infinity, -Infinity, NaN, 1e22], '[inf|-INF|nan|1e+22]'],
    ['[100%%|%5.1f%%|%d|%y]', [99.44], '[100%| 99.4%|%d|%y]'],
    // Flags and corners that changing one rule of the formatter left unnoticed (a mutation
    // audit). A %c of a string takes its first character, a %d of NaN is 0, and a BigInt is
    // exact: gcc printed the same for 'x', 0 and 9007199254740993LL.
    ['[%*d|%.f|%c|%c|%+x|% x|%#o|%#x|%05.3d|%-+5d]', [-4, 3, 2.7, 321, 'xyz', 255, 255, 0, 0, 7, 7], '[3   |3|A|x|ff|ff|0|0|  007|+7   ]'],
    ['[%f|% f|%05f|%-6f|%.0g|%g|%e|%#.0e|%.20e]', [-0, 1, Infinity, -Infinity, 123, 1234567, 5e-324, 3, 1e23], '[-0.000000| 1.000000|  inf|-inf  |1e+02|1.23457e+06|4.940656e-324|3.e+00|9.99999999999999916114e+22]'],
    ['[%jd|%lld|%d|%05s]', [-1099511627776, 9007199254740993n, NaN, 'ab'], '[-1099511627776|9007199254740993|0|   ab]'],
  ];

  it('formats each conversion, flag, width, precision and length as gcc does', () => {
    const printed: string[] = [];
    const logged: string[] = [];
    const { results } = runInline(
      'cm5',
      1,
      function* (rt) {
        const lengths = cases.map(([format, args]) => rt.qprintf(format, ...args));
        rt.strataLog('%g', 0.5);
        yield* rt.emptyPrintQ();
        return lengths;
      },
      { output: (_s: OutputStream, text: string) => printed.push(text), log: (e: LogEntry) => logged.push(e.text) },
    );
    expect(printed).toEqual(cases.map(([, , text]) => text));
    expect(logged).toContain('0.5');
    expect(results[0]).toEqual(cases.map(([, , text]) => text.length));
  });

  it('refuses a width or precision past 10000 with one line (a billion digits would be built)', () => {
    expect(() =>
      runInline('atm', 2, function* (rt) {
        rt.qprintf('%.999999999f', 1);
      }),
    ).toThrow(/^node 0: qprintf: "%.999999999f" asks for 999999999 characters; expected a width and precision of at most 10000$/);
    expect(() =>
      runInline('atm', 2, function* (rt) {
        rt.qprintf('%10001d', 1);
      }),
    ).toThrow(/"%10001d" asks for 10001 characters/);
    const { results } = runInline(
      'atm',
      1,
      function* (rt) {
        return rt.qprintf('%10000.10000d', 1);
      },
      { output: () => {} },
    );
    expect(results).toEqual([10000]);
  });
});

describe('Qprintf on a node that has returned from main (StrataExit, Appendix A 3.5)', () => {
  // A handler run while its node waited in StrataExit queued its text, and nothing
  // flushed that queue again: the text was lost, though the log showed the qprintf.
  it.each(['cm5', 'atm'] as const)("prints what handlers queued there when the run ends, on %s", (platform) => {
    const printed: string[] = [];
    const late: Handler = (rt, from) => {
      rt.qprintf('node %d heard from %d after returning\n', rt.self, from);
    };
    runInline(
      platform,
      4,
      function* (rt) {
        if (rt.self !== 0) return;
        rt.compute(5000);
        yield* rt.sendLeftPollBoth(1, late, 0);
        yield* rt.sendLeftPollBoth(2, late, 0);
        rt.compute(5000);
      },
      { output: (stream: OutputStream, text: string) => printed.push(`${stream}: ${text}`) },
    );
    expect(printed).toEqual(['stdout: node 1 heard from 0 after returning\n', 'stdout: node 2 heard from 0 after returning\n']);
  });
});

describe('Qprintf before a StrataFail (Appendix A 3.5: StrataExit cleans up)', () => {
  // The text a node queued just before its failed check was lost with the run.
  it.each([
    ['strataFail', (rt: Runtime) => rt.strataFail('bad value %d', 42), /StrataFail: bad value 42$/],
    ['assert', (rt: Runtime) => rt.assert(false, 'value 100% wrong'), /StrataFail: value 100% wrong$/],
    ['strataExit(3)', (rt: Runtime) => rt.strataExit(3), /StrataExit\(3\)$/],
  ] as const)('%s writes what the failing node had queued', (_name, fail, message) => {
    const printed: string[] = [];
    expect(() =>
      runInline(
        'paragon',
        2,
        function* (rt) {
          yield* rt.barrier();
          rt.qprintf('node %d checks\n', rt.self);
          if (rt.self === 1) fail(rt);
          yield* rt.barrier();
        },
        { output: (_s: OutputStream, text: string) => printed.push(text) },
      ),
    ).toThrow(message);
    expect(printed).toContain('node 1 checks\n');
  });
});

describe('StrataLog and the loglast report (Appendix A 9.3)', () => {
  it('logs entries with node and cycle, and global operations when the run logs them', () => {
    const entries: LogEntry[] = [];
    const { summary } = runInline(
      'cm5',
      4,
      function* (rt) {
        rt.strataLog('value %d', rt.self * 10);
        yield* rt.barrier();
      },
      { log: (e: LogEntry) => entries.push(e) },
    );
    expect(entries.filter((e) => e.text.startsWith('value')).map((e) => [e.node, e.text])).toEqual([
      [0, 'value 0'],
      [1, 'value 10'],
      [2, 'value 20'],
      [3, 'value 30'],
    ]);
    expect(entries.filter((e) => e.node === 0 && !e.text.startsWith('value')).map((e) => e.text)).toEqual(['startBarrier', 'completeBarrier: waiting', 'completeBarrier: done']);
    expect(entries.filter((e) => e.text === 'completeBarrier: done')).toHaveLength(4);
    expect(summary.lastLog).toHaveLength(4);
    for (const line of summary.lastLog) expect(line).toMatch(/^cycle \d+ node \d: completeBarrier: done$/);
  });

  it('observing global operations does not change the run', () => {
    const program = function* (rt: Parameters<Parameters<typeof runInline>[2]>[0]) {
      rt.strataLog('start');
      yield* rt.barrier();
      return yield* rt.combineInt(rt.self, 10);
    };
    const quiet = runInline('atm', 4, program);
    const logged = runInline('atm', 4, program, { log: () => {} });
    expect(logged.summary.fingerprint).toBe(quiet.summary.fingerprint);
    expect(logged.summary.simulatedCycles).toBe(quiet.summary.simulatedCycles);
    // Unobserved, the global operations are not logged: the last entries are the app's own.
    expect(quiet.summary.lastLog).toEqual([0, 1, 2, 3].map((n) => `cycle 0 node ${n}: start`));
    expect(logged.summary.lastLog.every((line) => line.endsWith(': completeCombineInt: done'))).toBe(true);
  });

  it('keeps an entry with newlines and backslashes on one line, its backslashes and newlines escaped', () => {
    const { summary } = runInline('cm5', 1, function* (rt) {
      rt.strataLog('a\\b\nc %s', 'd\ne');
    });
    expect(summary.lastLog).toEqual(['cycle 0 node 0: a\\\\b\\nc d\\ne']);
  });

  it("a failed run carries every node's last entry", () => {
    let failure: unknown;
    try {
      runInline(
        'atm',
        3,
        function* (rt) {
          if (rt.self === 2) rt.strataLog('about to skip the barrier');
          else yield* rt.barrier();
        },
        { log: () => {} },
      );
    } catch (e) {
      failure = e;
    }
    expect((failure as { lastLogEntries: string[] }).lastLogEntries).toEqual([
      expect.stringMatching(/^cycle \d+ node 0: completeBarrier: waiting$/),
      expect.stringMatching(/^cycle \d+ node 1: completeBarrier: waiting$/),
      expect.stringMatching(/^cycle 0 node 2: about to skip the barrier$/),
    ]);
  });
});
