/**
 * Parses the arguments of a run (`sim --platform <p> <app> ...`) into checked
 * values. Anything malformed becomes an InputError with one line saying which
 * argument was wrong and what was expected.
 */
import { InputError } from '../kernel/errors.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { NETWORK_MODES, type NetworkMode } from '../machine/machine.ts';
import { DEFAULT_NETWORK, DEFAULT_SEED } from '../runtime/run-config.ts';
import { DEFAULT_RUN_LIMITS } from '../runtime/run-app.ts';
import { parseCommunication, type CommunicationChoice } from './communication-option.ts';
import { intOption, messagePrefix, parseOptions, type OptionValues } from './parse-options.ts';
import { parseProgressSeconds } from './progress.ts';

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
  /** `--communication` and `--hybrid-models` for extraRows=auto and extraCols=auto. */
  communication: CommunicationChoice;
  /** Stop a run that has not finished by this simulated cycle (`--max-cycles`). */
  maxCycles: number;
  /** Stop a run that has not finished after this many events (`--max-events`). */
  maxEvents: number;
  /** `--progress`: seconds between two progress lines on stderr, or null (a terminal's line only). */
  progress: number | null;
}

/** Default `--max-cycles` and `--max-events` (see DEFAULT_RUN_LIMITS for why these). */
export const DEFAULT_MAX_CYCLES = DEFAULT_RUN_LIMITS.maxCycles;
export const DEFAULT_MAX_EVENTS = DEFAULT_RUN_LIMITS.maxEvents;

export type Parsed = { values: OptionValues; positionals: string[] };

/** Parses argv strictly (the options of commands.ts's `run`); unknown options and missing values are InputErrors. */
export function parseArgv(argv: readonly string[]): Parsed {
  return parseOptions('run', argv);
}

const str = (v: OptionValues[string]): string | undefined => (typeof v === 'string' ? v : undefined);

/** Checks the parsed options of a run. */
export function toRunArgs(parsed: Parsed, command = 'run'): RunArgs {
  const v = parsed.values;
  const prefix = messagePrefix(command);
  if (v.platform === undefined) {
    throw new InputError('missing --platform: expected a platform name (e.g. cm5, alewife, paragon, atm) or a path to a platform file');
  }
  const positionals = parsed.positionals;
  // Before the app: `--param apps/ping-pong` took the app for the parameter's value, and was told "missing app".
  const notAssignment = ((v.param as string[] | undefined) ?? []).find((a) => a.indexOf('=') <= 0);
  if (notAssignment !== undefined) throw new InputError(`${prefix}--param ${notAssignment}: expected key=value${positionals.length === 0 ? ' (is it the app? --param takes the word after it)' : ''}`);
  if (positionals.length === 0) throw new InputError(`${prefix}missing app: expected sim ${command === 'run' ? '' : `${command} `}--platform <name|file> <app-folder|app-file>`);
  if (positionals.length > 1) throw new InputError(`${prefix}unexpected argument "${positionals[1]}": ${command === 'run' ? 'a run takes' : 'expected'} one app`);
  if (v['trace-network'] === true && v.trace === undefined) throw new InputError('--trace-network: adds network counters to a trace; expected --trace <file> too');
  if (v['trace-messages'] === true && v.trace === undefined) throw new InputError('--trace-messages: adds messages to a trace; expected --trace <file> too');
  const network = parseNetwork(str(v.network));
  if (v['trace-network'] === true && network === 'analytic') {
    throw new InputError('--trace-network: counts the packets in the packet network; --network analytic has none (leave out one of the two)');
  }
  return {
    platform: v.platform as string,
    app: positionals[0],
    nodes: v.nodes === undefined ? undefined : parseNodes(v.nodes as string),
    seed: v.seed === undefined ? DEFAULT_SEED : parseSeed(v.seed as string),
    params: (v.param as string[] | undefined) ?? [],
    network,
    json: v.json === true,
    log: str(v.log),
    loglast: v.loglast === true,
    trace: str(v.trace),
    traceNetwork: v['trace-network'] === true,
    traceMessages: v['trace-messages'] === true,
    record: str(v.record),
    perturb: v.perturb === undefined ? undefined : parseSeedOption('--perturb', v.perturb as string),
    models: str(v.models),
    communication: parseCommunication(str(v.communication), str(v['hybrid-models'])),
    maxCycles: v['max-cycles'] === undefined ? DEFAULT_MAX_CYCLES : parseLimit('--max-cycles', v['max-cycles'] as string),
    maxEvents: v['max-events'] === undefined ? DEFAULT_MAX_EVENTS : parseLimit('--max-events', v['max-events'] as string),
    progress: parseProgressSeconds(str(v.progress), prefix),
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

/** `sim graph <trace> -o <file> [--kind states|congestion] [--json]`. */
export function parseGraphArgs(argv: readonly string[]): { trace: string; out: string; kind: 'states' | 'congestion'; json: boolean } {
  const { values, positionals } = parseOptions('graph', argv);
  if (positionals.length !== 1) throw new InputError('sim graph: expected one trace file: sim graph <trace> -o <file.svg>');
  if (values.out === undefined) throw new InputError('sim graph: missing -o <file.svg>: where to write the graph');
  const kind = str(values.kind) ?? 'states';
  if (kind !== 'states' && kind !== 'congestion') throw new InputError(`sim graph: --kind ${kind}: expected states or congestion`);
  return { trace: positionals[0], out: values.out as string, kind, json: values.json === true };
}

/** `sim replay <file> [--stop-at <cycle>|event:<n>] [--json]`. */
export function parseReplayArgs(argv: readonly string[]): { file: string; stopAt: string | undefined; json: boolean } {
  const { values, positionals } = parseOptions('replay', argv);
  if (positionals.length !== 1) throw new InputError('sim replay: expected one repro file: sim replay <file> [--stop-at <cycle>|event:<n>]');
  return { file: positionals[0], stopAt: str(values['stop-at']), json: values.json === true };
}

/** Failing seeds that get a repro file unless `--repros` says otherwise. */
export const DEFAULT_EXPLORE_REPROS = 10;

/**
 * `sim explore <app> --runs N [--repros K]` with a run's options (except --perturb, which
 * it varies, and the files of one run).
 */
export function parseExploreArgs(argv: readonly string[]): { run: RunArgs; runs: number; repros: number } {
  const parsed = parseOptions('explore', argv);
  if (parsed.values.runs === undefined) throw new InputError('sim explore: missing --runs <N>: how many perturbation seeds to try');
  const runs = intOption('runs', str(parsed.values.runs), 0, 1, 1_000_000);
  const repros = intOption('repros', str(parsed.values.repros), DEFAULT_EXPLORE_REPROS, 0, 1_000_000);
  return { run: toRunArgs(parsed, 'explore'), runs, repros };
}

/** `sim export --format perfetto <trace> -o <file.json>`. */
export function parseExportArgs(argv: readonly string[]): { trace: string; out: string; format: 'perfetto' } {
  const { values, positionals } = parseOptions('export', argv);
  if (values.format !== 'perfetto') {
    throw new InputError(`sim export: --format ${str(values.format) ?? '(missing)'}: expected --format perfetto`);
  }
  if (positionals.length !== 1) throw new InputError('sim export: expected one trace file: sim export --format perfetto <trace> -o <file.json>');
  if (values.out === undefined) throw new InputError('sim export: missing -o <file.json>: where to write the export');
  return { trace: positionals[0], out: values.out as string, format: 'perfetto' };
}
