/**
 * Parses the arguments of a run (`sim --platform <p> <app> ...`) into checked
 * values. Anything malformed becomes an InputError with one line saying which
 * argument was wrong and what was expected.
 */
import { parseArgs } from 'node:util';
import { InputError } from '../kernel/errors.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { NETWORK_MODES, type NetworkMode } from '../machine/machine.ts';
import { DEFAULT_NETWORK, DEFAULT_SEED } from '../runtime/run-config.ts';

export interface RunArgs {
  platform: string;
  app: string;
  /** Undefined: the platform's default node count. */
  nodes: number | undefined;
  seed: number;
  params: string[];
  network: NetworkMode;
  json: boolean;
  /** File to write the run's log to (StrataLog entries and global-operation progress). */
  log: string | undefined;
  /** Print each node's last log entry after the run. */
  loglast: boolean;
  /** File to write the state-graph trace to. */
  trace: string | undefined;
  /** Also record packets in flight per destination in the trace. */
  traceNetwork: boolean;
  /** Also record every message (sender, receiver, times) in the trace. */
  traceMessages: boolean;
  /** File to write a repro of the run to (src/cli/repro.ts). */
  record: string | undefined;
  /** Schedule-perturbation seed, or undefined for none. */
  perturb: number | undefined;
  /** Directory of app models for `--param k=auto` (default: platforms/models/apps/n<nodes>). */
  models: string | undefined;
  /** Stop a run that has not finished by this simulated cycle (`--max-cycles`). */
  maxCycles: number;
  /** Stop a run that has not finished after this many events (`--max-events`). */
  maxEvents: number;
}

/**
 * Default `--max-cycles`: 10^10 cycles, 5 minutes of simulated time at 33 MHz. The
 * longest shipped experiment (bench chapter7's 64-round transfers, the 4096-node perf
 * workload, the app calibrations) simulates under 10^8 cycles.
 */
export const DEFAULT_MAX_CYCLES = 10_000_000_000;
/**
 * Default `--max-events`: 10^9 events, some minutes of wall time. The largest shipped
 * run (the 4096-node perf workload W5) takes about 2.2 x 10^6; a runaway stops here.
 */
export const DEFAULT_MAX_EVENTS = 1_000_000_000;

const OPTIONS = {
  platform: { type: 'string', short: 'p' },
  nodes: { type: 'string', short: 'n' },
  seed: { type: 'string', short: 's' },
  param: { type: 'string', multiple: true },
  network: { type: 'string' },
  json: { type: 'boolean' },
  log: { type: 'string' },
  loglast: { type: 'boolean' },
  trace: { type: 'string' },
  'trace-network': { type: 'boolean' },
  'trace-messages': { type: 'boolean' },
  record: { type: 'string' },
  perturb: { type: 'string' },
  models: { type: 'string' },
  'max-cycles': { type: 'string' },
  'max-events': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;

/**
 * `--seed -1` as `--seed=-1`: parseArgs takes a value that starts with a dash for an
 * option of its own, which would report "--seed: takes no value" instead of checking
 * the value. Only a dash followed by a digit is joined (a negative number).
 */
export function joinNegativeValues(argv: readonly string[], options: Record<string, { type: string; short?: string }>): string[] {
  const takesValue = new Set<string>();
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== 'string') continue;
    takesValue.add(`--${name}`);
    if (o.short !== undefined) takesValue.add(`-${o.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (takesValue.has(argv[i]) && i + 1 < argv.length && /^-\d/.test(argv[i + 1])) {
      out.push(argv[i].startsWith('--') ? `${argv[i]}=${argv[i + 1]}` : `${argv[i]}${argv[i + 1]}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

/** Parses argv strictly; unknown options and missing values are InputErrors. */
export function parseArgv(argv: readonly string[]): Parsed {
  try {
    return parseArgs({ args: joinNegativeValues(argv, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new InputError(describeParseError(e));
  }
}

/** Checks the parsed options of a run. */
export function toRunArgs(parsed: Parsed): RunArgs {
  const v = parsed.values;
  if (v.platform === undefined) {
    throw new InputError('missing --platform: expected a platform name (e.g. cm5, alewife, paragon, atm) or a path to a platform file');
  }
  const positionals = parsed.positionals;
  if (positionals.length === 0) throw new InputError('missing app: expected sim --platform <name|file> <app-folder|app-file>');
  if (positionals.length > 1) throw new InputError(`unexpected argument "${positionals[1]}": a run takes one app`);
  if (v['trace-network'] === true && v.trace === undefined) throw new InputError('--trace-network: adds network counters to a trace; expected --trace <file> too');
  if (v['trace-messages'] === true && v.trace === undefined) throw new InputError('--trace-messages: adds messages to a trace; expected --trace <file> too');
  return {
    platform: v.platform,
    app: positionals[0],
    nodes: v.nodes === undefined ? undefined : parseNodes(v.nodes),
    seed: v.seed === undefined ? DEFAULT_SEED : parseSeed(v.seed),
    params: v.param ?? [],
    network: parseNetwork(v.network),
    json: v.json === true,
    log: v.log,
    loglast: v.loglast === true,
    trace: v.trace,
    traceNetwork: v['trace-network'] === true,
    traceMessages: v['trace-messages'] === true,
    record: v.record,
    perturb: v.perturb === undefined ? undefined : parseSeedOption('--perturb', v.perturb),
    models: v.models,
    maxCycles: v['max-cycles'] === undefined ? DEFAULT_MAX_CYCLES : parseLimit('--max-cycles', v['max-cycles']),
    maxEvents: v['max-events'] === undefined ? DEFAULT_MAX_EVENTS : parseLimit('--max-events', v['max-events']),
  };
}

/** A limit: a positive integer, in digits or as 1e9. */
function parseLimit(option: string, s: string): number {
  const n = /^\d+(e\d+)?$/i.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InputError(`${option} ${s}: expected a positive integer (e.g. 1000000 or 1e6) up to 2^53`);
  return n;
}

function parseNodes(s: string): number {
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InputError(`--nodes ${s}: expected a positive integer`);
  return n;
}

function parseSeed(s: string): number {
  return parseSeedOption('--seed', s);
}

function parseSeedOption(option: string, s: string): number {
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n > MAX_SEED) throw new InputError(`${option} ${s}: expected an integer from 0 to ${MAX_SEED}`);
  return n;
}

function parseNetwork(s: string | undefined): NetworkMode {
  if (s === undefined) return DEFAULT_NETWORK;
  if ((NETWORK_MODES as readonly string[]).includes(s)) return s as NetworkMode;
  throw new InputError(`--network ${s}: expected ${NETWORK_MODES.join(' or ')}`);
}

function describeParseError(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const m = /'([^']+)'/.exec(message);
      return `unknown option ${m?.[1] ?? ''} (see sim --help)`.replace('  ', ' ');
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const m = /(--[\w-]+)/.exec(message);
      if (/argument missing/.test(message)) return `${m?.[1] ?? 'an option'}: expected a value`;
      return `${m?.[1] ?? 'an option'}: takes no value`;
    }
    default:
      return message.split('\n')[0];
  }
}

/** `sim graph <trace> -o <file> [--kind states|congestion]`. */
export function parseGraphArgs(argv: readonly string[]): { trace: string; out: string; kind: 'states' | 'congestion' } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { out: { type: 'string', short: 'o' }, kind: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new InputError(`sim graph: ${describeParseError(e)}`);
  }
  if (parsed.positionals.length !== 1) throw new InputError('sim graph: expected one trace file: sim graph <trace> -o <file.svg>');
  if (parsed.values.out === undefined) throw new InputError('sim graph: missing -o <file.svg>: where to write the graph');
  const kind = parsed.values.kind ?? 'states';
  if (kind !== 'states' && kind !== 'congestion') throw new InputError(`sim graph: --kind ${kind}: expected states or congestion`);
  return { trace: parsed.positionals[0], out: parsed.values.out, kind };
}

/** `sim replay <file> [--stop-at <cycle>|event:<n>]`. */
export function parseReplayArgs(argv: readonly string[]): { file: string; stopAt: string | undefined } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { 'stop-at': { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new InputError(`sim replay: ${describeParseError(e)}`);
  }
  if (parsed.positionals.length !== 1) throw new InputError('sim replay: expected one repro file: sim replay <file> [--stop-at <cycle>|event:<n>]');
  return { file: parsed.positionals[0], stopAt: parsed.values['stop-at'] };
}

/** `sim explore <app> --runs N` with a run's options (except --perturb, which it varies). */
export function parseExploreArgs(argv: readonly string[]): { run: RunArgs; runs: number } {
  const runsAt = argv.indexOf('--runs');
  const value = runsAt >= 0 ? argv[runsAt + 1] : undefined;
  if (value === undefined) throw new InputError('sim explore: missing --runs <N>: how many perturbation seeds to try');
  const runs = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(runs) || runs < 1 || runs > 1_000_000) throw new InputError(`--runs ${value}: expected an integer from 1 to 1000000`);
  const rest = [...argv.slice(0, runsAt), ...argv.slice(runsAt + 2)];
  const run = toRunArgs(parseArgv(rest));
  if (run.perturb !== undefined) throw new InputError('sim explore: --perturb is what explore varies; leave it out');
  return { run, runs };
}

/** `sim export --format perfetto <trace> -o <file.json>`. */
export function parseExportArgs(argv: readonly string[]): { trace: string; out: string; format: 'perfetto' } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { out: { type: 'string', short: 'o' }, format: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new InputError(`sim export: ${describeParseError(e)}`);
  }
  if (parsed.values.format !== 'perfetto') {
    throw new InputError(`sim export: --format ${parsed.values.format ?? '(missing)'}: expected --format perfetto`);
  }
  if (parsed.positionals.length !== 1) throw new InputError('sim export: expected one trace file: sim export --format perfetto <trace> -o <file.json>');
  if (parsed.values.out === undefined) throw new InputError('sim export: missing -o <file.json>: where to write the export');
  return { trace: parsed.positionals[0], out: parsed.values.out, format: 'perfetto' };
}
