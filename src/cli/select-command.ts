/**
 * `sim select --platform <p> <module|app> --param k=v ... [--nodes N] [--models <dir>]
 * [--communication chain|factored|hybrid [--hybrid-models <dir>]] [--run | --all] [--json] [--seed S]` and `sim select --map ... -o <file.svg>`
 * (thesis 4.2, 5.5): prints every variant's predicted time (us and cycles), the
 * choice, the optimized parameters and the predicted benefit; --run runs the choice
 * and prints predicted against measured; --all runs every variant and says whether
 * the choice was the fastest and by how much. --communication picks how the square
 * layout's extra rows and columns are chosen (the shortest critical chain, or eq. 40
 * with eq. 38's factored or eq. 54's hybrid Communication). --map draws the predicted winner over
 * width x height (stencil, Fig. 4-7) or the digit-width curve (sort, Fig. 5-5).
 */
import { InputError } from '../kernel/errors.ts';
import { select, selectContext, type Choice, type LibraryModule, type Prediction } from '../library/module.ts';
import { digitCurve, winnerMap } from '../library/pictures.ts';
import { digitRange, radixColumns } from '../library/sort-module.ts';
import { evaluate } from '../library/model-set.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { AppRun, DEFAULT_RUN_LIMITS } from '../runtime/run-app.ts';
import { advanceToEnd, RunStopped } from '../runtime/stoppable-run.ts';
import { signalExitCode } from './run-driver.ts';
import { SignalStop } from './signal-stop.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { checkOutputFile, writeFileAtomic } from './output-file.ts';
import { parseOptions } from './parse-options.ts';
import type { Platform } from '../platform/schema.ts';
import type { Io } from './io.ts';
import { loadPlatform, projectPath } from './load-inputs.ts';
import { parseCommunication, type CommunicationChoice } from './communication-option.ts';
import { loadModelSet, moduleNamed, refuseNegativeChoice } from './model-files.ts';
import { loadRun } from './run-setup.ts';
import { grouped } from '../kernel/numbers.ts';

interface SelectArgs {
  platform: string;
  module: string;
  nodes: number | undefined;
  params: string[];
  models: string | undefined;
  communication: CommunicationChoice;
  run: boolean;
  all: boolean;
  json: boolean;
  seed: number;
  map: boolean;
  out: string | undefined;
}

function parseSelectArgs(argv: readonly string[]): SelectArgs {
  const parsed = parseOptions('select', argv);
  const v = parsed.values as Record<string, string | undefined> & { param?: string[]; run?: boolean; all?: boolean; json?: boolean; map?: boolean };
  if (v.platform === undefined) throw new InputError('sim select: missing --platform <name|file>');
  if (parsed.positionals.length !== 1) throw new InputError('sim select: expected one module or app: sim select --platform <p> <stencil|sort|app-folder> --param k=v ...');
  if (v.run === true && v.all === true) throw new InputError('sim select: --run runs the choice and --all every variant; give one');
  if (v.map === true && v.out === undefined) throw new InputError('sim select --map: missing -o <file.svg>: where to draw the picture');
  if (v.map !== true && v.out !== undefined) throw new InputError('sim select: -o is for --map pictures');
  // They run variants; the map runs nothing, and took them silently.
  const runOptions = [v.run === true ? '--run' : null, v.all === true ? '--all' : null, v.seed !== undefined ? '--seed' : null].filter((o) => o !== null);
  if (v.map === true && runOptions.length > 0) throw new InputError(`sim select --map: ${runOptions.join(', ')} ${runOptions.length === 1 ? 'is' : 'are'} for runs of the variants; the map predicts only (draw it, or run without --map)`);
  // The map weighs the square without its extra lines (advice nobody asked for), so these changed
  // nothing in it, and --hybrid-models of a missing folder refused a map they did not touch.
  const extraLineOptions = [v.communication !== undefined ? '--communication' : null, v['hybrid-models'] !== undefined ? '--hybrid-models' : null].filter((o) => o !== null);
  if (v.map === true && extraLineOptions.length > 0) throw new InputError(`sim select --map: ${extraLineOptions.join(', ')} ${extraLineOptions.length === 1 ? 'chooses' : 'choose'} the square's extra rows and columns, which the map does not weigh (it leaves the square's extra lines out, as advice nobody asked for); leave ${extraLineOptions.length === 1 ? 'it' : 'them'} out`);
  // The seed of the runs, with nothing to run: a prediction took it and changed nothing.
  if (v.seed !== undefined && v.run !== true && v.all !== true && v.map !== true) throw new InputError(`sim select: --seed ${v.seed} is the seed of the variants' runs; expected --run or --all with it (the predictions depend on no seed)`);
  // The map is SVG: a picture.png would be SVG under another name.
  if (v.out !== undefined && !v.out.endsWith('.svg')) throw new InputError(`-o ${v.out}: expected a file name ending in .svg (the map is SVG)`);
  if (v.out !== undefined) checkOutputFile('-o', v.out);
  const int = (opt: string, s: string, min: number, max: number) => {
    const n = /^\d+$/.test(s) ? Number(s) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InputError(`${opt} ${s}: expected an integer from ${min} to ${max}`);
    return n;
  };
  return {
    platform: v.platform,
    module: parsed.positionals[0],
    nodes: v.nodes === undefined ? undefined : int('--nodes', v.nodes, 1, 1 << 20),
    params: v.param ?? [],
    models: v.models,
    communication: parseCommunication(v.communication, v['hybrid-models']),
    run: v.run === true,
    all: v.all === true,
    json: v.json === true,
    seed: v.seed === undefined ? 1 : int('--seed', v.seed, 0, MAX_SEED),
    map: v.map === true,
    out: v.out,
  };
}

/** The module's inputs from `--param k=v`: each an integer, every one given. */
function moduleInputs(mod: LibraryModule, params: readonly string[], optional: readonly string[] = []): Record<string, number> {
  const x: Record<string, number> = {};
  for (const a of params) {
    const m = /^(\w+)=(.*)$/.exec(a);
    if (m === null) throw new InputError(`--param ${a}: expected key=value`);
    const input = mod.inputs.find((i) => i.name === m[1]);
    if (input === undefined) throw new InputError(`--param ${a}: module ${mod.name} has no input ${m[1]} (its inputs: ${mod.inputs.map((i) => `${i.name} (${i.doc})`).join(', ')})`);
    const n = /^\d+$/.test(m[2]) ? Number(m[2]) : NaN;
    if (!Number.isSafeInteger(n) || n < input.min || n > input.max) throw new InputError(`--param ${a}: expected an integer from ${input.min} to ${input.max}`);
    x[m[1]] = n;
  }
  for (const i of mod.inputs) if (x[i.name] === undefined && !optional.includes(i.name)) throw new InputError(`sim select: missing --param ${i.name}=<${i.doc}> for module ${mod.name}`);
  return x;
}

const paramText = (p: Record<string, number | string>, skip: Record<string, number>) => Object.entries(p).filter(([k]) => !(k in skip)).map(([k, v]) => `${k}=${v}`).join(' ');

interface Measured {
  variant: string;
  cycles: number;
  micros: number;
  fingerprint: string;
}

/**
 * Runs one variant's app with its parameters; its `cycles` metric is the measurement the
 * models predict. Stoppable: Ctrl-C or SIGTERM (`stop`) ends it with RunStopped.
 */
async function measure(p: Prediction, nodes: number, seed: number, platform: Platform, stop: AbortSignal): Promise<Measured> {
  const config = await loadRun({ platform, app: projectPath(p.app), params: Object.entries(p.params).map(([k, v]) => `${k}=${v}`), nodes, seed });
  const run = new AppRun({ ...config, limits: DEFAULT_RUN_LIMITS });
  await advanceToEnd(run, stop);
  const summary = run.summary();
  if (!summary.verified) throw new InputError(`sim select: ${p.variant} did not verify: ${summary.verification}`);
  const cycles = Number(summary.metrics.cycles);
  return { variant: p.variant, cycles, micros: cycles / platform.clockMHz, fingerprint: summary.fingerprint };
}

export async function selectCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseSelectArgs(argv);
  const mod = moduleNamed(args.module);
  // Only the stencil's square layout has extra rows and columns to choose: the sort module took them and changed nothing.
  if (mod.name !== 'stencil' && args.communication.communication !== undefined) {
    throw new InputError(`sim select: --communication ${args.communication.communication} chooses the stencil's extra rows and columns; module ${mod.name} has none (leave it out)`);
  }
  const platform = await loadPlatform(args.platform);
  const nodes = args.nodes ?? platform.defaultNodes;
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) throw new InputError(`--nodes ${nodes}: ${problem} (platform ${platform.name})`);
  const models = loadModelSet(platform, nodes, args.models, args.communication);
  const ctx = selectContext(platform, nodes, models, args.communication.communication);
  if (args.map) return drawMap(mod, args, ctx, io);

  const x = moduleInputs(mod, args.params);
  const choice = select(mod, x, ctx);
  refuseNegativeChoice(mod.name, choice.variant, choice.cycles, x, models.sources);
  const runs: Measured[] = [];
  const toRun = args.all ? choice.predictions.filter((p) => p.problem === null) : args.run ? [choice.predictions.find((p) => p.variant === choice.variant)!] : [];
  // Ctrl-C or SIGTERM stops the runs with what they measured so far (it killed the command, which printed nothing).
  const stop = new SignalStop();
  try {
    for (const p of toRun) runs.push(await measure(p, nodes, args.seed, platform, stop.signal));
  } catch (e) {
    if (!(e instanceof RunStopped)) throw e;
  } finally {
    stop.release();
  }
  const stopped = stop.interrupted;
  const complete = runs.length === toRun.length;
  const fastest = runs.length === 0 || !complete ? null : runs.reduce((a, b) => (b.cycles < a.cycles ? b : a));
  const chosenRun = runs.find((r) => r.variant === choice.variant) ?? null;
  if (stopped !== null) io.err(`sim select: stopped by ${stopped} after measuring ${runs.length} of ${toRun.length} variant${toRun.length === 1 ? '' : 's'}; the predictions and what was measured follow`);
  const code = stopped === null ? 0 : signalExitCode(stopped);
  if (args.json) {
    io.out(JSON.stringify({ ...selectJson(mod, platform.name, nodes, x, choice, models.sources, runs, fastest, chosenRun, args.seed), ...(stopped === null ? {} : { stopped }) }));
    return code;
  }
  io.out(`module ${mod.name} on ${platform.name}, ${nodes} nodes: ${paramText(x, {})}`);
  io.out(`models ${models.sources.join(', ')}`);
  const rows = choice.predictions.map((p) => {
    const run = runs.find((r) => r.variant === p.variant);
    // The measured column only when something ran; a variant that did not run shows '-' there (its parameters slid under the column).
    const measured = runs.length === 0 ? [] : [(run === undefined ? '-' : grouped(run.cycles)).padStart(14)];
    const cells = p.problem !== null ? [`cannot: ${p.problem}`] : [grouped(p.micros, 1, 1).padStart(14), grouped(p.cycles).padStart(14), ...measured, paramText(p.params, x)];
    return `${(p.variant + (p.variant === choice.variant ? ' *' : '')).padEnd(10)} ${cells.join('  ')}`;
  });
  io.out(`${'variant'.padEnd(10)} ${'predicted us'.padStart(14)}  ${'pred. cycles'.padStart(14)}  ${runs.length > 0 ? `${'meas. cycles'.padStart(14)}  ` : ''}parameters`);
  for (const r of rows) io.out(r);
  io.out(`choice     ${choice.variant}: ${paramText(choice.params, {})}`);
  for (const p of choice.predictions) {
    for (const n of p.notes) io.out(`tuned      ${p.variant}: ${n}`);
    if (p.benefit !== undefined) io.out(`benefit    ${p.variant}: ${(p.benefit * 100).toFixed(2)}% predicted from tuning`);
  }
  if (chosenRun !== null) {
    const err = (choice.cycles - chosenRun.cycles) / chosenRun.cycles;
    io.out(`measured   ${choice.variant}: ${grouped(chosenRun.cycles)} cycles = ${grouped(chosenRun.micros, 1, 1)} us; predicted ${grouped(choice.cycles)} (${err >= 0 ? '+' : ''}${(err * 100).toFixed(2)}%)`);
  }
  if (args.all && fastest !== null && chosenRun !== null) {
    io.out(
      chosenRun.cycles <= fastest.cycles
        ? `fastest    ${choice.variant}: the choice was the fastest measured`
        : `fastest    ${fastest.variant} (${grouped(fastest.cycles)} cycles): the choice ${choice.variant} was ${((chosenRun.cycles / fastest.cycles - 1) * 100).toFixed(2)}% slower`,
    );
  }
  return code;
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

function selectJson(mod: LibraryModule, platform: string, nodes: number, x: Record<string, number>, choice: Choice, sources: string[], runs: Measured[], fastest: Measured | null, chosenRun: Measured | null, seed: number) {
  return {
    module: mod.name,
    platform,
    nodes,
    inputs: x,
    models: sources,
    predictions: choice.predictions.map((p) => ({ ...p, cycles: finite(p.cycles), micros: finite(p.micros) })),
    choice: { variant: choice.variant, app: choice.app, params: choice.params, cycles: choice.cycles, micros: choice.micros },
    ...(runs.length === 0 ? {} : { seed, measured: runs }),
    ...(fastest === null || chosenRun === null ? {} : { fastest: fastest.variant, choiceWasFastest: chosenRun.cycles <= fastest.cycles, penalty: chosenRun.cycles / fastest.cycles - 1 }),
  };
}

function drawMap(mod: LibraryModule, args: SelectArgs, ctx: Parameters<typeof select>[2], io: Io): number {
  const out = args.out!;
  let text: string;
  if (mod.name === 'stencil') {
    const x = moduleInputs(mod, args.params, ['width', 'height']);
    if (x.width !== undefined || x.height !== undefined) throw new InputError('sim select --map: the map spans width x height; give only --param iters=<n>');
    text = winnerMap(mod, ctx, x.iters, `Predicted stencil layout on ${args.platform}, ${ctx.nodes} nodes, ${x.iters} iterations (thesis Fig. 4-7; shipped models calibrated on grids 16-1024)`);
  } else {
    const x = moduleInputs(mod, args.params);
    const { lo, hi } = digitRange(x.keyBits);
    const model = ctx.models.get('RadixSort', 'the digit-width curve');
    text = digitCurve((bpd) => evaluate(model, radixColumns(x.keys, bpd, x.keyBits, ctx.nodes, ctx.combineWords)), x.keyBits, lo, hi, `Radix sort on ${args.platform}, ${ctx.nodes} nodes, ${x.keys} keys of ${x.keyBits} bits (thesis Fig. 5-5)`, ctx.clockMHz);
  }
  writeFileAtomic('-o', out, text);
  io.out(args.json ? JSON.stringify({ wrote: out }) : `sim select: wrote ${out}`);
  return 0;
}
