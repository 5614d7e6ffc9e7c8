/**
 * The package's public entry (src/api/index.ts), used as a program would use it: each
 * exported helper refuses what is not its input with one InputError line naming the
 * function and what it expected (null gave TypeErrors from deep inside, lists of
 * unequal length NaN), and opCycles refuses the counts computeOps refuses; and
 * select, exported without the module and context it takes, gets them from loadSelection,
 * and refuses a pinned tunable the module does not have or a value that is no count (the
 * module it gives cannot be changed under later selections);
 * a summary's params are its own (changing them changed the configuration they came from),
 * and the exported tables (State, CombineOp, DEFAULT_RUN_LIMITS, ...) cannot be changed;
 * a run made in steps (AppRun) refuses a summary before it has ended and a count of
 * events that is not one, and once failed throws its failure again; loadTrace refuses a path that is not a string (a number was
 * read as a file descriptor, 0 as stdin).
 */
import { describe, expect, it } from 'vitest';
import {
  advanceToEnd,
  AppRun,
  checkApp,
  chooseImplementation,
  CombineOp,
  CompositeOp,
  DEFAULT_RUN_LIMITS,
  defineApp,
  fitModel,
  fitSamples,
  formula,
  InputError,
  loadPlatform,
  loadSelection,
  loadRun,
  loadTrace,
  mrePercent,
  opCycles,
  predict,
  projectPath,
  readTrace,
  renderCongestionSvg,
  renderHtml,
  renderSvg,
  runApp,
  RunFailure,
  SegmentType,
  select,
  shippedApp,
  State,
  stopPoint,
  toPerfetto,
  type Trace,
} from '../../src/api/index.ts';
import { traceHeader } from '../../src/trace/format.ts';
import { MemoryTraceOutput, TraceWriter } from '../../src/trace/writer.ts';
import { runInline } from '../support/inline-app.ts';

/** The error `call` throws (or its promise rejects with). */
async function errorOf(call: () => unknown): Promise<unknown> {
  return Promise.resolve().then(call).then(() => 'no error', (e: unknown) => e);
}

async function refused(call: () => unknown, message: RegExp): Promise<void> {
  const error = await errorOf(call);
  expect(error).toBeInstanceOf(InputError);
  expect((error as Error).message).toMatch(message);
}

/** A real trace's bytes: the cshift app on 4 CM-5 nodes, written in memory. */
async function cshiftTraceBytes(): Promise<Uint8Array> {
  const config = await loadRun({ platform: 'cm5', app: shippedApp('cshift'), nodes: 4 });
  const output = new MemoryTraceOutput();
  const writer = new TraceWriter(traceHeader({ simulatorVersion: 'test', platform: config.platform, nodes: 4, network: 'packet', app: config.app, params: config.params, seed: 1, networkCounters: true, messages: false }), output);
  const summary = runApp({ ...config, trace: writer });
  writer.finish(summary.fingerprint, summary.simulatedCycles);
  return output.bytes();
}

/** That trace read back. */
async function cshiftTrace(): Promise<Trace> {
  return readTrace(await cshiftTraceBytes(), 'cshift.trace');
}

describe('the public entry refuses what is not its input', () => {
  it('with an InputError for null where a trace, model, path, list or configuration belongs (each was a TypeError)', async () => {
    const trace = await cshiftTrace();
    // The real trace draws and exports; null and a graph kind it does not know are refused.
    expect(renderSvg(trace)).toMatch(/^<svg/);
    expect(toPerfetto(trace).traceEvents.length).toBeGreaterThan(4);
    await refused(() => renderSvg(null as never), /^renderSvg: expected a trace \(readTrace or loadTrace gives one\), got null$/);
    await refused(() => renderSvg(trace, null as never), /^graph options: expected \{ width\? \}, got null$/);
    await refused(() => renderCongestionSvg(undefined as never), /^renderCongestionSvg: expected a trace .*, got undefined$/);
    await refused(() => renderHtml(null as never, 'states'), /^renderHtml: expected a trace .*, got null$/);
    await refused(() => renderHtml(trace, 'pie' as never), /^renderHtml: graph kind pie: expected states or congestion$/);
    await refused(() => toPerfetto({} as never), /^toPerfetto: expected a trace .*, got object$/);
    await refused(() => projectPath(null as never), /^projectPath: expected a path inside the project as a string \(e\.g\. apps\/stencil\), got null$/);
    await refused(() => formula(null as never), /^formula: expected a fitted model \{ terms, coefficients, relevant \} \(fitSamples gives them\), got null$/);
    await refused(() => fitModel(null as never, [{ y: 1, x: [] }], false), /^fitModel: expected the term names as a list of strings, got null$/);
    await refused(() => loadRun(null as never), /^loadRun: expected a run setup \{ platform, app, \.\.\.options \}, got null$/);
    // The platform's kind is checked before the app is loaded: platform 5 was told the app's problem ("app x: no such file or folder").
    await refused(() => loadRun({ platform: 5 as never, app: 'x' }), /^loadRun: platform: expected a platform name, a path to a platform file, or a loaded platform, got number$/);
    await refused(() => loadRun({ platform: 'cm5' } as never), /^loadRun: app: expected a path to an app folder or module, or a loaded app, got undefined$/);
    await refused(() => runApp(null as never), /^runApp: expected a run configuration \(runConfig or loadRun gives one\), got null$/);
    await refused(() => runApp({} as never), /^runApp: the configuration's platform, app, params, nodes, seed are missing or malformed; expected a run configuration as runConfig or loadRun gives it$/);
    await refused(() => select(null as never, {}, null as never), /^select: expected a library module \{ name, inputs, variants \} \(loadSelection gives one: its module\), got null$/);
  });

  it('refuses what select and the sort module do not take (each was taken and changed nothing)', async () => {
    const s = await loadSelection({ platform: 'atm', module: 'stencil' });
    const x = { width: 512, height: 512, iters: 4 };
    await refused(() => select(s.module, x, s.context, {}, ['nope']), /^select: requested nope: not a tunable of module stencil \(expected .*extraRows.*\)$/);
    await refused(() => select(s.module, x, s.context, {}, [5 as never]), /^select: requested number: not a tunable of module stencil/);
    await refused(() => select(s.module, x, s.context, {}, [], 'no' as never), /^select: expected withAdvice true or false, got string$/);
    expect(select(s.module, x, s.context, {}, ['extraRows']).variant).toMatch(/^\w+$/);
    // It named selectContext, which the package does not export.
    await refused(() => select(s.module, x, null as never), /^select: expected a selection context .* \(loadSelection gives one: its context\), got null$/);
    // An edited platform is checked against its file, as runConfig checks one.
    const cm5 = await loadPlatform('cm5');
    await refused(() => chooseImplementation({ platform: { ...cm5, cpu: {} } as never, module: 'stencil', inputs: { width: 64, height: 64, iters: 2 } }), /^platform\.cpu\.\w+ is missing; expected a number, as in the platform file$/);
    await refused(
      () => chooseImplementation({ platform: 'cm5', module: 'sort', inputs: { keys: 1000, keyBits: 28 }, communication: 'factored' }),
      /^communication factored: it chooses the stencil's extra rows and columns; module sort has none \(leave it out\)$/,
    );
  });

  it('refuses predict and mrePercent of lists that do not pair up, which gave NaN', async () => {
    // A real fit: 10 + 2 n on four samples, then predictions with it.
    const [model] = fitSamples('# platform cm5 h nodes 4\n# model M n\nM 12 1\nM 14 2\nM 16 3\nM 20 5\n', 'm.samples', false).models;
    expect(formula(model)).toBe('10 + 2*n');
    // A model cut short (one relevance for two terms) read as "10", the term dropped in silence.
    await refused(() => formula({ ...model, relevant: [true] }), /^formula: model M: expected lists terms, coefficients and relevant of one length \(fitSamples gives them\), got a list of 2, a list of 2 and a list of 1$/);
    expect(predict(model.coefficients, [4])).toBeCloseTo(18, 9);
    expect(mrePercent([18, 20], [18, 20])).toBe(0);
    await refused(() => predict(model.coefficients, []), /^predict: 2 coefficients and 0 term values; expected the constant's coefficient and one per term value \(1 coefficients\)$/);
    await refused(() => predict(model.coefficients, [4, 5]), /^predict: 2 coefficients and 2 term values;/);
    await refused(() => predict(null as never, [4]), /^predict: expected the coefficients as a list of numbers, got null$/);
    await refused(() => predict(model.coefficients, [Number.NaN]), /^predict: the term values\[0\] is NaN; expected a finite number$/);
    // It said "is 3", hiding that the value was a string.
    await refused(() => predict(model.coefficients, ['3' as never]), /^predict: the term values\[0\] is string "3"; expected a finite number$/);
    // Written into the formula: "NaN + 2*n".
    await refused(() => formula({ ...model, coefficients: [Number.NaN, 2] }), /^formula: model M: coefficient 0 is NaN; expected finite numbers \(fitSamples gives them\)$/);
    // A design beyond double precision: "predict: the coefficients[1] is Infinity", from inside the fit.
    await refused(() => fitModel(['x'], [1, 2, 3, 4, 5].map((i) => ({ y: i + 5, x: [1e-320 * i] })), false), /^fitModel: the fit gave non-finite coefficients \(.*Infinity.*\); expected samples whose least-squares solution fits in double precision$/);
    await refused(() => fitSamples(`# platform cm5 h nodes 4\n# model Foo x\n${[1, 2, 3, 4, 5].map((i) => `Foo ${i + 5} ${1e-320 * i}`).join('\n')}\n`, 'tiny.samples', false), /^tiny\.samples: model Foo on cm5: the fit gave non-finite values \(coefficients .*Infinity.*\); expected samples whose least-squares solution fits in double precision$/);
    await refused(() => mrePercent([18, 20], [18]), /^mrePercent: 2 times and 1 predictions; expected one prediction per time$/);
    await refused(() => mrePercent(undefined as never, [18]), /^mrePercent: expected the times as a list of numbers, got undefined$/);
  });

  it('refuses in opCycles the counts computeOps refuses in a run (a negative count gave negative cycles)', async () => {
    const cpu = (await loadPlatform('cm5')).cpu;
    expect(opCycles(cpu, { loads: 2 })).toBe(Math.round(2 * cpu.loadCycles));
    const { results } = runInline('cm5', 1, function* (rt) {
      const start = rt.cycleCount();
      rt.computeOps({ loads: 2 });
      return rt.elapsedCycles(start);
    });
    expect(results[0]).toBe(opCycles(cpu, { loads: 2 }));
    for (const [ops, problem] of [
      [{ loads: -1 }, 'loads -1: expected a finite count of 0 or more'],
      [{ bogus: 1 }, 'no operation "bogus" (expected intOps, floatAdds, floatMuls, floatDivs, loads, stores, branches, calls)'],
      [null, 'expected operation counts { intOps, floatAdds, floatMuls, floatDivs, loads, stores, branches, calls }, got null'],
    ] as const) {
      const inLibrary = await errorOf(() => opCycles(cpu, ops as never));
      expect(inLibrary).toBeInstanceOf(InputError);
      expect((inLibrary as Error).message).toBe(`opCycles: ${problem}`);
      expect(() => runInline('cm5', 1, function* (rt) {
        rt.computeOps(ops as never);
        yield* rt.barrier();
      })).toThrow(`node 0: cost/computeOps: ${problem}`);
    }
    await refused(() => opCycles(null as never, { loads: 1 }), /^opCycles: expected a platform's CPU table \(platform\.cpu\), got null$/);
  });
});

describe('select through the public entry', () => {
  it('takes the module and context loadSelection loads, choosing as chooseImplementation does and keeping a pinned tunable', async () => {
    const request = { platform: 'cm5', module: 'stencil', nodes: 16 };
    const inputs = { width: 64, height: 64, iters: 2 };
    const { module, context } = await loadSelection(request);
    expect(module.name).toBe('stencil');
    expect(context.nodes).toBe(16);
    const choice = select(module, inputs, context);
    expect(choice).toEqual(await chooseImplementation({ ...request, inputs }));
    // What only select does: the square layout with 1 extra row, given rather than tuned.
    const pinned = select(module, inputs, context, { extraRows: 1 });
    const square = pinned.predictions.find((p) => p.variant === 'square')!;
    expect(square.params.extraRows).toBe(1);
    expect(square.notes).toContain('extraRows 1: given');
    await refused(() => loadSelection({ ...request, inputs } as never), /^request field inputs: unknown \(expected platform, module, nodes, models, communication, hybridModels\)$/);
  });

  it('refuses a pinned tunable the module does not have (a misspelt one was ignored) or a value that is not a count (NaN or a string made the square\'s prediction NaN, dropped from the choice unseen), and a loaded platform that is not one', async () => {
    const { module, context } = await loadSelection({ platform: 'cm5', module: 'stencil', nodes: 16 });
    const inputs = { width: 64, height: 64, iters: 2 };
    await refused(() => select(module, inputs, context, { extraRow: 1 }), /^select: pinned extraRow: not a tunable of module stencil \(expected extraRows, extraCols, aspect\)$/);
    await refused(() => select(module, inputs, context, { extraRows: 'x' }), /^select: pinned extraRows "x": expected a finite number of 0 or more$/);
    await refused(() => select(module, inputs, context, { extraRows: Number.NaN }), /^select: pinned extraRows NaN: expected a finite number of 0 or more$/);
    await refused(() => select(module, inputs, context, { extraRows: -3 }), /^select: pinned extraRows -3: expected a finite number of 0 or more$/);
    // A loaded platform is one loadPlatform gives: { } was told "no app models for undefined on undefined nodes".
    for (const call of [() => loadSelection({ platform: {} as never, module: 'stencil' }), () => chooseImplementation({ platform: {} as never, module: 'stencil', inputs })]) {
      await refused(call, /^platform: expected a platform name, a path to a platform file, or a loaded platform \(loadPlatform or parsePlatform gives one\), got object$/);
    }
    expect((await loadSelection({ platform: await loadPlatform('cm5'), module: 'stencil', nodes: 16 })).context).toEqual(context);
    // The module loadSelection gives is every selection's: dropping a variant from it dropped it from every later choice.
    expect(() => (module.variants as unknown[]).splice(0, 1)).toThrow(TypeError);
    expect(() => Object.assign(module.variants[0], { predict: () => 0 })).toThrow(TypeError);
    expect((await chooseImplementation({ platform: 'cm5', module: 'stencil', nodes: 16, inputs })).predictions.map((p) => p.variant)).toEqual(['square', 'vstrips', 'hstrips', 'rect', 'uni']);
    // Pinned as the module takes it, every prediction is a number.
    expect(select(module, inputs, context, { extraRows: 0 }).predictions.every((p) => Number.isFinite(p.cycles))).toBe(true);
  });

  it('refuses a pinned value its app would not take (digitBits 17 was predicted, 0 blamed on the models, extraRows 1.5 and aspect 0 went into the choice\'s parameters), and says why a given aspect has no rect model', async () => {
    const sort = await loadSelection({ platform: 'cm5', module: 'sort', nodes: 16 });
    const keys = { keys: 100, keyBits: 32 };
    await refused(() => select(sort.module, keys, sort.context, { digitBits: 17 }), /^select: pinned digitBits 17: expected an integer from 1 to 16$/);
    await refused(() => select(sort.module, keys, sort.context, { digitBits: 0 }), /^select: pinned digitBits 0: expected an integer from 1 to 16$/);
    await refused(() => select(sort.module, keys, sort.context, { digitBits: 2.5 }), /^select: pinned digitBits 2.5: expected an integer from 1 to 16$/);
    expect(select(sort.module, keys, sort.context, { digitBits: 16 }).predictions[0].params.digitBits).toBe(16);
    const { module, context } = await loadSelection({ platform: 'cm5', module: 'stencil', nodes: 16 });
    const inputs = { width: 64, height: 64, iters: 2 };
    await refused(() => select(module, inputs, context, { extraRows: 1.5 }), /^select: pinned extraRows 1.5: expected an integer >= 0$/);
    await refused(() => select(module, inputs, context, { aspect: 0 }), /^select: pinned aspect 0: expected a number from 0.000244140625 to 4096$/);
    // aspect 1 on 64 nodes is square's 8 x 8, which rect has no model for: it predicted Infinity with no reason.
    const n64 = await loadSelection({ platform: 'cm5', module: 'stencil', nodes: 64 });
    const rect = select(n64.module, inputs, n64.context, { aspect: 1 }).predictions.find((p) => p.variant === 'rect')!;
    expect(rect.cycles).toBe(Infinity);
    expect(rect.problem).toBe('aspect 1 gives 8 x 8 processors, for which rect has no model (its models: 2 or 4 processor columns or rows)');
  });
});

describe('runs through the public entry', () => {
  it('gives a summary whose params are its own: changing them changed the configuration, and so the next run of it', async () => {
    const config = await loadRun({ platform: 'cm5', app: shippedApp('stencil'), nodes: 16, params: ['iters=5'] });
    const first = runApp(config);
    first.params.iters = 1;
    expect(config.params.iters).toBe(5);
    const again = runApp(config);
    expect(again.params.iters).toBe(5);
    expect(again.fingerprint).toBe(first.fingerprint);
  });
});

describe('the exported tables', () => {
  it('cannot be changed under later runs: State.Barrier = 1 made them trace barriers as Busy, and DEFAULT_RUN_LIMITS is what runImplementation runs with', async () => {
    for (const table of [State, CombineOp, CompositeOp, SegmentType, DEFAULT_RUN_LIMITS]) {
      expect(() => Object.assign(table, { [Object.keys(table)[0]]: 1 })).toThrow(TypeError);
    }
    // A run still traces its barriers in the Barrier state.
    const states = new Set<number>();
    runApp(await loadRun({ platform: 'cm5', app: shippedApp('cshift'), nodes: 4, trace: { state: (_node, _cycle, state) => states.add(state) } }));
    expect([...states].sort()).toEqual([State.Idle, State.Barrier]);
    expect(DEFAULT_RUN_LIMITS).toEqual({ maxCycles: 10_000_000_000, maxEvents: 1_000_000_000 });
  });
});

describe('a run in steps through the public entry (AppRun)', () => {
  it('refuses a summary before the run has ended, which verified half-made results and blamed the app', async () => {
    const config = await loadRun({ platform: 'cm5', app: shippedApp('ping-pong'), nodes: 4 });
    const run = new AppRun(config);
    // Before any event, and part-way: ping-pong's verify threw a TypeError on the missing results ("app ping-pong: verify threw").
    await refused(() => run.summary(), /^AppRun\.summary: the run has not ended \(cycle 0, 0 events, 0 of 4 nodes exited\); expected advance to have returned true first$/);
    expect(run.advance(100)).toBe(false);
    await refused(() => run.summary(), /^AppRun\.summary: the run has not ended \(cycle \d+, 100 events, 0 of 4 nodes exited\);/);
    // Ended, it summarizes as runApp does.
    expect(run.advance(Infinity)).toBe(true);
    expect(run.summary()).toEqual(runApp(config));
  });

  it('throws an app\'s error again when advanced past it (it ran on into a deadlock), and has no summary then', async () => {
    // Node 1 throws after the barrier; the other nodes have exited.
    const app = defineApp({
      name: 'thrower',
      description: 'node 1 fails after a barrier',
      params: {},
      *main(rt) {
        yield* rt.barrier();
        if (rt.self === 1) throw new Error('boom');
        return 0;
      },
      verify: () => ({ ok: true, detail: 'ran' }),
    });
    const run = new AppRun(await loadRun({ platform: 'cm5', app, nodes: 4 }));
    const failure = await errorOf(() => run.advance(Infinity));
    expect(failure).toBeInstanceOf(RunFailure);
    expect((failure as Error).message).toMatch(/^node 1 at cycle \d+: Error: boom/);
    expect(await errorOf(() => run.advance(Infinity))).toBe(failure);
    await refused(() => run.summary(), /^AppRun\.summary: the run failed \(node 1 at cycle \d+: Error: boom\); a failed run has no summary$/);
  });

  it('refuses a count of events that is not one: NaN and undefined ran to the end, a string ran that many, a negative count nothing', async () => {
    const run = new AppRun(await loadRun({ platform: 'cm5', app: shippedApp('ping-pong'), nodes: 4 }));
    // 0.5 dispatched an event.
    for (const [count, shown] of [[Number.NaN, 'NaN'], [undefined, 'undefined'], ['10', 'string'], [-5, '-5'], [null, 'null'], [0.5, '0\\.5']] as const) {
      await refused(() => run.advance(count as never), new RegExp(`^AppRun\\.advance: expected a whole number of events, 0 or more \\(Infinity: to the end\\), got ${shown}$`));
    }
    expect(run.events).toBe(0);
    expect(run.advance(0)).toBe(false);
    expect(run.advance(Infinity)).toBe(true);
  });

  it('dispatches nothing once the run has ended: a CM-5 run went on with its timer interrupts, and its fingerprint changed', async () => {
    const config = await loadRun({ platform: 'cm5', app: shippedApp('cshift'), nodes: 16 });
    const whole = runApp(config);
    const run = new AppRun(config);
    expect(run.advance(Infinity)).toBe(true);
    expect(run.advance(1)).toBe(true);
    expect(run.advance(Infinity)).toBe(true);
    expect(run.events).toBe(whole.events);
    expect(run.summary().fingerprint).toBe(whole.fingerprint);
  });

  it('checks a configuration built by hand as runConfig checks its options (each ran, or failed deep in the run)', async () => {
    const config = await loadRun({ platform: 'cm5', app: shippedApp('cshift'), nodes: 16 });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ network: 'warp' }, /^network warp: expected packet or analytic$/],
      [{ seed: -1 }, /^seed -1: expected an integer from 0 to 4294967295$/],
      [{ limits: { maxCycles: 'x' } }, /^limits\.maxCycles x: expected a whole number/],
      [{ log: 5 }, /^log: expected a function, got number$/],
      [{ bogus: 5 }, /^run option bogus: unknown/],
      [{ params: {} }, /^params: no value for shift.*; expected every parameter of app cshift \(runConfig fills in the defaults\)$/],
      [{ params: { ...config.params, shift: 'x' } }, /^param shift: expected a number/],
      [{ params: { ...config.params, bogus: 1 } }, /app cshift has no parameter "bogus"/],
    ];
    for (const [edit, message] of cases) await refused(() => runApp({ ...config, ...edit } as never), message);
  });

  it('checkApp refuses what is not an app, its parameter values and a machine (each was a TypeError, some blamed on the app\'s check)', async () => {
    const config = await loadRun({ platform: 'cm5', app: shippedApp('stencil'), nodes: 16 });
    const info = { nodes: 16, platform: 'cm5', clockMHz: 33, hops: () => 1, maxCombineWords: Infinity };
    expect(checkApp(config.app, config.params, info)).toBeNull();
    await refused(() => checkApp(undefined as never, {}, info), /^checkApp: expected an app \(loadApp or defineApp gives one\), got undefined$/);
    await refused(() => checkApp(config.app, undefined as never, info), /^params: expected an object of the app's parameter values \(runConfig gives one\), got undefined$/);
    await refused(() => checkApp(config.app, {}, info), /^params: no value for .*width.*; expected every parameter of app stencil/);
    await refused(() => checkApp(config.app, config.params, undefined as never), /^checkApp: expected the machine \{ nodes, platform, clockMHz, hops, maxCombineWords \} the app's check is given \(machineInfo gives it\), got undefined$/);
  });

  it('refuses a parameter given twice with two values, as the command line does (the last one ran)', async () => {
    await refused(() => loadRun({ platform: 'cm5', app: shippedApp('cshift'), nodes: 16, params: ['shift=1', 'shift=2'] }), /^--param shift given twice \("shift=1", then "shift=2"\); expected each parameter once$/);
  });
});

describe('reading a trace and running to the end through the public entry', () => {
  it('refuses a trace path that is not a string (a number was read as a file descriptor: loadTrace(0) waited on stdin) and options that are not { messages? }', async () => {
    const bytes = await cshiftTraceBytes();
    // The real trace reads back without its messages when asked.
    expect(readTrace(bytes, 'cshift.trace', { messages: false }).messages).toEqual([]);
    for (const [path, kind] of [[0, 'number'], [null, 'null'], [undefined, 'undefined']] as const) {
      await refused(() => loadTrace(path as never), new RegExp(`^loadTrace: expected a trace file's path as a string, got ${kind}$`));
    }
    await refused(() => loadTrace('cshift.trace', null as never), /^loadTrace: expected options \{ messages\? \}, got null$/);
    await refused(() => readTrace(bytes, 'cshift.trace', null as never), /^readTrace: expected options \{ messages\? \}, got null$/);
    await refused(() => readTrace(bytes, 'cshift.trace', { mesages: false } as never), /^readTrace: option mesages: unknown \(expected messages\)$/);
    await refused(() => readTrace(bytes, 'cshift.trace', { messages: 'no' } as never), /^readTrace: option messages: expected true or false, got string$/);
  });

  it('refuses in advanceToEnd and stopPoint what is not a run or a signal (each was a TypeError)', async () => {
    const config = await loadRun({ platform: 'cm5', app: shippedApp('ping-pong'), nodes: 4 });
    const run = new AppRun(config);
    await advanceToEnd(run, new AbortController().signal);
    expect(run.summary().fingerprint).toBe(runApp(config).fingerprint);
    await refused(() => advanceToEnd(null as never, undefined), /^advanceToEnd: expected an AppRun \(new AppRun\(config\)\), got null$/);
    await refused(() => advanceToEnd(run, 'stop' as never), /^advanceToEnd: expected an AbortSignal \(an AbortController's signal\) or none, got string$/);
    await refused(() => stopPoint(undefined as never), /^stopPoint: expected an AbortSignal \(an AbortController's signal\), got undefined$/);
  });
});
