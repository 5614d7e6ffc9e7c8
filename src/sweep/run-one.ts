/**
 * Runs one sweep run from its inputs, as every executor does (in the main thread, a
 * tinypool thread, or a BullMQ sandbox on another machine): loads the platform and
 * app through the resolver, refuses inputs made from other files or another
 * simulator version, and returns the result line. A failed run is data (status
 * `failed` with its error), never an exception; only a refusal throws. A run the host
 * stopped (its heap, stack or memory) comes back unrecorded, with no line.
 */
import { InputError, RunFailure, RunLimitError } from '../kernel/errors.ts';
import { AppRun, DEFAULT_RUN_LIMITS } from '../runtime/run-app.ts';
import { advanceToEnd, RunStopped } from '../runtime/stoppable-run.ts';
import { runConfig } from '../runtime/run-config.ts';
import { lineText, type ResultLine, type RunError } from './result-line.ts';
import type { InputResolver, SweepRun } from './run-model.ts';

/** The inputs were made from another checkout: this process must not run them. */
export class InputsMismatch extends Error {
  override name = 'InputsMismatch';
}

/**
 * What an executor gets back from a run: the canonical line and the wall time it took;
 * or, for a run this host could not finish, `unrecorded` (why, one line) and no line.
 */
export interface RunOutcome {
  key: string;
  line: string;
  wallMs: number;
  unrecorded?: string;
}

/** Throws InputsMismatch unless this process's simulator, platform and app hash as the run's inputs say. */
export async function checkInputs(run: SweepRun, resolver: InputResolver): Promise<void> {
  const { inputs } = run;
  const problems: string[] = [];
  if (resolver.simulator !== inputs.simulator) problems.push(`simulator ${resolver.simulator}, the run wants ${inputs.simulator}`);
  const platform = await resolver.platform(inputs.platform);
  if (platform.sha256 !== inputs.platformSha256) problems.push(`platform ${inputs.platform} differs (sha256 ${platform.sha256.slice(0, 12)}, the run wants ${inputs.platformSha256.slice(0, 12)})`);
  const app = await resolver.app(inputs.app);
  if (app.sha256 !== inputs.appSha256) problems.push(`app ${inputs.app} differs (sha256 ${app.sha256.slice(0, 12)}, the run wants ${inputs.appSha256.slice(0, 12)})`);
  if (problems.length > 0) throw new InputsMismatch(`run ${run.i} (${run.key}): this checkout's ${problems.join('; ')}`);
}

/**
 * Runs `run` and returns its line; throws only InputsMismatch (or an error loading this
 * checkout's files), and RunStopped once `stop` is aborted: given one (in the main
 * thread, where SIGINT's handler runs), the run yields between chunks of events to look.
 */
export async function runOne(run: SweepRun, resolver: InputResolver, stop?: AbortSignal): Promise<RunOutcome> {
  try {
    await checkInputs(run, resolver);
  } catch (e) {
    if (e instanceof InputError) throw new InputsMismatch(`run ${run.i} (${run.key}): ${e.message}`);
    throw e;
  }
  const { inputs } = run;
  const start = resolver.wallMs();
  let line: ResultLine;
  try {
    const config = runConfig((await resolver.platform(inputs.platform)).platform, (await resolver.app(inputs.app)).app, {
      params: inputs.params,
      nodes: inputs.nodes,
      seed: inputs.seed,
      network: inputs.network,
      perturb: inputs.perturb ?? undefined,
    });
    // A run that never ends is a failed run of the sweep, not a sweep that never ends.
    const appRun = new AppRun({ ...config, limits: DEFAULT_RUN_LIMITS });
    await advanceToEnd(appRun, stop);
    const summary = appRun.summary();
    line = { i: run.i, key: run.key, inputs, status: summary.verified ? 'verified' : 'unverified', summary, error: null };
  } catch (e) {
    if (e instanceof RunStopped) throw e;
    const host = hostLimit(e);
    if (host !== null) return { key: run.key, line: '', wallMs: resolver.wallMs() - start, unrecorded: `run ${run.i} (${run.key}): ${host}` };
    line = { i: run.i, key: run.key, inputs, status: 'failed', summary: null, error: runError(e) };
  }
  return { key: run.key, line: lineText(line), wallMs: resolver.wallMs() - start };
}

/**
 * runOne for the local executor (the main thread and its worker threads): a run whose
 * inputs are not this checkout's (a platform or app edited since the sweep was
 * expanded; a worker thread loads them afresh) comes back unrecorded, as the queue's
 * workers refuse it, and the sweep goes on. It was thrown: across a thread it lost its
 * class and was reported as "internal error (a bug in the simulator)" with a stack.
 */
export async function runLocalOne(run: SweepRun, resolver: InputResolver, stop?: AbortSignal): Promise<RunOutcome> {
  try {
    return await runOne(run, resolver, stop);
  } catch (e) {
    if (!(e instanceof InputsMismatch)) throw e;
    return { key: run.key, line: '', wallMs: 0, unrecorded: `${e.message}: not the files the sweep was started with (edited since?), so not recorded; run the sweep again` };
  }
}

/**
 * Why a run stopped at a limit of this host rather than of its inputs, or null: the
 * JavaScript heap's (its size and the event it stopped at are the host's and its
 * collector's: 176 MB at event 131,072 under one heap, 208 MB at 180,224 under
 * another), an allocation the host refused, or the thread's stack. Such a stop is
 * not a result: recorded, the same key's line differed between machines (and between
 * --workers 1 and 2), and the sweep never ran it again.
 */
function hostLimit(e: unknown): string | null {
  if (e instanceof RunLimitError && e.limit === 'heap') {
    return `${e.message.split('\n')[0]}: a limit of this host, not of the run, so not recorded; give Node a larger heap (NODE_OPTIONS=--max-old-space-size=<MB>) and run again`;
  }
  const cause = e instanceof RunFailure ? e.cause : e;
  if (cause instanceof RangeError && /allocation failed/i.test(cause.message)) {
    return `${(e as Error).message.split('\n')[0]}: a limit of this host, not of the run, so not recorded; run it where the host can allocate that much, and run again`;
  }
  // How deep a thread's stack reaches is its size (about 1 MB in the main thread, --workers 1;
  // 4 MB in a worker thread) and how much of the code the JIT has compiled: an app recursing
  // 20,000 deep failed with --workers 1 and verified with --workers 2.
  if (cause instanceof RangeError && /call stack size exceeded/i.test(cause.message)) {
    return `${(e as Error).message.split('\n')[0]}: how deep a run may recurse is the host thread's stack, not the run's, so not recorded; make the app recurse less deeply (a worker thread, --workers 2 or more, has a larger stack)`;
  }
  return null;
}

/** A failure as data: its kind and first message line (no stack: paths differ between machines). */
function runError(e: unknown): RunError {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof InputError) return { kind: 'input', message };
  if (e instanceof RunFailure) return { kind: 'run', message: `${e.name}: ${message}` };
  return { kind: 'internal', message: `${e instanceof Error ? e.name : 'Error'}: ${message}` };
}
