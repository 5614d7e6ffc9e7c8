/**
 * The options of `npm run bench perf`: `--baseline <git-ref>`, `--same-apps`, `--runs N`
 * and `--only W1,W4`, checked strictly. Owns the recovery of options that npm itself
 * consumed (see parsePerfArgs); knows nothing of git, processes or workloads beyond
 * their ids.
 */
import { parseArgs } from 'node:util';

export interface PerfOptions {
  /** The git ref to compare against, as typed; null: this checkout only. */
  baseline: string | null;
  /**
   * Run this checkout's committed `apps/` on the baseline's engine too, so that a
   * workload whose app changed since the baseline is the same program on both sides.
   */
  sameApps: boolean;
  /** Repetitions of every measurement (each a baseline/this pair with a baseline). */
  runs: number;
  /** Workload ids to run, in the order given; empty: all. */
  only: readonly string[];
}

/** Bad input to the perf suite: reported as one line on stderr, exit status 2. */
export class PerfUsageError extends Error {
  override name = 'PerfUsageError';
}

export const USAGE = 'usage: npm run bench perf -- [--baseline <git-ref> [--same-apps]] [--runs N] [--only W1,W4]';
const DEFAULT_RUNS = 3;
const MAX_RUNS = 100;

const OPTIONS = {
  baseline: { type: 'string' },
  'same-apps': { type: 'boolean' },
  runs: { type: 'string' },
  only: { type: 'string' },
} as const;

/** The options npm may swallow, in the order they are tried; `only` is not among them (see below). */
const NPM_RECOVERABLE = ['baseline', 'runs'] as const;
type Recoverable = (typeof NPM_RECOVERABLE)[number];

/**
 * Parses the arguments after `perf`. Throws PerfUsageError for an unknown option, a
 * missing value, a stray argument, a bad `--runs` or an unknown workload id in
 * `--only` (checked against `workloadIds`).
 *
 * `npm run bench perf --baseline da376e2` (no `--`) does not reach us as typed: npm 7+
 * takes `--baseline` as its own config flag (env `npm_config_baseline=true`, with the
 * warning `"da376e2" is being parsed as a normal command line argument`) and passes
 * only `da376e2`. `--baseline=da376e2` arrives as `npm_config_baseline=da376e2`. When
 * run by `npm run bench` this function reads those back: a value from the env, or,
 * when exactly one flag lost its value, the one stray argument. npm rejects and drops
 * `--only` values (its own `only` config accepts only prod/production), so `--only`
 * needs the `--` form; so does more than one option.
 */
export function parsePerfArgs(argv: readonly string[], workloadIds: readonly string[], env: NodeJS.ProcessEnv): PerfOptions {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true; tokens: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    // Node's message goes on to explain `--` for positionals, which does not apply here.
    const first = e instanceof Error ? e.message.split('\n')[0].split('. ')[0] : String(e);
    throw new PerfUsageError(`bench perf: ${first}; ${USAGE}`);
  }
  // --runs 1 --runs 2 took the last in silence.
  const twice = parsed.tokens?.filter((t) => t.kind === 'option').map((t) => t.name).find((n, i, all) => all.indexOf(n) !== i);
  if (twice !== undefined) throw new PerfUsageError(`bench perf: --${twice} given twice; expected it once`);
  const { 'same-apps': typedSameApps, ...strings } = parsed.values;
  // `npm run bench perf --same-apps` (no `--`) reaches us as npm's config flag, npm_config_same_apps=true.
  const sameApps = typedSameApps ?? (env.npm_lifecycle_event === 'bench' && env.npm_config_same_apps === 'true');
  const values: Partial<Record<Exclude<keyof typeof OPTIONS, 'same-apps'>, string>> = { ...strings };
  const strays = [...parsed.positionals];
  if (env.npm_lifecycle_event === 'bench') recoverFromNpm(values, strays, env);
  if (strays.length > 0) throw new PerfUsageError(`bench perf: unexpected argument "${strays[0]}"; ${USAGE}`);
  const baseline = parseBaseline(values.baseline);
  if (sameApps && baseline === null) throw new PerfUsageError(`bench perf: --same-apps needs --baseline (it says which apps the baseline runs); ${USAGE}`);
  return {
    baseline,
    sameApps,
    runs: parseRuns(values.runs),
    only: parseOnly(values.only, workloadIds),
  };
}

/** Fills `values` from `npm_config_<name>` and takes consumed values out of `strays`. */
function recoverFromNpm(values: Partial<Record<Recoverable | 'only', string>>, strays: string[], env: NodeJS.ProcessEnv): void {
  const swallowed: Recoverable[] = [];
  for (const name of NPM_RECOVERABLE) {
    const fromNpm = env[`npm_config_${name}`];
    if (fromNpm === undefined) continue;
    if (values[name] !== undefined) throw new PerfUsageError(`bench perf: --${name} given twice (once before and once after npm's --)`);
    if (fromNpm === 'true' || fromNpm === '') swallowed.push(name);
    else values[name] = fromNpm;
  }
  if (swallowed.length === 0) return;
  if (swallowed.length === 1 && strays.length === 1) {
    values[swallowed[0]] = strays.pop();
    return;
  }
  const flags = swallowed.map((s) => `--${s}`).join(' and ');
  throw new PerfUsageError(`bench perf: npm consumed ${flags} and cannot say which value belongs to which; pass options after --: ${USAGE}`);
}

function parseBaseline(s: string | undefined): string | null {
  if (s === undefined) return null;
  // A ref starting with '-' would reach git as an option.
  if (s === '' || s.startsWith('-')) throw new PerfUsageError(`bench perf: --baseline "${s}": expected a git ref (a commit, tag or branch)`);
  return s;
}

function parseRuns(s: string | undefined): number {
  if (s === undefined) return DEFAULT_RUNS;
  const n = /^\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_RUNS) throw new PerfUsageError(`bench perf: --runs ${s}: expected an integer from 1 to ${MAX_RUNS}`);
  return n;
}

function parseOnly(s: string | undefined, workloadIds: readonly string[]): readonly string[] {
  if (s === undefined) return [];
  const ids = s.split(',').map((x) => x.trim().toUpperCase());
  // "W1," said "unknown workload (none given)" of a list that names W1.
  if (ids.some((id) => id === '')) throw new PerfUsageError(`bench perf: --only ${JSON.stringify(s)}: an empty name in the list; expected a comma-separated list of ${workloadIds.join(', ')}`);
  const unknown = ids.filter((id) => !workloadIds.includes(id));
  if (unknown.length > 0) throw new PerfUsageError(`bench perf: --only ${s}: unknown workload ${unknown.join(', ')} (expected a comma-separated list of ${workloadIds.join(', ')})`);
  return [...new Set(ids)];
}
