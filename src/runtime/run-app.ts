/**
 * Runs an app on a simulated machine: builds the machine from a platform, gives each
 * node a Runtime running the app's `main`, runs to completion, verifies the results
 * and summarizes the run (the app's own functions are called through app-calls.ts,
 * the summary made by run-summary.ts). Pure library code: no files, no clock, no
 * process — the CLI and worker threads call it the same way, so a run is identical in both.
 */
import { AppError, DeadlockError, describeThrown, InputError, kindOf, RunFailure, RunLimitError, SimError } from '../kernel/errors.ts';
import { Machine } from '../machine/machine.ts';
import { verificationProblem, type AnyApp, type MachineInfo, type ParamValue, type Verification } from './app.ts';
import { appCall, appObjection, machineInfo, plainVerification, startMain } from './app-calls.ts';
import { NodeEngines } from './engines.ts';
import { WORK_PAST_LIMIT, WorkPastLimit } from './local-work.ts';
import { HandlerTable } from './handler-table.ts';
import { Runtime } from './runtime.ts';
import { RunOutput } from './printing.ts';
import { RunStopped, STOP_CHECK_EVENTS, stopPoint } from './stoppable-run.ts';
import { formatNodeClocks, heapNearLimit, HEAP_CHECK_EVENTS, megabytes, stopReport, unfinishedPorts, type StopReport } from './run-stop.ts';
import { checkRunConfig, type RunConfig, type RunLimits } from './run-config.ts';
import { summarize, type RunSummary } from './run-summary.ts';
import { needsPlace, OpSites, takePlace } from './op-sites.ts';

export type { RunConfig, RunLimits } from './run-config.ts';

export type { NodeSnapshot, StopReport } from './run-stop.ts';

export type { RunSummary, Spread } from './run-summary.ts';

/**
 * The limits every run of the simulator's own commands gets unless told otherwise
 * (`sim` runs, sweeps, `sim select --run/--all`, app calibration):
 * - 10^10 cycles, 5 minutes of simulated time at 33 MHz. The longest shipped
 *   experiment (bench chapter7's 64-round transfers, the 4096-node perf workload,
 *   the app calibrations) simulates under 10^8 cycles.
 * - 10^9 events, some minutes of wall time. The largest shipped run (the 4096-node
 *   perf workload W5) takes about 2.2 x 10^6; a runaway stops here.
 */
// Frozen: every run of the package's commands and runImplementation reads this one object, which a program could change.
export const DEFAULT_RUN_LIMITS = Object.freeze({ maxCycles: 10_000_000_000, maxEvents: 1_000_000_000 } as const satisfies RunLimits);

/** A machine with every node's program started, not yet run. */
interface StartedRun {
  config: RunConfig;
  machine: Machine;
  output: RunOutput;
  engines: NodeEngines[];
  app: AnyApp;
  params: Record<string, ParamValue>;
  info: MachineInfo;
  input: unknown;
  results: unknown[];
}

/**
 * What a run needs before it builds a machine, as runConfig or loadRun give it:
 * runApp(null) and runApp({}) were TypeErrors from deep inside. runConfig checks the rest.
 */
export function checkConfig(config: unknown): void {
  const c = config as Partial<RunConfig> | null;
  if (c === null || typeof c !== 'object') throw new InputError(`runApp: expected a run configuration (runConfig or loadRun gives one), got ${kindOf(config)}`);
  const isObject = (v: unknown) => typeof v === 'object' && v !== null;
  const fields: [string, boolean][] = [
    ['platform', isObject(c.platform)],
    ['app', isObject(c.app) && typeof c.app?.main === 'function'],
    ['params', isObject(c.params)],
    ['nodes', Number.isInteger(c.nodes) && (c.nodes as number) >= 1],
    ['seed', typeof c.seed === 'number'],
  ];
  const bad = fields.filter(([, ok]) => !ok).map(([name]) => name);
  if (bad.length > 0) throw new InputError(`runApp: the configuration's ${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} missing or malformed; expected a run configuration as runConfig or loadRun gives it`);
  checkRunConfig(config as RunConfig);
}

/** Builds the machine, checks the app's parameters, makes its input and starts every node. */
function startRun(config: RunConfig): StartedRun {
  checkConfig(config);
  const { platform, app, params, nodes, seed } = config;
  const machine = new Machine(platform, { nodes, seed, network: config.network, perturb: config.perturb });
  machine.setTrace(config.trace ?? null);
  machine.sim.observer = config.observer ?? null;
  config.inspect?.(machine);
  const info = machineInfo(platform, nodes, machine.topology);
  const problem = appObjection(app, params, info);
  if (problem !== null) throw new InputError(`app ${app.name}: ${problem}`);
  const input: unknown = appCall(app, 'setup', () => app.setup?.({ params, machine: info, random: machine.sim.stream('app/input') }));

  const results = new Array<unknown>(nodes);
  const handlers = new HandlerTable();
  const output = new RunOutput(nodes, config.output ?? null, config.log ?? null);
  const engines: NodeEngines[] = [];
  for (const node of machine.nodes) {
    const e = new NodeEngines(machine, node, handlers, output);
    engines.push(e);
    const rt = new Runtime(e, appCall(app, 'globals', () => app.globals?.()));
    e.guard.setMain(() => startMain(app, rt, params, input), (result) => void (results[node.id] = result));
    machine.start(node, e.guard);
  }
  machine.isInHandler = (node) => engines[node.id].isInExitHandler;
  // After every other event kind is defined (machine.limitCycles says why).
  if (config.limits?.maxCycles !== undefined) machine.limitCycles(config.limits.maxCycles);
  return { config, machine, output, engines, app, params, info, input, results };
}

/**
 * Turns what escaped a run into a RunFailure naming where it happened, with each node's
 * last log entry (and, for a deadlock, the ports still counting words).
 */
function asRunFailure(e: unknown, { config, machine, output, engines }: StartedRun): SimError {
  // The kernel leaves currentProcess naming the process that threw.
  const pid = machine.sim.currentProcess;
  const node = machine.nodes.find((n) => n.pid === pid);
  const failure = e instanceof SimError ? e : new AppError(`${node === undefined ? 'outside any node' : `node ${node.id} at cycle ${node.time}`}: ${describeThrown(e)}`, { cause: e });
  if (failure instanceof DeadlockError) failure.message += unfinishedPorts(engines);
  if (needsPlace(failure) && machine.sim.events <= PLACE_EVENTS) takePlace(failure, failAgain(config, machine.sim.events));
  if (failure instanceof RunFailure) {
    failure.lastLogEntries = output.lastEntries();
    failure.stoppedAtCycle = Math.max(machine.sim.now, node?.time ?? 0);
  }
  return failure;
}

/**
 * The most events a run that failed on an operation it never ran is made again for, to
 * place it (failAgain): about as long as the run took, in one call that takes no
 * signal (a failed run's repro, recorded by running it again, places it again too). A
 * later failure keeps its message without the place (an event count, so the message is
 * the same in every process).
 */
const PLACE_EVENTS = 1 << 24;

/**
 * What the run of `config` throws made again, with nothing seen outside (no output,
 * log, trace or observer), if it fails as it did: at the same event, `events`. Only that
 * event's step keeps where it makes each operation (op-sites.ts): an operation made and
 * not run is found before its node yields again (the next one it starts, the handler
 * or main returning, a bare yield: each within the step that made it), so the steps
 * before are run as any run is (every step keeping stacks took ten times as long).
 * Null if it does not fail at that event (an app whose module-level state changed
 * between the runs forgot another call, or another node did).
 */
function failAgain(config: RunConfig, events: number): unknown {
  const { platform, app, params, nodes, seed, network, perturb } = config;
  let again: StartedRun | null = null;
  try {
    again = startRun({ platform, app, params, nodes, seed, network, perturb, limits: { maxCycles: config.limits?.maxCycles } });
    again.machine.runFor(Math.max(0, events - 2));
    for (const e of again.engines) e.guard.sites = new OpSites();
    again.machine.runFor(events + 2);
  } catch (e) {
    return again !== null && again.machine.sim.events === events ? e : null;
  }
  return null;
}

/**
 * Runs `config.app` until `limits` (a cycle or an event count) and describes every
 * node there, or where it ended (`ended`) if it ended first: every node exited, or
 * the run reached its own limit (config.limits), which `atOwnLimit` names ("its limit
 * of 1000 events", as a RunLimitError's message does). Given `stop`, in chunks
 * of events with a stop point between them (RunStopped once it is aborted).
 * @throws RunFailure as the run fails before `limits`: an app's error, a deadlock (a
 *   deadlock there was "the run ended", as if every node had exited)
 */
export async function runUntil(config: RunConfig, limits: { untilCycle?: number; maxEvents?: number }, stop?: AbortSignal): Promise<{ report: StopReport; ended: boolean; atOwnLimit: string | null }> {
  const started = startRun(config);
  const { machine, output, engines } = started;
  // The run's own event limit ends it too (a replay of a run stopped at --max-events went on past it).
  const own = config.limits?.maxEvents ?? Infinity;
  const asked = limits.maxEvents ?? Infinity;
  const last = Math.min(own, asked);
  let outcome: string;
  try {
    for (;;) {
      const chunkEnd = stop === undefined ? last : Math.min(last, machine.sim.events + STOP_CHECK_EVENTS);
      outcome = machine.sim.run({ untilCycle: limits.untilCycle, maxEvents: chunkEnd });
      if (outcome !== 'event-limit' || chunkEnd === last || stop === undefined) break;
      await stopPoint(stop);
    }
  } catch (e) {
    if (e instanceof RunStopped) throw e;
    throw asRunFailure(e, started);
  }
  if (machine.isOver) for (const e of engines) e.output.flushFinal();
  const atOwnLimit = machine.atCycleLimit ? `its limit of ${config.limits?.maxCycles} simulated cycles` : outcome === 'event-limit' && own < asked ? `its limit of ${own} events` : null;
  const ended = atOwnLimit !== null || (outcome !== 'cycle-limit' && outcome !== 'event-limit');
  if (ended && atOwnLimit === null && !machine.isOver) throw asRunFailure(machine.deadlock(), started);
  return { report: stopReport(machine, engines, output), ended, atOwnLimit };
}

/**
 * A run of `config.app`, made in steps: `advance` dispatches events in chunks (the
 * CLI yields to its event loop between them, to show progress and take signals),
 * and the events, their order and the fingerprint are exactly those of one call.
 */
export class AppRun {
  private readonly started: StartedRun;
  private readonly config: RunConfig;
  private readonly maxEvents: number;
  /** The event count at which advance next looks at the heap (whatever the steps it is called in). */
  private nextHeapCheck = HEAP_CHECK_EVENTS;
  /** What ended the run early, thrown again by any later advance (advancing past an app's error ran on into a deadlock). */
  private failure: unknown = null;
  /** Every node has exited: a later advance dispatches nothing (it ran the timer interrupts on, and the fingerprint changed). */
  private hasEnded = false;

  /**
   * Builds the machine and starts every node (nothing runs yet).
   * @throws InputError if the node count or parameters do not suit the platform or
   *   app; AppError if the app's check, setup or globals throws
   */
  constructor(config: RunConfig) {
    this.config = config;
    // Started first: it checks the configuration (null was a TypeError here).
    this.started = startRun(config);
    this.maxEvents = config.limits?.maxEvents ?? Infinity;
  }

  /** Simulated time so far. */
  get cycle(): number {
    return this.started.machine.sim.now;
  }

  /** Events dispatched so far. */
  get events(): number {
    return this.started.machine.sim.events;
  }

  /**
   * Dispatches up to `events` more events; returns true once every node has exited.
   * @throws RunFailure (DeadlockError, AppError, StrataFailure) if the program
   *   fails; RunLimitError when it reaches config.limits, or when the JavaScript heap
   *   nears what Node allows (run-stop.ts; looked at every HEAP_CHECK_EVENTS events)
   */
  advance(events: number): boolean {
    // advance(NaN) and advance(undefined) ran to the end, advance('10') ran 10 events, advance(-5) did nothing.
    // advance(0.5) dispatched an event.
    if (typeof events !== 'number' || !(Number.isSafeInteger(events) || events === Infinity) || events < 0) {
      throw new InputError(`AppRun.advance: expected a whole number of events, 0 or more (Infinity: to the end), got ${typeof events === 'number' ? events : kindOf(events)}`);
    }
    if (this.failure !== null) throw this.failure;
    if (this.hasEnded) return true;
    try {
      return (this.hasEnded = this.step(events));
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  /** advance's work, on a count already checked. */
  private step(events: number): boolean {
    const { machine } = this.started;
    const end = Math.min(machine.sim.events + events, this.maxEvents);
    let outcome: 'finished' | 'paused' | 'cycle-limit';
    for (;;) {
      try {
        outcome = machine.runFor(Math.min(this.nextHeapCheck, end));
      } catch (e) {
        if (e instanceof WorkPastLimit) {
          const maxCycles = this.config.limits?.maxCycles ?? 0;
          throw this.limitError('cycles', maxCycles, `its limit of ${maxCycles} simulated cycles in node ${e.node}'s ${e.call}, called ${WORK_PAST_LIMIT} times past it without a runtime call (a loop that never polls lets no time pass)`);
        }
        throw asRunFailure(e, this.started);
      }
      if (outcome !== 'paused') break;
      if (machine.sim.events >= this.nextHeapCheck) {
        this.nextHeapCheck += HEAP_CHECK_EVENTS;
        const heapLimit = heapNearLimit();
        // Not how much it held: that varies with the collector, and the message is recorded (a sweep's results).
        if (heapLimit !== null) throw this.limitError('heap', heapLimit, `the JavaScript heap's limit of ${megabytes(heapLimit)}, nearly full`);
      }
      if (machine.sim.events >= end) break;
    }
    if (outcome === 'finished') {
      for (const e of this.started.engines) e.output.flushFinal();
      return true;
    }
    const maxCycles = this.config.limits?.maxCycles ?? 0;
    if (outcome === 'cycle-limit') throw this.limitError('cycles', maxCycles, `its limit of ${maxCycles} simulated cycles`);
    if (machine.sim.events >= this.maxEvents) throw this.limitError('events', this.maxEvents, `its limit of ${this.maxEvents} events`);
    return false;
  }

  /** Every node as it stands now. */
  report(): StopReport {
    return stopReport(this.started.machine, this.started.engines, this.started.output);
  }

  /** The error of a run stopped at `where` ("its limit of 1000 events"). */
  private limitError(limit: RunLimitError['limit'], value: number, where: string): RunLimitError {
    const r = this.report();
    const e = new RunLimitError(
      `stopped at ${where} (cycle ${r.cycle}, ${r.events} events) before every node had exited\n${formatNodeClocks(r.nodes)}`,
      { limit, value, cycle: r.cycle, events: r.events, fingerprint: r.fingerprint },
    );
    e.lastLogEntries = this.started.output.lastEntries();
    return e;
  }

  /**
   * Verifies the results of a finished run and summarizes it.
   * @throws InputError if the run has not ended (advance has not returned true);
   *   AppError if the app's verify throws
   */
  summary(): RunSummary {
    const { machine, output, app, params, info, input, results } = this.started;
    // Called early, it verified half-made results and blamed the app ("verify threw TypeError", "its metric cycles is NaN").
    if (this.failure !== null) {
      const message = this.failure instanceof Error ? this.failure.message.split('\n')[0] : String(this.failure);
      throw new InputError(`AppRun.summary: the run failed (${message}); a failed run has no summary`);
    }
    if (!machine.isOver) {
      const exited = machine.nodes.filter((n) => n.hasExited).length;
      throw new InputError(`AppRun.summary: the run has not ended (cycle ${machine.sim.now}, ${machine.sim.events} events, ${exited} of ${machine.nodes.length} nodes exited); expected advance to have returned true first`);
    }
    let verification: Verification;
    try {
      // Read once, within the call: a getter of its detail that threw was the simulator's "internal error".
      verification = appCall(app, 'verify', () => plainVerification(app.verify({ params, machine: info, input, results })));
    } catch (e) {
      // The run itself ended: where it stopped is where every node had exited.
      if (e instanceof RunFailure) e.stoppedAtCycle = machine.finishCycle;
      throw e;
    }
    const problem = verificationProblem(verification);
    if (problem !== null) throw new InputError(`app ${app.name}: verify must return { ok: true or false, detail: a string, metrics?: { name: a number, string, boolean or { key: a number } } }; ${problem}`);
    return summarize(this.config, machine, verification, output.lastEntries());
  }
}

/**
 * Runs `config.app` to completion.
 * @throws InputError if the node count or parameters do not suit the platform or app;
 *   RunFailure (DeadlockError, AppError, RunLimitError) if the simulated program fails
 */
export function runApp(config: RunConfig): RunSummary {
  const run = new AppRun(config);
  run.advance(Infinity);
  return run.summary();
}

