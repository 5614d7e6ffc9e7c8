/**
 * Builds a run's configuration from a platform, an app and the choices a user makes:
 * parses or checks the parameters and fills every default exactly as `sim` does
 * (the platform's node count, seed 1, the packet network). Pure: no files, no
 * process; loading platforms and apps by name or path is src/cli/run-setup.ts's.
 */
import { InputError, kindOf } from '../kernel/errors.ts';
import { shownArgument } from './words.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { NETWORK_MODES, type NetworkMode } from '../machine/machine.ts';
import { platformShapeProblem } from '../platform/platform-shape.ts';
import type { Platform } from '../platform/schema.ts';
import { appProblem } from './app-check.ts';
import { parseParams, type AnyApp, type ParamSpec, type ParamSpecs, type ParamValue } from './app.ts';
import type { EventObserver } from '../kernel/simulation.ts';
import type { Machine, TraceSink } from '../machine/machine.ts';
import type { LogSink, OutputSink } from './printing.ts';

/**
 * Where a run gives up if it has not finished (`sim --max-cycles`, `--max-events`):
 * a runaway program, or a platform that makes it crawl, then ends in a RunLimitError
 * that lists every node's clock and call. None by default.
 */
export interface RunLimits {
  /** Stop at the first event after this simulated cycle. */
  maxCycles?: number;
  /** Stop after this many events. */
  maxEvents?: number;
}

export interface RunConfig {
  platform: Platform;
  app: AnyApp;
  /** Parsed parameter values (see parseParams). */
  params: Record<string, ParamValue>;
  nodes: number;
  seed: number;
  network: NetworkMode;
  /** Receives Qprintf output as nodes flush it (discarded when absent). */
  output?: OutputSink;
  /** Receives every log entry; when present, global operations log their progress too. */
  log?: LogSink;
  /** Records state changes for a trace file (src/trace/writer.ts). */
  trace?: TraceSink;
  /** Sees every event (replay records and checks runs with it). */
  observer?: EventObserver;
  /** Schedule-perturbation seed (`sim --perturb`); none when absent. */
  perturb?: number;
  /** Sees the machine once it is built, before it runs (for tests and tools that read its counters). */
  inspect?: (machine: Machine) => void;
  /** Limits on a run that does not finish; none when absent. */
  limits?: RunLimits;
}

/** The run seed when none is given (`sim --seed`). */
export const DEFAULT_SEED = 1;

/** The data network when none is given (`sim --network`): packet-level. */
export const DEFAULT_NETWORK: NetworkMode = NETWORK_MODES[0];

/**
 * Everything about a run besides its platform and app, each field optional: the
 * RunConfig fields (nodes default to the platform's `defaultNodes`, not checked
 * against the topology here; seed to DEFAULT_SEED; network to DEFAULT_NETWORK), with
 * `params` as `key=value` strings, parsed strictly as `--param` values are, or as
 * parsed values, checked the same way. Parameters left out take their defaults.
 */
export type RunOptions = Partial<Omit<RunConfig, 'platform' | 'app' | 'params'>> & {
  params?: readonly string[] | Readonly<Record<string, ParamValue>>;
};

/**
 * The RunConfig for running `app` on `platform` with `options`, ready for runApp.
 * @throws InputError naming a parameter the app does not have or a value it refuses
 */
export function runConfig(platform: Platform, app: AnyApp, options: RunOptions = {}): RunConfig {
  // null was a TypeError ("Cannot convert undefined or null to object"), 'x' was "run option 0: unknown", [] was taken.
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InputError(`runConfig: expected the run options as an object { ${OPTION_NAMES.map((n) => `${n}?`).join(', ')} }, got ${kindOf(options)}`);
  }
  checkOptions(platform, app, options);
  const { params, nodes, seed, network, ...hooks } = options;
  return {
    ...hooks,
    platform,
    app,
    params: paramValues(app, params ?? []),
    nodes: nodes ?? platform.defaultNodes,
    seed: seed ?? DEFAULT_SEED,
    network: network ?? DEFAULT_NETWORK,
  };
}

/**
 * Checks a RunConfig a caller built by hand (runApp and AppRun take any) as runConfig
 * checks its options: network 'warp' ran the packet network and reported 'warp', seed -1
 * was a bare RangeError, log: 5 a TypeError blamed on the app, an unknown field was
 * ignored, and params {} (no defaults filled in) deadlocked.
 * @throws InputError naming the field and what was expected
 */
export function checkRunConfig(config: RunConfig): void {
  const { platform, app, params, ...options } = config;
  checkOptions(platform, app, options);
  checkParamValues(app, params);
}

/**
 * Checks that `params` holds a value the app takes for each of its parameters, and
 * nothing else (as runConfig gives them, defaults filled in).
 * @throws InputError naming the parameter
 */
export function checkParamValues(app: AnyApp, params: Readonly<Record<string, ParamValue>>): void {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) throw new InputError(`params: expected an object of the app's parameter values (runConfig gives one), got ${kindOf(params)}`);
  paramValues(app, params);
  const missing = Object.keys(app.params).filter((k) => !Object.hasOwn(params, k));
  if (missing.length > 0) throw new InputError(`params: no value for ${missing.join(', ')}; expected every parameter of app ${app.name} (runConfig fills in the defaults)`);
}

/** The options runConfig takes (RunConfig's, less platform and app). */
const OPTION_NAMES = ['params', 'nodes', 'seed', 'network', 'output', 'log', 'trace', 'observer', 'perturb', 'inspect', 'limits'] as const satisfies readonly (keyof RunOptions)[];

const isSeed = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_SEED;

/**
 * Checks what a library caller passes as it would be checked on the command line: a
 * plain {} as the platform failed deep in the machine with a TypeError, network 'warp'
 * ran the packet network and reported 'warp', seed -1 threw a bare RangeError, and a
 * misspelt option was ignored.
 * @throws InputError naming the option and what was expected
 */
function checkOptions(platform: Platform, app: AnyApp, options: RunOptions): void {
  const p = platform as Partial<Platform> | null;
  if (p === null || typeof p !== 'object' || typeof p.name !== 'string' || typeof p.network !== 'object' || typeof p.cpu !== 'object') {
    throw new InputError('platform: expected a platform (loadPlatform or parsePlatform gives one)');
  }
  // An edited copy missing a key ({ ...cm5, cpu: {} }) ran to NaN cycles and "verified".
  const shape = platformShapeProblem(platform);
  if (shape !== null) throw new InputError(shape);
  const bad = badNumber(platform, 'platform');
  if (bad !== null) throw new InputError(`${bad}; expected a finite number of 0 or more (a platform as loadPlatform or parsePlatform gives it)`);
  // Cycles become microseconds through it: 0 made every time Infinity.
  if (!(platform.clockMHz > 0)) throw new InputError(`platform.clockMHz is ${platform.clockMHz}; expected a clock above 0 MHz`);
  const a = app as Partial<AnyApp> | null;
  if (a === null || typeof a !== 'object' || typeof a.name !== 'string' || typeof a.main !== 'function') throw new InputError('app: expected an app (loadApp or defineApp gives one)');
  // As loadApp checks a file's: params missing made a TypeError in parseParams, a NaN default ran as NaN.
  const appIssue = appProblem(app, 'an app made with defineApp');
  if (appIssue !== null) throw new InputError(`app ${a.name}: ${appIssue}`);
  for (const key of Object.keys(options)) {
    if (!(OPTION_NAMES as readonly string[]).includes(key)) throw new InputError(`run option ${key}: unknown (expected ${OPTION_NAMES.join(', ')})`);
  }
  const { params, nodes, seed, network, perturb } = options;
  if (params !== undefined && (params === null || typeof params !== 'object' || (Array.isArray(params) && params.some((x) => typeof x !== 'string')))) {
    throw new InputError(`params: expected key=value strings or an object of values, got ${JSON.stringify(params)}`);
  }
  // Named as what they are: '16' read "nodes 16: expected a positive integer", as if 16 were refused.
  if (nodes !== undefined && !(Number.isInteger(nodes) && nodes >= 1)) throw new InputError(`nodes ${shownArgument(nodes)}: expected a positive integer`);
  if (seed !== undefined && !isSeed(seed)) throw new InputError(`seed ${shownArgument(seed)}: expected an integer from 0 to ${MAX_SEED}`);
  if (perturb !== undefined && perturb !== null && !isSeed(perturb)) throw new InputError(`perturb ${shownArgument(perturb)}: expected a perturbation seed, an integer from 0 to ${MAX_SEED}`);
  if (network !== undefined && !NETWORK_MODES.includes(network)) throw new InputError(`network ${String(network)}: expected ${NETWORK_MODES.join(' or ')}`);
  checkLimits(options.limits);
  // Each was called mid-run, and its TypeError blamed the app ("node 0 at cycle 63: TypeError: this.sink is not a function").
  for (const hook of ['output', 'log', 'observer', 'inspect'] as const) {
    const f = options[hook];
    if (f !== undefined && typeof f !== 'function') throw new InputError(`${hook}: expected a function, got ${typeof f}`);
  }
  const trace = options.trace as Record<string, unknown> | undefined | null;
  if (trace !== undefined) {
    if (trace === null || typeof trace !== 'object' || typeof trace.state !== 'function') throw new InputError('trace: expected a trace sink { state(node, cycle, state), inFlight?, message? }');
    for (const key of ['inFlight', 'message']) if (trace[key] !== undefined && typeof trace[key] !== 'function') throw new InputError(`trace.${key}: expected a function or none, got ${typeof trace[key]}`);
  }
}

/** A run's limits: positive whole numbers of cycles or events ({ maxCycles: 'x' } was a RangeError from the kernel; { maxEvents: 'x' } was ignored). */
function checkLimits(limits: unknown): void {
  if (limits === undefined) return;
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) throw new InputError(`limits: expected { maxCycles?, maxEvents? }, got ${JSON.stringify(limits)}`);
  for (const [key, value] of Object.entries(limits)) {
    if (key !== 'maxCycles' && key !== 'maxEvents') throw new InputError(`limits.${key}: unknown (expected maxCycles, maxEvents)`);
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) throw new InputError(`limits.${key} ${String(value)}: expected a whole number from 1 to 2^53 - 1`);
  }
}

/**
 * The first number in a platform object that no platform file can hold (every one of a
 * platform's numbers is finite and not negative; the schema checks files, and this the
 * objects a library caller edits): { ...cm5, messaging: { ...m, sendOverheadCycles: NaN } }
 * ran to NaN simulated cycles and reported "verified". Null when there is none.
 */
function badNumber(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? null : `${path} is ${value}`;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, v] of Object.entries(value)) {
    const found = badNumber(v, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

function isAssignments(params: RunOptions['params']): params is readonly string[] {
  return Array.isArray(params);
}

/**
 * Every parameter's value: strings through parseParams; parsed values checked by
 * type, then through parseParams as their string form (names, ranges, enum values),
 * and kept as given.
 */
function paramValues(app: AnyApp, params: NonNullable<RunOptions['params']>): Record<string, ParamValue> {
  if (isAssignments(params)) return parseParams(app, params);
  const specs = app.params as ParamSpecs;
  const assignments: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const spec = Object.hasOwn(specs, key) ? specs[key] : undefined;
    if (spec !== undefined && typeof value !== valueType(spec)) {
      throw new InputError(`param ${key}: expected a ${valueType(spec)} for a ${spec.type} parameter, got ${typeof value} ${String(value)}`);
    }
    assignments.push(`${key}=${String(value)}`);
  }
  return Object.assign(parseParams(app, assignments), params);
}

function valueType(spec: ParamSpec): 'number' | 'boolean' | 'string' {
  return spec.type === 'bool' ? 'boolean' : spec.type === 'enum' ? 'string' : 'number';
}
