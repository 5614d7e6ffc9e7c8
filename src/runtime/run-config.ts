/**
 * Builds a run's configuration from a platform, an app and the choices a user makes:
 * parses or checks the parameters and fills every default exactly as `sim` does
 * (the platform's node count, seed 1, the packet network). Pure: no files, no
 * process; loading platforms and apps by name or path is src/cli/run-setup.ts's.
 */
import { InputError } from '../kernel/errors.ts';
import type { EventObserver } from '../kernel/simulation.ts';
import { NETWORK_MODES, type Machine, type NetworkMode, type TraceSink } from '../machine/machine.ts';
import type { Platform } from '../platform/schema.ts';
import { parseParams, type AnyApp, type ParamSpec, type ParamSpecs, type ParamValue } from './app.ts';
import type { LogSink, OutputSink } from './printing.ts';
import type { RunConfig } from './run-app.ts';

/** The run seed when none is given (`sim --seed`). */
export const DEFAULT_SEED = 1;

/** The data network when none is given (`sim --network`): packet-level. */
export const DEFAULT_NETWORK: NetworkMode = NETWORK_MODES[0];

/** Everything about a run besides its platform and app; each field may be left out. */
export interface RunOptions {
  /**
   * `key=value` strings, parsed strictly as `--param` values are; or parsed values,
   * checked the same way. Parameters left out take their defaults.
   */
  params?: readonly string[] | Readonly<Record<string, ParamValue>>;
  /** Default: the platform's `defaultNodes`. Not checked against the topology here. */
  nodes?: number;
  /** Default: DEFAULT_SEED. */
  seed?: number;
  /** Default: DEFAULT_NETWORK. */
  network?: NetworkMode;
  output?: OutputSink;
  log?: LogSink;
  trace?: TraceSink;
  observer?: EventObserver;
  /** Schedule-perturbation seed; none when absent. */
  perturb?: number;
  /** Sees the machine once it is built (tests and tools that read its counters). */
  inspect?: (machine: Machine) => void;
}

/**
 * The RunConfig for running `app` on `platform` with `options`, ready for runApp.
 * @throws InputError naming a parameter the app does not have or a value it refuses
 */
export function runConfig(platform: Platform, app: AnyApp, options: RunOptions = {}): RunConfig {
  const config: RunConfig = {
    platform,
    app,
    params: paramValues(app, options.params ?? []),
    nodes: options.nodes ?? platform.defaultNodes,
    seed: options.seed ?? DEFAULT_SEED,
    network: options.network ?? DEFAULT_NETWORK,
  };
  if (options.output !== undefined) config.output = options.output;
  if (options.log !== undefined) config.log = options.log;
  if (options.trace !== undefined) config.trace = options.trace;
  if (options.observer !== undefined) config.observer = options.observer;
  if (options.perturb !== undefined) config.perturb = options.perturb;
  if (options.inspect !== undefined) config.inspect = options.inspect;
  return config;
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
