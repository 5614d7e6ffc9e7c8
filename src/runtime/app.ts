/**
 * The app-definition API: what an SPMD program module exports. An app has a name,
 * typed parameters with defaults, an optional `setup` that builds shared input from
 * the run seed, a generator `main(rt, params, input)` run on every node, and a
 * `verify` that checks what the nodes returned. Parameter strings from the command
 * line are parsed strictly here.
 */
import { InputError } from '../kernel/errors.ts';
import { LINE_BREAKING, LINE_BREAKING_WORDS } from '../kernel/one-line.ts';
import type { RandomStream } from '../kernel/random-stream.ts';
import type { Op } from '../machine/node.ts';
import type { Runtime } from './runtime.ts';

interface ParamBase {
  /** One line shown by `sim --help`-style listings. */
  doc: string;
}
export interface IntParam extends ParamBase {
  type: 'int';
  default: number;
  min?: number;
  max?: number;
}
export interface FloatParam extends ParamBase {
  type: 'float';
  default: number;
  min?: number;
  max?: number;
}
export interface BoolParam extends ParamBase {
  type: 'bool';
  default: boolean;
}
export interface EnumParam<V extends string = string> extends ParamBase {
  type: 'enum';
  values: readonly V[];
  default: V;
}
export type ParamSpec = IntParam | FloatParam | BoolParam | EnumParam;
export type ParamSpecs = Record<string, ParamSpec>;

/** The parsed parameter values for a set of specs. */
export type ParamValues<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends EnumParam<infer V> ? V : S[K] extends BoolParam ? boolean : number;
};

/** App-defined figures reported with the run (e.g. cycles per round trip by hops). */
export type Metrics = Record<string, number | string | boolean | Record<string, number>>;

export interface Verification {
  ok: boolean;
  /** One line saying what was checked, or what was wrong. */
  detail: string;
  metrics?: Metrics;
}

/**
 * Why what an app's verify returned is not a Verification, or null. Checked because a
 * JavaScript app (or a cast) can return anything, and a truthy ok of "yes" or a NaN
 * metric would pass as a verified run with a summary the JSON cannot hold.
 */
export function verificationProblem(v: unknown): string | null {
  if (v === null || typeof v !== 'object') return `it returned ${v === null ? 'null' : typeof v}`;
  const { ok, detail, metrics } = v as Record<string, unknown>;
  if (typeof ok !== 'boolean') return `its ok is ${describe(ok)}, not true or false`;
  if (typeof detail !== 'string') return `its detail is ${describe(detail)}, not a string`;
  // One line for the summary: a newline or a terminal escape in it reached the terminal as is.
  if (LINE_BREAKING.test(detail)) return `its detail ${describe(detail)} has a character not allowed on one line (${LINE_BREAKING_WORDS}); expected one line of text`;
  if (metrics === undefined) return null;
  if (metrics === null || typeof metrics !== 'object' || Array.isArray(metrics)) return `its metrics are ${describe(metrics)}, not an object`;
  for (const [name, value] of Object.entries(metrics)) {
    if (typeof value === 'string' || typeof value === 'boolean' || isFiniteNumber(value)) continue;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `its metric ${name} is ${describe(value)}`;
    for (const [key, inner] of Object.entries(value)) if (!isFiniteNumber(inner)) return `its metric ${name}.${key} is ${describe(inner)}, not a finite number`;
  }
  return null;
}

function isFiniteNumber(x: unknown): boolean {
  return typeof x === 'number' && Number.isFinite(x);
}

function describe(x: unknown): string {
  if (typeof x === 'number') return String(x);
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}...` : x);
  return x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x;
}

/** What the simulated machine looks like, for setup and verification. */
export interface MachineInfo {
  nodes: number;
  platform: string;
  clockMHz: number;
  /** Hops between two nodes in this machine's topology. */
  hops(src: number, dst: number): number;
  /**
   * The most elements a vector combine takes on this machine: any number (Infinity) over
   * the CM-5's control network, 2^19 - 1 over a combining tree of messages, whose header
   * word announces the length (tree-combine.ts). An app's check can refuse a longer one
   * before the run.
   */
  maxCombineWords: number;
}

export interface SetupContext<P> {
  params: P;
  machine: MachineInfo;
  /** A stream derived from the run seed, for generating input. */
  random: RandomStream;
}

export interface VerifyContext<P, I, R> {
  params: P;
  machine: MachineInfo;
  input: I;
  /** What each node's `main` returned, by node number. */
  results: R[];
}

export interface AppDefinition<S extends ParamSpecs = ParamSpecs, I = unknown, R = unknown, G = undefined> {
  name: string;
  description: string;
  params: S;
  /** Makes one node's variables (`rt.globals`); called once per node before it starts. */
  globals?(): G;
  /** Names of the app's own states for state graphs, numbered from 8 (Strata uses 0-7). */
  states?: Record<number, string>;
  /** Returns a message when the parameters cannot work on this machine (exit 2), else null. */
  check?(params: ParamValues<S>, machine: MachineInfo): string | null;
  /** Builds input shared by all nodes before they start (each node should read only its part). */
  setup?(ctx: SetupContext<ParamValues<S>>): I;
  /** The SPMD program, run on every node. */
  main(rt: Runtime<G>, params: ParamValues<S>, input: I): Op<R>;
  /** Checks the nodes' results; a failed check makes the run exit with status 1. */
  verify(ctx: VerifyContext<ParamValues<S>, I, R>): Verification;
}

/** Declares an app; the identity function, there for type inference. */
export function defineApp<S extends ParamSpecs, I = undefined, R = unknown, G = undefined>(
  def: AppDefinition<S, I, R, G>,
): AppDefinition<S, I, R, G> {
  return def;
}

/**
 * Any app, as the simulator handles it. `any` because an app's parameter, input,
 * result and globals types are its own; the simulator only passes values between
 * the app's own functions and never looks inside them.
 */
export type AnyApp = AppDefinition<any, any, any, any>;

/** A parsed parameter value. */
export type ParamValue = number | boolean | string;

/**
 * Parses `key=value` strings against an app's parameter specs; unspecified
 * parameters take their defaults.
 * @throws InputError naming the parameter and the expected form
 */
export function parseParams(app: AnyApp, assignments: readonly string[]): Record<string, ParamValue> {
  const specs = app.params as ParamSpecs;
  const values: Record<string, ParamValue> = {};
  for (const [key, spec] of Object.entries(specs)) values[key] = spec.default;
  const given = new Map<string, string>();
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new InputError(`--param ${a}: expected key=value`);
    const key = a.slice(0, eq);
    const raw = a.slice(eq + 1);
    // As the command line refuses it: a library caller's ['shift=1', 'shift=2'] ran shift=2.
    const before = given.get(key);
    if (before !== undefined && before !== a) throw new InputError(`--param ${key} given twice ("${before}", then "${a}"); expected each parameter once`);
    given.set(key, a);
    const spec = Object.hasOwn(specs, key) ? specs[key] : undefined;
    if (spec === undefined) {
      const known = Object.keys(specs);
      throw new InputError(
        `--param ${a}: app ${app.name} has no parameter "${key}" (${known.length > 0 ? `expected one of: ${known.join(', ')}` : 'it takes none'})`,
      );
    }
    values[key] = parseValue(spec, raw, `--param ${a}`);
  }
  return values;
}

/** A number as a parameter value is written: decimal, with an optional fraction and exponent. */
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function parseValue(spec: ParamSpec, raw: string, where: string): ParamValue {
  switch (spec.type) {
    case 'int': {
      const digits = /^[+-]?\d+$/.test(raw);
      const v = digits ? Number(raw) : NaN;
      if (Number.isSafeInteger(v)) {
        checkRange(spec, v, where);
        return v;
      }
      // 1e21 is an integer too, written as a number: it was told "expected an integer".
      const asNumber = FLOAT.test(raw) ? Number(raw) : NaN;
      if (digits || Math.abs(asNumber) > Number.MAX_SAFE_INTEGER) throw new InputError(`${where}: past the largest integer a parameter holds exactly (2^53 - 1); expected an integer${range(spec)}`);
      if (Number.isInteger(asNumber)) {
        checkRange(spec, asNumber, where);
        throw new InputError(`${where}: expected an integer${range(spec)} written in digits (${asNumber}, not ${raw})`);
      }
      throw new InputError(`${where}: expected an integer${range(spec)}`);
    }
    case 'float': {
      const v = FLOAT.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(v)) throw new InputError(`${where}: expected a number${range(spec)}`);
      checkRange(spec, v, where);
      return v;
    }
    case 'bool':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new InputError(`${where}: expected true or false`);
    case 'enum':
      if (spec.values.includes(raw)) return raw;
      throw new InputError(`${where}: expected one of ${spec.values.join(', ')}`);
  }
}

function range(spec: IntParam | FloatParam): string {
  if (spec.min !== undefined && spec.max !== undefined) return ` from ${spec.min} to ${spec.max}`;
  if (spec.min !== undefined) return ` >= ${spec.min}`;
  if (spec.max !== undefined) return ` <= ${spec.max}`;
  return '';
}

function checkRange(spec: IntParam | FloatParam, v: number, where: string): void {
  if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) {
    throw new InputError(`${where}: expected ${spec.type === 'int' ? 'an integer' : 'a number'}${range(spec)}`);
  }
}

/** A one-line rendering of parameter values: `rounds=10 shift=1`. */
export function formatParams(values: Record<string, ParamValue>): string {
  const parts = Object.entries(values).map(([k, v]) => `${k}=${v}`);
  return parts.length > 0 ? parts.join(' ') : '(none)';
}
