/**
 * High-level library modules and the selector (thesis 1.1 Fig. 1-1, 4.2, 5.5). A
 * module has one interface (its inputs), several variants (an app with fixed
 * parameters), a calibrated model per variant, preconditions (a variant that cannot
 * take an input predicts Infinity there, 4.4.2) and tunable parameters, optimized
 * first; the selector then "computes a predicted execution time for each
 * implementation and the one with the minimum predicted time is chosen as the
 * winner" (4.2). Ties go to the variant declared first; when every variant is
 * Infinity no implementation covers the input, which is bad input.
 */
import { chainCosts, type ChainCosts } from '../calibrate/stencil-chain.ts';
import { InputError, kindOf } from '../kernel/errors.ts';
import { packetFacts, type PacketFacts } from '../platform/packets.ts';
import type { Platform } from '../platform/schema.ts';
import type { FloatParam, IntParam } from '../runtime/index.ts';
import type { Communication } from './extra-lines.ts';
import { evaluate, type Columns, type ModelSet } from './model-set.ts';

/** A module's inputs by name (e.g. width, height, iters). */
export type Inputs = Readonly<Record<string, number>>;
/** App parameters by name. */
export type Params = Record<string, number | string>;

/**
 * What selection needs besides the inputs: the models, the machine's size and clock,
 * and the platform's packet facts the models count with (PacketFacts): data words a
 * block-transfer packet carries (the stencil models count packets), vector words a
 * combine message carries (the RadixSort models count them), whether reductions climb
 * a tree of messages, and a DMA packet's link and receive cycles (the stencil models'
 * queued edges); and the costs of the stencil's critical chain
 * (src/calibrate/stencil-chain.ts).
 */
export interface SelectContext extends PacketFacts, ChainCosts {
  models: ModelSet;
  nodes: number;
  clockMHz: number;
  /** How the stencil's extra rows and columns are chosen: the shortest critical chain (the default), or eq. 40 with the factored (eq. 38) or hybrid (eq. 54) Communication, which needs `models` to have the hybrid models. */
  communication?: Communication;
}

/** The context a platform's models are used in at a machine size: its clock, its packet facts and the stencil chain's costs. */
export function selectContext(platform: Pick<Platform, 'clockMHz' | 'cpu' | 'messaging' | 'network' | 'controlNetwork'>, nodes: number, models: ModelSet, communication?: Communication): SelectContext {
  return { models, nodes, clockMHz: platform.clockMHz, ...packetFacts(platform), ...chainCosts(platform), ...(communication === undefined ? {} : { communication }) };
}

/** A tunable's result: the parameter values chosen and what the optimizer did. */
export interface Tuned {
  params: Params;
  /** One line per optimized parameter (method, range, steps, disagreements). */
  notes: string[];
  /** Predicted benefit of the tuned values over the untuned ones, as a fraction (T_untuned / T_tuned - 1), if the tunable predicts one. */
  benefit?: number;
}

export interface Variant {
  name: string;
  /** The app folder that implements it. */
  app: string;
  /** Parameters that make the app this variant. */
  fixed: Params;
  /** Its model's name in the model set. */
  model: string;
  /** Parameters optimized before selection (5.5), with their ranges, for listings. */
  tunables: readonly string[];
  /**
   * Tunables whose values come from a composite model (a factored one, 8.1:
   * "fundamentally less accurate", or a hybrid one, 8.1.3) rather than the variant's
   * own calibrated one: they are worked out and
   * reported with their predicted benefit, but applied only when asked for (`auto`).
   */
  advisory?: readonly string[];
  /** Why the variant cannot take this input, or null (4.4.2: then it predicts Infinity). */
  problem(x: Inputs, ctx: SelectContext): string | null;
  /**
   * Why it cannot take the input with these tuned or given values, or null: a value given
   * (an app's default aspect under layout=auto) may not fit where a tuned one would.
   */
  tunedProblem?(x: Inputs, tuned: Params, ctx: SelectContext): string | null;
  /** Optimizes the tunables (5.1); absent when there are none. */
  tune?(x: Inputs, ctx: SelectContext): Tuned;
  /** Predicted cycles with the tuned parameters; by default the model on `columns`. */
  predict(x: Inputs, tuned: Params, ctx: SelectContext): number;
  /**
   * The inputs' ranges the shipped calibration sampled its model on, where the prediction
   * is no extrapolation; outside one, select says so in the prediction's notes (a sample
   * sort of 65,536 keys a node, 16 times past its samples, was predicted 53% fast).
   */
  calibrated?: Readonly<Record<string, { readonly min: number; readonly max: number; readonly source: string }>>;
}

export interface InterfaceInput {
  name: string;
  doc: string;
  min: number;
  max: number;
}

export interface LibraryModule {
  name: string;
  description: string;
  /** The app folders whose `auto` parameters this module resolves. */
  apps: readonly string[];
  inputs: readonly InterfaceInput[];
  variants: readonly Variant[];
  /** Why no variant can take these inputs on this machine, or null: what every variant's app refuses (a grid or key count beyond what the host holds). */
  inputProblem?(x: Inputs, ctx: SelectContext): string | null;
  /** The tunables' parameter specs in their apps (an integer digitBits from 1 to 16), which a pinned value must meet. */
  tunableSpecs?: Readonly<Record<string, IntParam | FloatParam>>;
}

export interface Prediction {
  variant: string;
  app: string;
  /** Predicted cycles; Infinity where the variant cannot take the input. */
  cycles: number;
  micros: number;
  /** The app's parameters for this variant: fixed, tuned and the inputs. */
  params: Params;
  /** Why it cannot take the input, or null. */
  problem: string | null;
  notes: string[];
  benefit?: number;
}

export interface Choice {
  module: string;
  variant: string;
  app: string;
  params: Params;
  cycles: number;
  micros: number;
  /** Every variant, in declaration order. */
  predictions: Prediction[];
}

/** Checks the inputs against the interface: every one given, an integer in range, nothing extra. */
export function checkInputs(mod: LibraryModule, x: Inputs): void {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) throw new InputError(`module ${mod.name}: expected the inputs as an object { ${mod.inputs.map((i) => i.name).join(', ')} }, got ${kindOf(x)}`);
  for (const key of Object.keys(x)) {
    if (!mod.inputs.some((i) => i.name === key)) throw new InputError(`module ${mod.name}: unknown input ${key} (expected ${mod.inputs.map((i) => i.name).join(', ')})`);
  }
  for (const i of mod.inputs) {
    const v = x[i.name];
    if (v === undefined) throw new InputError(`module ${mod.name}: missing input ${i.name} (${i.doc})`);
    if (!Number.isInteger(v) || v < i.min || v > i.max) throw new InputError(`module ${mod.name}: input ${i.name}=${v}: expected an integer from ${i.min} to ${i.max}`);
  }
}

/**
 * `m` frozen with its lists and variants: loadSelection hands a program the one copy
 * every selection in the process uses, and one that dropped a variant from its
 * `variants` (or changed one) changed every later chooseImplementation.
 */
export function frozenModule(m: LibraryModule): LibraryModule {
  for (const v of m.variants) {
    Object.freeze(v.fixed);
    Object.freeze(v.tunables);
    if (v.advisory !== undefined) Object.freeze(v.advisory);
    Object.freeze(v);
  }
  for (const i of m.inputs) Object.freeze(i);
  Object.freeze(m.inputs);
  Object.freeze(m.apps);
  Object.freeze(m.variants);
  if (m.tunableSpecs !== undefined) Object.freeze(m.tunableSpecs);
  return Object.freeze(m);
}

/** A variant's model on `columns`: the common predict(). */
export function modelCycles(v: Variant, ctx: SelectContext, columns: Columns): number {
  return evaluate(ctx.models.get(v.model, `variant ${v.name}`), columns);
}

/**
 * Predicts every variant (tuning first) and picks the minimum (4.2, 5.5). `pinned`
 * tunables keep the given values instead of being optimized; advisory tunables are
 * applied only when `requested`, and otherwise reported with their plain value, unless
 * `withAdvice` is false: then a variant whose tunables are all advice nobody asked for is
 * not tuned at all (a winner map asks for thousands of choices and no notes).
 */
export function select(mod: LibraryModule, x: Inputs, ctx: SelectContext, pinned: Params = {}, requested: readonly string[] = [], withAdvice = true): Choice {
  checkSelectArguments(mod, ctx, pinned, requested);
  if (typeof withAdvice !== 'boolean') throw new InputError(`select: expected withAdvice true or false, got ${kindOf(withAdvice)}`);
  checkInputs(mod, x);
  // A choice every app refuses was printed as the choice (a 65536 x 65536 grid), and only its run refused it.
  const inputProblem = mod.inputProblem?.(x, ctx) ?? null;
  if (inputProblem !== null) throw new InputError(`module ${mod.name}: ${inputProblem}`);
  const predictions = mod.variants.map((v): Prediction => {
    const inputProblem = v.problem(x, ctx);
    const adviceOnly = v.tunables.every((t) => (v.advisory ?? []).includes(t) && !requested.includes(t) && pinned[t] === undefined);
    const tuned: Tuned = inputProblem === null && v.tune !== undefined && (withAdvice || !adviceOnly) ? v.tune(x, ctx) : { params: {}, notes: [] };
    const advice: string[] = [];
    for (const t of v.advisory ?? []) {
      if (requested.includes(t) || pinned[t] !== undefined || tuned.params[t] === undefined) continue;
      advice.push(`${t}=${tuned.params[t]}`);
      delete tuned.params[t];
    }
    if (advice.length > 0) {
      tuned.notes = [...tuned.notes, `not applied unless asked for (${advice.map((a) => `${a.split('=')[0]}=auto`).join(', ')}): the extra-lines model's advice${tuned.benefit === undefined ? '' : `, predicted benefit ${(tuned.benefit * 100).toFixed(2)}%`}`];
      delete tuned.benefit;
    }
    for (const t of v.tunables) {
      if (pinned[t] === undefined) continue;
      tuned.params[t] = pinned[t];
      tuned.notes = [...tuned.notes.filter((n) => !n.startsWith(`${t} `)), `${t} ${pinned[t]}: given`];
      delete tuned.benefit;
    }
    const problem = inputProblem ?? v.tunedProblem?.(x, tuned.params, ctx) ?? null;
    const cycles = problem === null ? v.predict(x, tuned.params, ctx) : Infinity;
    if (problem === null) tuned.notes = [...tuned.notes, ...extrapolations(v, x)];
    return {
      variant: v.name,
      app: v.app,
      cycles,
      micros: cycles / ctx.clockMHz,
      params: { ...x, ...v.fixed, ...tuned.params },
      problem,
      notes: tuned.notes,
      ...(tuned.benefit === undefined ? {} : { benefit: tuned.benefit }),
    };
  });
  let best = -1;
  predictions.forEach((p, k) => {
    // Strictly less: ties go to the variant declared first.
    if (Number.isFinite(p.cycles) && (best < 0 || p.cycles < predictions[best].cycles)) best = k;
  });
  if (best < 0) {
    throw new InputError(`module ${mod.name}: no variant covers ${Object.entries(x).map(([k, v]) => `${k}=${v}`).join(' ')} (${predictions.map((p) => `${p.variant}: ${p.problem ?? 'no finite prediction'}`).join('; ')})`);
  }
  const p = predictions[best];
  return { module: mod.name, variant: p.variant, app: p.app, params: p.params, cycles: p.cycles, micros: p.micros, predictions };
}

/** A note for each input outside the range `v`'s shipped model was calibrated on. */
function extrapolations(v: Variant, x: Inputs): string[] {
  return Object.entries(v.calibrated ?? {})
    .filter(([input, r]) => x[input] < r.min || x[input] > r.max)
    .map(([input, r]) => `${input} ${x[input]}: outside the ${r.min}-${r.max} the shipped calibration sampled its model on (${r.source}): the prediction extrapolates`);
}

/** Exported through the package: select(null, ...) or a context without models were TypeErrors. */
function checkSelectArguments(mod: LibraryModule, ctx: SelectContext, pinned: Params, requested: readonly string[]): void {
  const m = mod as Partial<LibraryModule> | null;
  if (m === null || typeof m !== 'object' || typeof m.name !== 'string' || !Array.isArray(m.inputs) || !Array.isArray(m.variants)) {
    throw new InputError(`select: expected a library module { name, inputs, variants } (loadSelection gives one: its module), got ${kindOf(mod)}`);
  }
  const c = ctx as Partial<SelectContext> | null;
  if (c === null || typeof c !== 'object' || typeof c.models?.get !== 'function' || !(Number.isInteger(c.nodes) && (c.nodes as number) >= 1) || !((c.clockMHz as number) > 0)) {
    throw new InputError(`select: expected a selection context { models, nodes, clockMHz, ... } (loadSelection gives one: its context), got ${kindOf(ctx)}`);
  }
  if (pinned === null || typeof pinned !== 'object') throw new InputError(`select: expected pinned parameters as an object, got ${kindOf(pinned)}`);
  // A misspelt tunable ({ extraRow: 1 }) was ignored; { extraRows: 'x' } or NaN made the square's prediction NaN, dropped unseen from the choice; -3 was predicted.
  const tunables = [...new Set(m.variants.flatMap((v) => v.tunables))];
  for (const [name, value] of Object.entries(pinned)) {
    if (!tunables.includes(name)) throw new InputError(`select: pinned ${name}: not a tunable of module ${m.name} (expected ${tunables.join(', ') || 'none: it has no tunables'})`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InputError(`select: pinned ${name} ${typeof value === 'string' ? JSON.stringify(value) : String(value)}: expected a finite number of 0 or more`);
    // As the app takes it: digitBits 17 or 2.5 was predicted as if a radix sort could run with it, 0 blamed the models
    // ("predicts Infinity cycles ... refit it"), and extraRows 1.5 or aspect 0 went into the parameters of the choice.
    const spec = m.tunableSpecs !== undefined && Object.hasOwn(m.tunableSpecs, name) ? m.tunableSpecs[name] : undefined;
    if (spec !== undefined && !takes(spec, value)) throw new InputError(`select: pinned ${name} ${value}: expected ${spec.type === 'int' ? 'an integer' : 'a number'}${rangeText(spec)}`);
  }
  if (!Array.isArray(requested)) throw new InputError(`select: expected the requested tunables as a list, got ${kindOf(requested)}`);
  // ['nope'] and [5] were taken and changed nothing, as pinned names are refused.
  for (const name of requested) {
    if (!tunables.includes(name)) throw new InputError(`select: requested ${typeof name === 'string' ? name : kindOf(name)}: not a tunable of module ${m.name} (expected ${tunables.join(', ') || 'none: it has no tunables'})`);
  }
}

/** Whether an int or float app parameter takes `value`, as parseParams checks it. */
function takes(spec: IntParam | FloatParam, value: number): boolean {
  return (spec.type === 'float' || Number.isInteger(value)) && !(spec.min !== undefined && value < spec.min) && !(spec.max !== undefined && value > spec.max);
}

/** A parameter's range as parseParams words it: ' from 1 to 16', ' >= 0', or ''. */
function rangeText(spec: IntParam | FloatParam): string {
  if (spec.min !== undefined && spec.max !== undefined) return ` from ${spec.min} to ${spec.max}`;
  if (spec.min !== undefined) return ` >= ${spec.min}`;
  return spec.max !== undefined ? ` <= ${spec.max}` : '';
}

/** The variant called `name`, or an InputError listing the module's variants. */
export function variantNamed(mod: LibraryModule, name: string): Variant {
  const v = mod.variants.find((w) => w.name === name);
  if (v === undefined) throw new InputError(`module ${mod.name}: unknown variant ${name} (expected one of ${mod.variants.map((w) => w.name).join(', ')})`);
  return v;
}
