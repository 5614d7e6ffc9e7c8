/**
 * Runs an app on a simulated machine: builds the machine from a platform, gives each
 * node a Runtime running the app's `main`, runs to completion, verifies the results
 * and summarizes the run. Pure library code: no files, no clock, no process — the
 * CLI and worker threads call it the same way, so a run is identical in both.
 */
import { AppError, describeThrown, InputError, kindOf, RunFailure, RunLimitError, SimError } from '../kernel/errors.ts';
import { LINE_BREAKING, LINE_BREAKING_WORDS } from '../kernel/one-line.ts';
import { Machine, type NetworkMode } from '../machine/machine.ts';
import { PacketNetwork } from '../network/packet-network.ts';
import { verificationProblem, type AnyApp, type MachineInfo, type Metrics, type ParamValue, type Verification } from './app.ts';
import { NodeEngines } from './engines.ts';
import { WORK_PAST_LIMIT, WorkPastLimit } from './local-work.ts';
import { shownArgument } from './words.ts';
import { HandlerTable } from './handler-table.ts';
import { Runtime } from './runtime.ts';
import { RunOutput } from './printing.ts';
import { MAX_TREE_VECTOR } from './tree-combine.ts';
import { RunStopped, STOP_CHECK_EVENTS, stopPoint } from './stoppable-run.ts';
import type { Platform } from '../platform/schema.ts';
import { formatNodeClocks, heapNearLimit, HEAP_CHECK_EVENTS, megabytes, stopReport, type StopReport } from './run-stop.ts';
import { checkParamValues, checkRunConfig, type RunConfig, type RunLimits } from './run-config.ts';

export type { RunConfig, RunLimits } from './run-config.ts';

export type { NodeSnapshot, StopReport } from './run-stop.ts';

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

export interface Spread {
  min: number;
  mean: number;
  max: number;
}

/** Everything a run reports; the CLI prints it and adds wall-clock figures. */
export interface RunSummary {
  platform: string;
  platformTitle: string;
  platformHash: string;
  nodes: number;
  topology: string;
  network: NetworkMode;
  seed: number;
  app: string;
  params: Record<string, ParamValue>;
  simulatedCycles: number;
  simulatedMicros: number;
  events: number;
  fingerprint: string;
  busyCycles: Spread;
  spinCycles: Spread;
  /** Cycles nodes spent unable to inject into a full network. */
  stallCycles: Spread;
  /** Cycles timer interrupts delayed nodes (thesis 3.4.1; zeros where the platform has none). */
  interruptCycles: Spread;
  /** Fraction of the run each data-network link spent transmitting (packet network; zeros for analytic). */
  linkUtilization: { mean: number; max: number };
  packetsSent: number;
  bytesSent: number;
  /**
   * Packets still in the network when every node had exited, whose handlers never ran:
   * StrataExit(0) handles messages only until every node has reached it, then the
   * application exits (Appendix A 3.5). Present only when some were (an app's last
   * message sent without waiting for its receiver, a verify that then fails for no
   * visible reason).
   */
  unreceivedPackets?: number;
  verified: boolean;
  verification: string;
  metrics: Metrics;
  /** Each node's last log entry (the manual's loglast report); empty when nothing was logged. */
  lastLog: string[];
}

/** A machine with every node's program started, not yet run. */
interface StartedRun {
  machine: Machine;
  output: RunOutput;
  engines: NodeEngines[];
  app: AnyApp;
  params: Record<string, ParamValue>;
  info: MachineInfo;
  input: unknown;
  results: unknown[];
}

/** Builds the machine, checks the app's parameters, makes its input and starts every node. */
/**
 * What a run needs before it builds a machine, as runConfig or loadRun give it:
 * runApp(null) and runApp({}) were TypeErrors from deep inside. runConfig checks the rest.
 */
function checkConfig(config: unknown): void {
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
  // After every other event kind is defined (machine.limitCycles says why).
  if (config.limits?.maxCycles !== undefined) machine.limitCycles(config.limits.maxCycles);
  return { machine, output, engines, app, params, info, input, results };
}

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

/** Runs one of the app's own functions; what it throws becomes the app's error, naming the function. */
function appCall<T>(app: AnyApp, what: string, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (e instanceof SimError) throw e;
    throw new AppError(`app ${app.name}: ${what} threw ${describeThrown(e)}`, { cause: e });
  }
}

/**
 * What verify returned, its fields read once into plain data (so a getter runs inside the
 * app's call, and not again), or the value itself when it is no object (verificationProblem says so).
 */
function plainVerification(v: unknown): Verification {
  if (v === null || typeof v !== 'object') return v as Verification;
  const { ok, detail, metrics } = v as Record<string, unknown>;
  const copy = (x: unknown): unknown => (x !== null && typeof x === 'object' && !Array.isArray(x) ? { ...x } : x);
  const plainMetrics = metrics !== null && typeof metrics === 'object' && !Array.isArray(metrics) ? Object.fromEntries(Object.entries(metrics).map(([k, x]) => [k, copy(x)])) : metrics;
  return { ok, detail, ...(metrics === undefined ? {} : { metrics: plainMetrics }) } as Verification;
}

/** Calls the app's main; one that is not a generator function is bad input (the runtime runs main with yield*). */
function startMain(app: AnyApp, rt: Runtime<unknown>, params: Record<string, ParamValue>, input: unknown): ReturnType<AnyApp['main']> {
  const program = app.main(rt, params, input);
  const iterable = program !== null && typeof program === 'object' && typeof (program as { next?: unknown }).next === 'function';
  if (!iterable) {
    throw new InputError(`app ${app.name}: main must be a function* (a generator function, whose runtime calls are made with yield*); it returned ${program === undefined ? 'nothing' : typeof program}`);
  }
  return program;
}

/** Turns what escaped a run into a RunFailure naming where it happened, with each node's last log entry. */
function asRunFailure(e: unknown, machine: Machine, output: RunOutput): SimError {
  // The kernel leaves currentProcess naming the process that threw.
  const pid = machine.sim.currentProcess;
  const node = machine.nodes.find((n) => n.pid === pid);
  const failure = e instanceof SimError ? e : new AppError(`${node === undefined ? 'outside any node' : `node ${node.id} at cycle ${node.time}`}: ${describeThrown(e)}`, { cause: e });
  if (failure instanceof RunFailure) {
    failure.lastLogEntries = output.lastEntries();
    failure.stoppedAtCycle = Math.max(machine.sim.now, node?.time ?? 0);
  }
  return failure;
}

/**
 * Runs `config.app` until `limits` (a cycle or an event count) and describes every
 * node there, or where it ended (`ended`) if it ended first. Given `stop`, in chunks of
 * events with a stop point between them (RunStopped once it is aborted).
 */
export async function runUntil(config: RunConfig, limits: { untilCycle?: number; maxEvents?: number }, stop?: AbortSignal): Promise<{ report: StopReport; ended: boolean }> {
  const { machine, output, engines } = startRun(config);
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
    throw asRunFailure(e, machine, output);
  }
  if (machine.allExited) for (const e of engines) e.output.flushFinal();
  const atOwnLimit = outcome === 'event-limit' && own < asked;
  return { report: stopReport(machine, engines, output), ended: atOwnLimit || (outcome !== 'cycle-limit' && outcome !== 'event-limit') };
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
    const { machine, output } = this.started;
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
        throw asRunFailure(e, machine, output);
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
    if (!machine.allExited) {
      const exited = machine.nodes.filter((n) => n.hasExited).length;
      throw new InputError(`AppRun.summary: the run has not ended (cycle ${machine.sim.now}, ${machine.sim.events} events, ${exited} of ${machine.nodes.length} nodes exited); expected advance to have returned true first`);
    }
    const { platform, nodes, seed } = this.config;
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
    const cycles = machine.finishCycle;
    return {
      platform: platform.name,
      platformTitle: platform.title,
      platformHash: platform.contentHash,
      nodes,
      topology: machine.topology.describe(),
      network: this.config.network,
      seed,
      app: app.name,
      // A copy: the configuration's own object, changed in the summary, changed the next run of that configuration.
      params: { ...params },
      simulatedCycles: cycles,
      simulatedMicros: cycles / platform.clockMHz,
      events: machine.sim.events,
      fingerprint: machine.sim.fingerprint(),
      busyCycles: spread(machine.nodes.map((n) => n.busyCycles)),
      spinCycles: spread(machine.nodes.map((n) => n.spinCycles)),
      stallCycles: spread(machine.nodes.map((n) => n.stallCycles)),
      interruptCycles: spread(machine.nodes.map((n) => n.interruptCycles)),
      linkUtilization: linkUtilization(machine, cycles),
      packetsSent: machine.nodes.reduce((s, n) => s + n.packetsSent, 0),
      bytesSent: machine.nodes.reduce((s, n) => s + n.bytesSent, 0),
      ...unreceived(machine),
      verified: verification.ok,
      verification: verification.detail,
      metrics: verification.metrics ?? {},
      lastLog: output.lastEntries(),
    };
  }
}

/** The summary's unreceivedPackets: sent and never taken by a poll, when there are any. */
function unreceived(machine: Machine): { unreceivedPackets?: number } {
  let n = 0;
  for (const node of machine.nodes) n += node.packetsSent - node.packetsReceived;
  return n === 0 ? {} : { unreceivedPackets: n };
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

/**
 * Mean and busiest share of the run the data network's channels spent transmitting.
 * A loop, not Math.max(...busy): a 4096-node binary fat tree has about 200,000
 * channels, past the arguments a call can take.
 */
function linkUtilization(machine: Machine, cycles: number): { mean: number; max: number } {
  const net = machine.network;
  if (!(net instanceof PacketNetwork) || cycles === 0) return { mean: 0, max: 0 };
  let sum = 0;
  let max = 0;
  let count = 0;
  for (const n of [0, 1]) {
    for (const b of net.channelBusyCycles(n)) {
      sum += b;
      if (b > max) max = b;
      count++;
    }
  }
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return { mean: round3(sum / count / cycles), max: round3(max / cycles) };
}

function spread(values: number[]): Spread {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  return { min, mean: sum / values.length, max };
}
