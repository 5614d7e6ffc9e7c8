/**
 * Sample generation (thesis 3.3-3.5, Figs. 3-2, 3-4, 3-7): for one model on one
 * platform, the model-building samples cover the loop nest; `vcount` verification
 * samples draw each iteration variable uniformly over its range from the seed. Every
 * sample runs the setup, times the task on node 0 with the exact cycle clock (or takes
 * the measurement a custom-collection task reports, 6.3), and runs the cleanup, on one
 * simulated machine per (platform, model) — a unit. A unit's text
 * depends only on its inputs, so units can run in any order, process or worker and be
 * concatenated in unit order.
 *
 * Lines (Fig. 3-7): `Name cycles x1 x2 ...` for building samples and `@Name ...` for
 * verification samples, the x being the inputs then the terms. Each unit starts with
 * `# platform <name> <content hash> nodes <P>` and `# model <Name> <input and term
 * names>`; a model sampled on several machine sizes has a unit per size.
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { buildTopology } from '../network/build-topology.ts';
import { RandomStream } from '../kernel/random-stream.ts';
import type { Op } from '../machine/node.ts';
import { blockTransferWords, packetFacts } from '../platform/packets.ts';
import { platformIdentity } from '../platform/platform-identity.ts';
import type { Platform } from '../platform/schema.ts';
import { advanceToEnd, AppRun, defineApp, runConfig, type Runtime } from '../runtime/index.ts';
import { APP_TASKS, appTask } from './app-tasks.ts';
import { chainCosts, chainCycles } from './stencil-chain.ts';
import { compileExpression, loopValues, type Expression, type ExpressionFunctions, type ModelSpec } from './spec.ts';
import { MAX_COLUMNS } from './samples-file.ts';
import { argProblem, calibrationGlobals, operation, OPERATIONS, preparePorts, type CalibrationGlobals } from './tasks.ts';

export interface UnitConfig {
  platform: Platform;
  spec: ModelSpec;
  /** The spec file, for messages. */
  source: string;
  nodes: number;
  seed: number;
  vcount: number;
  /**
   * Emulate a real machine's timer interrupts (unless the platform has its own) and
   * time slices, and take the median of three (thesis 3.4).
   */
  noise?: boolean;
  /**
   * Calibrated submodels a spec's inputs and terms may call as functions (thesis 8.1.3:
   * "treating the submodels as terms"), e.g. BlockTransfer(words) from the platform's
   * Strata models; `source` says where they came from, for the unit's header.
   */
  submodels?: { functions: ExpressionFunctions; source: string };
}

/**
 * Thesis 3.4's CM-5 measurement noise, scaled to the platform's clock: a timer
 * interrupt every 1/60 s costing about 30 us, and a time slice every 0.1 s that
 * stalls the process for about another 0.1 s (3.4.1's text: "often by more than a
 * tenth of a second"; its Fig. 3-6 shows slices of about 6 ms, 198,000-232,000 cycles
 * for a 16,500-cycle timing, and the median of three removes either). A timing of t cycles, starting at a
 * random phase, gains the interrupts that fall inside it and, with probability
 * t / 0.1 s, a time slice. On a platform whose nodes take timer interrupts
 * themselves (`hasInterrupts`), the timing already holds them, so only the time
 * slice is added.
 */
export function noisyTime(t: number, clockMHz: number, random: RandomStream, hasInterrupts = false): number {
  const cyclesPerSecond = clockMHz * 1e6;
  const interruptEvery = cyclesPerSecond / 60;
  const interrupts = hasInterrupts ? 0 : Math.floor((random.float() * interruptEvery + t) / interruptEvery);
  const sliceEvery = cyclesPerSecond / 10;
  const slice = random.float() < t / sliceEvery ? sliceEvery : 0;
  return t + interrupts * Math.round(30 * clockMHz) + slice;
}

const median3 = (a: number, b: number, c: number) => Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));

/** One planned sample: its arguments for every call and the values it reports. */
interface PlannedSample {
  verify: boolean;
  /** The loop variables' values it was planned at. */
  point: Record<string, number>;
  setup: number[][];
  task: number[];
  cleanup: number[][];
  columns: number[];
}

/** The columns a model reports, in order: its inputs, then its terms. */
export function columnNames(spec: ModelSpec): string[] {
  return [...spec.inputs.map((v) => v.id), ...spec.terms.map((v) => v.id)];
}

/**
 * A unit's header lines (Fig. 3-7): its platform and machine size, the submodels its
 * inputs or terms call (whose values are in its samples, so a refit needs the same ones),
 * and its model's columns.
 */
export function unitHeader(config: UnitConfig): string[] {
  const { platform, spec } = config;
  const calls = Object.keys(config.submodels?.functions ?? {}).filter((f) => [...spec.inputs, ...spec.terms].some((v) => new RegExp(`\\b${f}\\(`).test(v.value)));
  return [
    `# platform ${platform.name} ${platformIdentity(platform).contentHash} nodes ${config.nodes}`,
    ...(calls.length === 0 ? [] : [`# submodels ${calls.join(' ')} from ${config.submodels!.source}`]),
    `# model ${spec.name} ${columnNames(spec).join(' ')}`.trimEnd(),
  ];
}

/** Compiles a spec against a machine size and lists its samples; bad specs are InputErrors. */
export function planUnit(config: UnitConfig): PlannedSample[] {
  const { spec, source, nodes } = config;
  // With its line when the grammar gave one: of two ClearMemory specs, which had the unknown variable?
  const where = `${source}${spec.line === undefined ? '' : `:${spec.line}`}: model ${spec.name}`;
  // The machine's own numbers: its size and its packet facts (packetFacts: the data words a block-transfer packet
  // carries, the vector words a combine message carries, whether reductions climb a tree of messages, 1, or a control
  // network, 0, and a DMA packet's link cycles per word and receive cycles), for models that count packets, combine
  // messages, tree levels and queued edges.
  const facts = packetFacts(config.platform);
  const machine = { P: nodes, logP: Math.ceil(Math.log2(nodes)), ...facts, combineTree: facts.combineTree ? 1 : 0 };
  const machineNames = Object.keys(machine);
  // What depends on the machine says which one: of --nodes 16,4, at which was the loop 8..P empty?
  const whereOn = `${where} on ${config.platform.name} with ${nodes} nodes`;
  checkNames(spec, machineNames, where);
  // Sampled for minutes, then refused by sim fit (--fit: after sampling every model).
  const columnCount = spec.inputs.length + spec.terms.length;
  if (columnCount > MAX_COLUMNS) throw new InputError(`${where}: ${columnCount} inputs and terms, each a column of the samples; expected at most ${MAX_COLUMNS}, the most sim fit fits`);
  const loopNames = new Set([...spec.loops.map((l) => l.id), ...machineNames]);
  const ranges = spec.loops.map((l) => {
    const bound = (e: string, what: string) => compileExpression(e, new Set(machineNames), `${where}: loop ${l.id} ${what}`)(machine);
    return { id: l.id, start: bound(l.start, 'start'), stop: bound(l.stop, 'stop'), update: l.update };
  });
  for (const r of ranges) {
    // Past 2^53 a loop cannot count (i 1e26 12 ++ took 1e26 + 1 for 1e26), and drawing the
    // verification samples over the range never returned (pure-rand's uniformInt).
    const outside = [r.start, r.stop].find((b) => !(Math.abs(b) <= Number.MAX_SAFE_INTEGER));
    if (outside !== undefined) throw new InputError(`${whereOn}: loop ${r.id} from ${r.start} to ${r.stop}: expected bounds of magnitude at most 2^53 - 1 (the loop counts in exact integers, and the verification samples draw integers over its range), got ${outside}`);
  }
  const values = ranges.map((r) => loopValues(r.start, r.stop, r.update, `${whereOn}: loop ${r.id}`));
  // Each loop is bounded, their nest was not: two loops of 10,000 planned 10^8 samples, silently, for minutes.
  const total = values.reduce((n, v) => n * v.length, 1);
  if (total > MAX_SAMPLES) throw new InputError(`${whereOn}: the loop nest makes ${total} samples (${values.map((v) => v.length).join(' x ')}); expected at most ${MAX_SAMPLES}`);
  for (const r of ranges) {
    // Verification samples draw integers over each loop's range (below).
    if (Math.ceil(Math.min(r.start, r.stop)) > Math.floor(Math.max(r.start, r.stop))) {
      throw new InputError(`${whereOn}: loop ${r.id} from ${r.start} to ${r.stop} holds no integer, and the verification samples draw integers over it; expected a range with one`);
    }
  }
  const inputNames = new Set([...loopNames, ...spec.inputs.map((v) => v.id)]);
  // hops(n): network hops from node 0 to node n on this machine, for Roundtrip specs.
  const topology = buildTopology(config.platform.network, nodes);
  // stencilChain(width, height, px, py): the critical chain of one stencil iteration on this platform (stencil-chain.ts),
  // NaN for a grid its processors cannot split (checkPlan reports it).
  const chain = chainCosts(config.platform);
  const xferWords = blockTransferWords(config.platform.messaging);
  const stencilChain = (width: number, height: number, px: number, py: number): number => {
    if (![width, height, px, py].every((v) => Number.isInteger(v) && v >= 1)) return Number.NaN;
    try {
      return chainCycles(width, height, px, py, xferWords, chain);
    } catch (e) {
      if (e instanceof RangeError) return Number.NaN;
      throw e;
    }
  };
  const functions = { ...config.submodels?.functions, hops: (n: number) => (Number.isInteger(n) && n >= 0 && n < nodes ? topology.hops(0, n) : Number.NaN), stencilChain };
  const inputs = spec.inputs.map((v) => ({ id: v.id, f: compileExpression(v.value, loopNames, `${where}: input ${v.id}`, functions) }));
  const terms = spec.terms.map((v) => ({ id: v.id, f: compileExpression(v.value, inputNames, `${where}: term ${v.id}`, functions) }));
  const compileCall = (c: { name: string; args: string[] }, role: string) => {
    const op = role === 'task' ? (appTask(c.name) ?? operation(c.name)) : operation(c.name);
    if (op === undefined) {
      throw new InputError(`${where}: unknown ${role} operation ${c.name} (known: ${Object.keys(OPERATIONS).join(', ')}; tasks may also run an app: ${Object.keys(APP_TASKS).join(', ')})`);
    }
    if (c.args.length !== op.arity) throw new InputError(`${where}: ${c.name} takes ${op.arity} argument(s): ${op.signature}`);
    if (nodes < op.minNodes) throw new InputError(`${whereOn}: ${c.name} needs at least ${op.minNodes} nodes`);
    return c.args.map((a, k) => compileExpression(a, inputNames, `${where}: ${c.name} argument ${k + 1}`));
  };
  if (appTask(spec.task.name) !== undefined && spec.setup.length + spec.cleanup.length > 0) {
    throw new InputError(`${where}: ${spec.task.name} runs a whole app on a fresh machine per sample, so it takes no setup or cleanup (leave both empty: {{ loops @ @ ${spec.task.name}(...) @ @ inputs @ terms }})`);
  }
  // Roundtrip holds every other node until node 0's Release (tasks.ts): without one in the
  // cleanup, or with a Release that nothing held, the run deadlocked, naming no spec.
  const releases = [...spec.setup, spec.task, ...spec.cleanup].filter((c) => c.name === 'Release').length;
  const holds = spec.task.name === 'Roundtrip';
  if (holds ? !(releases === 1 && spec.cleanup.some((c) => c.name === 'Release')) : releases > 0) {
    throw new InputError(`${where}: ${holds ? 'Roundtrip holds the other nodes until a Release() in its cleanup, and it has none' : 'Release() lets go of nodes a Roundtrip task holds, and this task holds none'}; expected Release() once, in the cleanup of a Roundtrip task`);
  }
  const setup = spec.setup.map((c) => compileCall(c, 'setup'));
  const task = compileCall(spec.task, 'task');
  const cleanup = spec.cleanup.map((c) => compileCall(c, 'cleanup'));

  const plan = (iteration: Record<string, number>, verify: boolean): PlannedSample => {
    const vars: Record<string, number> = { ...machine, ...iteration };
    for (const i of inputs) vars[i.id] = i.f(vars);
    const eval_ = (args: Expression[]) => args.map((e) => e(vars));
    return {
      verify,
      point: iteration,
      setup: setup.map(eval_),
      task: eval_(task),
      cleanup: cleanup.map(eval_),
      columns: [...inputs.map((i) => vars[i.id]), ...terms.map((t) => t.f(vars))],
    };
  };

  const samples: PlannedSample[] = [];
  const nest = (depth: number, iteration: Record<string, number>) => {
    if (depth === ranges.length) {
      samples.push(plan(iteration, false));
      return;
    }
    for (const v of values[depth]) nest(depth + 1, { ...iteration, [ranges[depth].id]: v });
  };
  nest(0, {});
  // Verification samples: every iteration variable uniform over its whole range (3.3, Fig. 3-4).
  const random = new RandomStream(config.seed, `calibrate/${config.platform.name}/${spec.name}`);
  for (let k = 0; k < config.vcount; k++) {
    const iteration: Record<string, number> = {};
    for (const r of ranges) {
      const lo = Math.ceil(Math.min(r.start, r.stop));
      const hi = Math.floor(Math.max(r.start, r.stop));
      iteration[r.id] = lo + random.int(hi - lo + 1);
    }
    samples.push(plan(iteration, true));
  }
  checkPlan(samples, spec, whereOn, nodes);
  return samples;
}

/** The most samples one model's loop nest may make (as one loop's values). */
const MAX_SAMPLES = 100_000;

/**
 * Refuses names that would hide another: an input or loop named like a machine constant
 * (P, logP, ...) or an input named like a loop variable replaced it silently (P:i made P
 * mean i in the terms and the task; logP:logP, the constant as a column, hides nothing),
 * and names every object already has (__proto__) made nonsense of the samples.
 */
function checkNames(spec: ModelSpec, machineNames: readonly string[], where: string): void {
  const loops = spec.loops.map((l) => l.id);
  for (const id of [...loops, ...spec.inputs.map((v) => v.id), ...spec.terms.map((v) => v.id)]) {
    if (id in Object.prototype) throw new InputError(`${where}: the name ${id} is one every JavaScript object has; expected another name`);
  }
  for (const id of loops) {
    if (machineNames.includes(id)) throw new InputError(`${where}: loop ${id} has the name of a machine constant (${machineNames.join(', ')}), which it would hide; expected another name`);
  }
  for (const { id, value } of spec.inputs) {
    // logP:logP makes the constant a column (strata.spec); P:i made P mean i.
    if (value === id) continue;
    const hides = machineNames.includes(id) ? 'a machine constant' : loops.includes(id) ? 'a loop variable' : null;
    if (hides !== null) throw new InputError(`${where}: input ${id} has the name of ${hides}, which it would hide (${id}:${id} would make it a column); expected another name`);
  }
}

/**
 * Every planned sample's arguments within its operations' ranges, and its inputs and
 * terms finite exact numbers, before anything runs: a term dividing by zero, a hop
 * count beyond the machine or a block beyond the limit is a bad spec (InputError),
 * found at planning, not a failed run halfway through — and no sample line is ever
 * written with NaN or Infinity in it.
 */
function checkPlan(samples: readonly PlannedSample[], spec: ModelSpec, where: string, nodes: number): void {
  const calls = [
    ...spec.setup.map((call, i) => ({ call, args: (s: PlannedSample) => s.setup[i] })),
    { call: spec.task, args: (s: PlannedSample) => s.task },
    ...spec.cleanup.map((call, i) => ({ call, args: (s: PlannedSample) => s.cleanup[i] })),
  ];
  const names = columnNames(spec);
  const at = (s: PlannedSample) => {
    const point = Object.entries(s.point).map(([k, v]) => `${k}=${v}`).join(' ');
    return `${s.verify ? 'verification sample' : 'sample'}${point === '' ? '' : ` ${point}`}`;
  };
  for (const s of samples) {
    for (const { call, args } of calls) {
      // App tasks check their parameters as the app does (runConfig); Strata operations here.
      const ranges = appTask(call.name) === undefined ? OPERATIONS[call.name].args : [];
      ranges.forEach((range, k) => {
        const problem = argProblem(range, args(s)[k], nodes);
        if (problem !== null) throw new InputError(`${where}: ${call.name} ${problem}, at ${at(s)}`);
      });
    }
    s.columns.forEach((v, k) => {
      if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) {
        throw new InputError(`${where}: ${k < spec.inputs.length ? 'input' : 'term'} ${names[k]} is ${v} at ${at(s)}; expected a finite number of magnitude at most 2^53 - 1 (a division by zero, hops() of a node beyond the machine, or stencilChain() of a grid its processors cannot split?)`);
      }
    });
  }
}

function* runCall(rt: Runtime<CalibrationGlobals>, name: string, args: readonly number[]): Op<number | void> {
  return yield* OPERATIONS[name].run(rt, args);
}

/** Runs one unit on its own simulated machine and returns its lines. */
export function runUnit(config: UnitConfig): string {
  const unit = startUnit(config);
  unit.run.advance(Infinity);
  return unit.text();
}

/**
 * runUnit in the main thread, stoppable: the run gives the event loop a turn every
 * chunk of events and throws RunStopped once `stop` is aborted (src/runtime/stoppable-run.ts); the
 * same lines as runUnit's.
 */
export async function runUnitStoppable(config: UnitConfig, stop: AbortSignal): Promise<string> {
  const unit = startUnit(config);
  await advanceToEnd(unit.run, stop);
  return unit.text();
}

/** A unit's machine, built and started, and its lines once the run has ended. */
function startUnit(config: UnitConfig): { run: AppRun; text: () => string } {
  const { spec, platform } = config;
  if (appTask(spec.task.name) !== undefined) throw new InputError(`${config.source}: ${spec.task.name} runs an app: run its unit with runAppUnit (app-units.ts)`);
  const samples = planUnit(config);
  let times: number[] = [];
  const app = defineApp({
    name: `calibrate-${spec.name}`,
    description: `calibration samples for ${spec.name}`,
    params: {},
    globals: calibrationGlobals,
    *main(rt: Runtime<CalibrationGlobals>): Op<number[]> {
      preparePorts(rt);
      yield* rt.barrier();
      const own: number[] = [];
      // With noise, or on a platform with timer interrupts, every sample is taken three
      // times and the median kept (thesis 3.4.1).
      const hasInterrupts = platform.timerInterrupt !== null;
      const repeats = config.noise === true || hasInterrupts ? 3 : 1;
      const noise = new RandomStream(config.seed, `calibrate/noise/${platform.name}/${spec.name}`);
      for (const s of samples) {
        const timings: number[] = [];
        for (let r = 0; r < repeats; r++) {
          for (let c = 0; c < s.setup.length; c++) yield* runCall(rt, spec.setup[c].name, s.setup[c]);
          const start = rt.cycleCount();
          const measured = yield* runCall(rt, spec.task.name, s.task);
          // A task that collects its own sample (thesis 6.3) reports it; the rest are timed.
          const t = typeof measured === 'number' ? measured : rt.elapsedCycles(start);
          if (!Number.isFinite(t)) throw new RunFailure(`${config.source}: ${spec.task.name} measured ${t} cycles; a sample must be a finite number`);
          timings.push(config.noise === true ? noisyTime(t, platform.clockMHz, noise, hasInterrupts) : t);
          for (let c = 0; c < s.cleanup.length; c++) yield* runCall(rt, spec.cleanup[c].name, s.cleanup[c]);
        }
        own.push(repeats === 3 ? median3(timings[0], timings[1], timings[2]) : timings[0]);
      }
      return own;
    },
    // Node 0's timings are the samples.
    verify({ results }) {
      times = results[0];
      return { ok: true, detail: `${samples.length} samples` };
    },
  });
  const run = new AppRun(runConfig(platform, app, { nodes: config.nodes, seed: config.seed, network: 'packet' }));
  const text = (): string => {
    // The summary verifies the run, which takes node 0's timings.
    run.summary();
    const lines = unitHeader(config);
    samples.forEach((s, i) => lines.push(`${s.verify ? '@' : ''}${spec.name} ${times[i]} ${s.columns.map(formatNumber).join(' ')}`.trimEnd()));
    return `${lines.join('\n')}\n`;
  };
  return { run, text };
}

/** Shortest exact text of a number (integers as integers). */
export function formatNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(12)));
}
