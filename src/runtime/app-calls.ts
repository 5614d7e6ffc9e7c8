/**
 * How a run calls into an app: its check (checkApp for a library caller, appObjection
 * for arguments the simulator made), what the check and setup learn of the machine
 * (machineInfo), its own functions with what they throw made the app's error
 * (appCall), its main started as a generator, and what verify returned read once.
 * run-app.ts, a sweep's expansion and app calibration call an app through these.
 */
import { AppError, describeThrown, InputError, kindOf, RunFailure, SimError } from '../kernel/errors.ts';
import { LINE_BREAKING, LINE_BREAKING_WORDS } from '../kernel/one-line.ts';
import type { Platform } from '../platform/schema.ts';
import type { AnyApp, MachineInfo, ParamValue, Verification } from './app.ts';
import { checkParamValues } from './run-config.ts';
import type { Runtime } from './runtime.ts';
import { MAX_TREE_VECTOR } from './tree-combine.ts';
import { shownArgument } from './words.ts';

/**
 * The app's objection to `params` on this machine (its check), or null; a run and a
 * sweep's expansion ask alike (a sweep refused every combination of a check that
 * returned nothing, and reported one that threw as a simulator bug). For a library
 * caller: its arguments are checked first (checkApp(undefined, ...) was a TypeError,
 * and params or a machine left out a TypeError blamed on the app's check).
 * @throws AppError if check throws; InputError if it returns neither a string nor null,
 *   or for arguments that are not an app, its parameter values and a machine
 */
export function checkApp(app: AnyApp, params: Record<string, ParamValue>, info: MachineInfo): string | null {
  if (app === null || typeof app !== 'object' || typeof app.name !== 'string') throw new InputError(`checkApp: expected an app (loadApp or defineApp gives one), got ${kindOf(app)}`);
  checkParamValues(app, params);
  const i = info as Partial<MachineInfo> | null;
  if (i === null || typeof i !== 'object' || !(Number.isInteger(i.nodes) && (i.nodes as number) >= 1) || typeof i.platform !== 'string' || !((i.clockMHz as number) > 0) || typeof i.hops !== 'function' || !((i.maxCombineWords as number) >= 1)) {
    throw new InputError(`checkApp: expected the machine { nodes, platform, clockMHz, hops, maxCombineWords } the app's check is given (machineInfo gives it), got ${kindOf(info)}`);
  }
  return appObjection(app, params, info);
}

/** checkApp of arguments the simulator made itself (a run's, a sweep's expansion, a calibration's): not checked again. */
export function appObjection(app: AnyApp, params: Record<string, ParamValue>, info: MachineInfo): string | null {
  const problem: unknown = appCall(app, 'check', () => app.check?.(params, info));
  if (problem === undefined || problem === null) return null;
  if (typeof problem !== 'string') throw new InputError(`app ${app.name}: check returned ${typeof problem}; expected null (the parameters are fine) or a string saying what is wrong`);
  // An empty message refused the run as "sim: app x: " and nothing more (a JavaScript check's '' for "fine").
  if (problem === '') throw new InputError(`app ${app.name}: check returned an empty string; expected null (the parameters are fine) or a string saying what is wrong`);
  // The message is sim's one line (exit 2): a newline in it reached stderr as two, as verify's detail once did.
  if (LINE_BREAKING.test(problem)) throw new InputError(`app ${app.name}: check returned ${JSON.stringify(problem.length > 80 ? `${problem.slice(0, 80)}...` : problem)}, which has a character not allowed on one line (${LINE_BREAKING_WORDS}); expected one line saying what is wrong`);
  return problem;
}

/**
 * What an app's check and setup learn of the machine (MachineInfo), for a run, a sweep's
 * expansion and a calibration alike (they built it apart, and only a run's hops checked
 * the node numbers).
 */
export function machineInfo(platform: Platform, nodes: number, topology: { hops(a: number, b: number): number }): MachineInfo {
  return {
    nodes,
    platform: platform.name,
    clockMHz: platform.clockMHz,
    hops: (a, b) => {
      // As rt.hopsTo: a node the machine does not have was given a distance.
      for (const n of [a, b]) if (!Number.isInteger(n) || n < 0 || n >= nodes) throw new RunFailure(`machine.hops(${shownArgument(a)}, ${shownArgument(b)}): expected node numbers from 0 to ${nodes - 1}`);
      return topology.hops(a, b);
    },
    maxCombineWords: platform.controlNetwork === null ? MAX_TREE_VECTOR : Infinity,
  };
}

/**
 * Runs one of the app's own functions; what it throws becomes the app's error, naming the
 * function. An InputError it throws (refusing its parameters, say) names the app, as its
 * check's refusal does: "sim: cannot draw input" named nothing.
 */
export function appCall<T>(app: AnyApp, what: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    const named = `app ${app.name}: `;
    if (e instanceof InputError && !e.message.startsWith(named)) throw new InputError(named + e.message, { cause: e });
    if (e instanceof SimError) throw e;
    throw new AppError(`app ${app.name}: ${what} threw ${describeThrown(e)}`, { cause: e });
  }
}

/**
 * What verify returned, its fields read once into plain data (so a getter runs inside the
 * app's call, and not again), or the value itself when it is no object (verificationProblem says so).
 */
export function plainVerification(v: unknown): Verification {
  if (v === null || typeof v !== 'object') return v as Verification;
  const { ok, detail, metrics } = v as Record<string, unknown>;
  const copy = (x: unknown): unknown => (x !== null && typeof x === 'object' && !Array.isArray(x) ? { ...x } : x);
  const plainMetrics = metrics !== null && typeof metrics === 'object' && !Array.isArray(metrics) ? Object.fromEntries(Object.entries(metrics).map(([k, x]) => [k, copy(x)])) : metrics;
  return { ok, detail, ...(metrics === undefined ? {} : { metrics: plainMetrics }) } as Verification;
}

/** Calls the app's main; one that is not a generator function is bad input (the runtime runs main with yield*). */
export function startMain(app: AnyApp, rt: Runtime<unknown>, params: Record<string, ParamValue>, input: unknown): ReturnType<AnyApp['main']> {
  const program = app.main(rt, params, input);
  const iterable = program !== null && typeof program === 'object' && typeof (program as { next?: unknown }).next === 'function';
  if (!iterable) {
    throw new InputError(`app ${app.name}: main must be a function* (a generator function, whose runtime calls are made with yield*); it returned ${program === undefined ? 'nothing' : typeof program}`);
  }
  return program;
}
