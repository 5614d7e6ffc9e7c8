/**
 * Running an app-level calibration unit (app-tasks.ts): every sample of the unit's
 * plan (samples.ts planUnit) runs the app on fresh machines, one per seed, and the
 * median of the app's timed cycles is the sample, written in the same line format as
 * the Strata units (Fig. 3-7), so sim fit reads both alike.
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { RandomStream } from '../kernel/random-stream.ts';
import { advanceToEnd, AppRun, checkApp, DEFAULT_RUN_LIMITS, machineInfo, runConfig, stopPoint, type AppDefinition, type RunSummary } from '../runtime/index.ts';
import type { Machine } from '../machine/machine.ts';
import { buildTopology } from '../network/build-topology.ts';
import { appTask, median, NOISY_SEEDS } from './app-tasks.ts';
import type { AppRunResult } from './edge-exchange.ts';
import { formatNumber, noisyTime, planUnit, unitHeader, type UnitConfig } from './samples.ts';

/** Any app definition: apps' parameter, input and result types differ, and tasks pass parameters by name. */
// `any` because AppDefinition is invariant in its type parameters and no one instance covers every app.
export type LoadedApp = AppDefinition<any, any, any, any>;

/** One run of the app: its timed cycles (its `cycles` metric) and each node's busy cycles, failing the unit if it did not verify. */
export function appRun(app: LoadedApp, config: UnitConfig, params: Record<string, number | string>, seed: number): AppRunResult {
  const started = startAppRun(app, config, params, seed);
  started.run.advance(Infinity);
  return started.result();
}

/** appRun, stoppable (src/runtime/stoppable-run.ts): the run gives the event loop a turn every chunk of events. */
async function appRunStoppable(app: LoadedApp, config: UnitConfig, params: Record<string, number | string>, seed: number, stop: AbortSignal | undefined): Promise<AppRunResult> {
  const started = startAppRun(app, config, params, seed);
  await advanceToEnd(started.run, stop);
  return started.result();
}

/** One run of the app, started, and its result once it has ended. */
function startAppRun(app: LoadedApp, config: UnitConfig, params: Record<string, number | string>, seed: number): { run: AppRun; result: () => AppRunResult } {
  let machine: Machine | null = null;
  const run = new AppRun({ ...runConfig(config.platform, app, { nodes: config.nodes, seed, network: 'packet', params }), limits: DEFAULT_RUN_LIMITS, inspect: (m) => (machine = m) });
  return { run, result: () => appRunResult(app, config, params, run.summary(), machine) };
}

function appRunResult(app: LoadedApp, config: UnitConfig, params: Record<string, number | string>, summary: RunSummary, machine: Machine | null): AppRunResult {
  if (!summary.verified) throw new RunFailure(`${config.source}: ${config.spec.name} with ${JSON.stringify(params)} did not verify: ${summary.verification}`);
  const cycles = summary.metrics.cycles;
  if (typeof cycles !== 'number') throw new InputError(`${config.source}: app ${app.name} reports no cycles metric to time`);
  return { cycles, busy: machine!.nodes.map((n) => n.busyCycles) };
}

/**
 * Plans an app unit and checks every sample's parameters as the app takes them
 * (runConfig: names, types, ranges; and the app's own check on this machine) before
 * anything runs; returns the plan.
 * @throws InputError naming the model, the sample's loop point and the parameter
 */
export function checkAppUnit(config: UnitConfig, app: LoadedApp): ReturnType<typeof planUnit> {
  const { spec, platform } = config;
  const task = appTask(spec.task.name);
  if (task === undefined) throw new InputError(`${config.source}: ${spec.name} is not an app task`);
  const samples = planUnit(config);
  // The app's own check too (a grid its layout cannot split): it was met only when the sample ran,
  // after the units before it, as "app stencil: layout square puts 4 processors across 3 columns", naming no spec or sample.
  const topology = buildTopology(platform.network, config.nodes);
  const info = machineInfo(platform, config.nodes, topology);
  for (const s of samples) {
    const at = () => `${config.source}: model ${spec.name} on ${platform.name} with ${config.nodes} nodes: ${app.name}`;
    const point = () => `${s.verify ? 'verification sample' : 'sample'} ${Object.entries(s.point).map(([k, v]) => `${k}=${v}`).join(' ')}`;
    let problem: string | null;
    try {
      problem = checkApp(app, runConfig(platform, app, { nodes: config.nodes, params: task.params(s.task, config.nodes) }).params, info);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      throw new InputError(`${at()} ${e.message}, at ${point()}`);
    }
    if (problem !== null) throw new InputError(`${at()}: ${problem}, at ${point()}`);
  }
  return samples;
}

/**
 * Runs one unit whose task is an app: each sample on fresh machines (one per seed),
 * in the same line format as the Strata units (samples.ts). Given `stop` (in the main
 * thread), it gives the event loop a turn between samples and every chunk of a run's
 * events (a custom-collection task's runs excepted), and throws RunStopped once
 * `stop` is aborted (src/runtime/stoppable-run.ts); the same lines either way.
 */
export async function runAppUnit(config: UnitConfig, app: LoadedApp, stop?: AbortSignal): Promise<string> {
  const { spec, platform } = config;
  const task = appTask(spec.task.name)!;
  const samples = checkAppUnit(config, app);
  const seeds = Math.max(task.seeds, platform.timerInterrupt !== null || config.noise === true ? NOISY_SEEDS : 1);
  const noise = new RandomStream(config.seed, `calibrate/noise/${platform.name}/${spec.name}`);
  const lines = unitHeader(config);
  for (const s of samples) {
    if (stop !== undefined) await stopPoint(stop);
    const params = task.params(s.task, config.nodes);
    const times: number[] = [];
    for (let r = 0; r < seeds; r++) {
      const seed = (config.seed + r) >>> 0;
      const t = task.measure === undefined ? (await appRunStoppable(app, config, params, seed, stop)).cycles : task.measure((p) => appRun(app, config, p, seed), s.task, config.nodes);
      times.push(config.noise === true ? noisyTime(t, platform.clockMHz, noise, platform.timerInterrupt !== null) : t);
    }
    lines.push(`${s.verify ? '@' : ''}${spec.name} ${median(times)} ${s.columns.map(formatNumber).join(' ')}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
