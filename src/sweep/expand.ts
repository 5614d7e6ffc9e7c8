/**
 * Expands a sweep into its runs in document order — entry, platform, node count,
 * parameters (keys in written order, the first outermost; values in order), seed,
 * network, perturbation — so each run has a stable index. Every parameter
 * combination is parsed (defaults filled) and checked against its app and machine
 * size before anything runs, so a bad value is one line and nothing starts.
 */
import { AppError, InputError } from '../kernel/errors.ts';
import type { NetworkMode } from '../machine/machine.ts';
import { buildTopology, nodeCountProblem } from '../network/build-topology.ts';
import { parseParams, type AnyApp, type MachineInfo, type ParamValue } from '../runtime/app.ts';
import { appObjection, machineInfo } from '../runtime/app-calls.ts';
import { KeyMaker, MAX_SWEEP_RUNS, type InputResolver, type RunInputs, type SweepRun } from './run-model.ts';
import type { SweepEntry, SweepSpec } from './sweep-file.ts';

const list = <T>(v: T | T[] | undefined, fallback: T[]): T[] => (v === undefined ? fallback : Array.isArray(v) ? v : [v]);

export { MAX_SWEEP_RUNS } from './run-model.ts';

/** How many of a list an entry's field holds (one for a single value). */
const lengthOf = (v: unknown): number => (Array.isArray(v) ? v.length : 1);

/** The runs `entry` makes, counted from its lists before anything is expanded (node counts: one each when absent). */
function runCount(entry: SweepEntry): number {
  const params = Object.values(entry.params ?? {}).reduce((n: number, v) => n * lengthOf(v), 1);
  return lengthOf(entry.platform) * lengthOf(entry.nodes) * params * seedsOf(entry).length * lengthOf(entry.network) * perturbsOf(entry).length;
}

/** The seeds a `seeds` or `perturb` field lists (one, a list, or `{ from, count }`), or `absent`. */
function seedList<T>(s: SweepEntry['seeds'], absent: T[]): (number | T)[] {
  if (s !== undefined && !Array.isArray(s) && typeof s === 'object') return Array.from({ length: s.count }, (_, k) => s.from + k);
  return list<number | T>(s as number | number[] | undefined, absent);
}

const seedsOf = (entry: SweepEntry): number[] => seedList(entry.seeds, [1]);
const perturbsOf = (entry: SweepEntry): (number | null)[] => seedList<null>(entry.perturb, [null]);

/**
 * A combination's parameters, parsed as `--param` values. An `auto` the app does not
 * take itself is a run's (resolved from the models before it starts): the parser said
 * only "expected one of square, vstrips, ...", so the message says what a sweep takes.
 */
function parseSweepParams(app: AnyApp, assignments: readonly string[]): Record<string, ParamValue> {
  try {
    return parseParams(app, assignments);
  } catch (e) {
    if (!(e instanceof InputError) || !assignments.some((a) => a.endsWith('=auto'))) throw e;
    throw new InputError(`${e.message} (auto is resolved from the models by sim run, not in a sweep, whose runs record the values they ran; sim select prints what auto resolves to)`);
  }
}

/** Every combination of the parameter lists, the first key outermost, as `key=value` assignments. */
function paramCombinations(params: SweepEntry['params']): string[][] {
  let combos: string[][] = [[]];
  for (const [key, values] of Object.entries(params ?? {})) {
    const vs = Array.isArray(values) ? values : [values];
    combos = combos.flatMap((c) => vs.map((v) => [...c, `${key}=${String(v)}`]));
  }
  return combos;
}

/**
 * The runs of `spec`, in sweep order, with their keys.
 * @throws InputError for more than MAX_SWEEP_RUNS runs; naming the entry for an unknown
 *   platform or app, a bad machine size, parameter or combination, or two entries
 *   that make the same run
 */
export async function expandSweep(spec: SweepSpec, file: string, resolver: InputResolver): Promise<SweepRun[]> {
  const counts = spec.runs.map(runCount);
  const total = counts.reduce((a, b) => a + b, 0);
  if (total > MAX_SWEEP_RUNS) {
    const largest = counts.reduce((best, n, e) => (n > counts[best] ? e : best), 0);
    throw new InputError(
      `${file}: makes ${total} runs (runs[${largest}] alone ${counts[largest]}); a sweep expands and checks every run before it starts, so expected at most ${MAX_SWEEP_RUNS}: split it into several sweep files`,
    );
  }
  const runs: SweepRun[] = [];
  const firstIndex = new Map<string, number>();
  for (const [e, entry] of spec.runs.entries()) {
    const where = `${file}: runs[${e}]`;
    const at = <T>(f: () => T): T => {
      try {
        return f();
      } catch (err) {
        if (err instanceof InputError) throw new InputError(`${where}: ${err.message}`);
        if (err instanceof AppError) throw new AppError(`${where}: ${err.message}`, { cause: err.cause });
        throw err;
      }
    };
    const atAsync = async <T>(p: Promise<T>): Promise<T> => {
      try {
        return await p;
      } catch (err) {
        if (err instanceof InputError) throw new InputError(`${where}: ${err.message}`);
        throw err;
      }
    };
    const app: { app: AnyApp; sha256: string } = await atAsync(resolver.app(entry.app));
    const combos = paramCombinations(entry.params);
    const seeds = seedsOf(entry);
    const networks = list(entry.network, ['packet']) as NetworkMode[];
    const perturbs = perturbsOf(entry);
    for (const platformSpec of list(entry.platform, [])) {
      const platform = await atAsync(resolver.platform(platformSpec));
      for (const nodes of list(entry.nodes, [platform.platform.defaultNodes])) {
        const problem = nodeCountProblem(platform.platform.network, nodes);
        if (problem !== null) throw new InputError(`${where}: nodes ${nodes}: ${problem} (platform ${platformSpec})`);
        let info: MachineInfo | null = null;
        for (const assignments of combos) {
          const params: Record<string, ParamValue> = at(() => parseSweepParams(app.app, assignments));
          if (app.app.check !== undefined) {
            if (info === null) {
              const topology = buildTopology(platform.platform.network, nodes);
              info = machineInfo(platform.platform, nodes, topology);
            }
            const refused = at(() => appObjection(app.app, params, info as MachineInfo));
            if (refused !== null) throw new InputError(`${where}: app ${app.app.name} on ${platformSpec} with ${nodes} nodes and ${assignments.join(' ')}: ${refused}`);
          }
          const keys = new KeyMaker({ simulator: resolver.simulator, platformSha256: platform.sha256, appSha256: app.sha256, params, nodes });
          for (const seed of seeds) {
            for (const network of networks) {
              for (const perturb of perturbs) {
                const inputs: RunInputs = {
                  platform: platformSpec,
                  app: entry.app,
                  platformSha256: platform.sha256,
                  appSha256: app.sha256,
                  simulator: resolver.simulator,
                  params,
                  nodes,
                  seed,
                  network,
                  perturb,
                };
                const key = keys.key(seed, network, perturb);
                const i = runs.length;
                const earlier = firstIndex.get(key);
                if (earlier !== undefined) throw new InputError(`${where}: run ${i} is the same run as run ${earlier} (same platform, app, parameters, nodes, seed, network and perturbation); list it once`);
                firstIndex.set(key, i);
                runs.push({ i, key, inputs });
              }
            }
          }
        }
      }
    }
  }
  return runs;
}
