/**
 * Runs an app on a simulated machine: builds the machine from a platform, gives each
 * node a Runtime running the app's `main`, runs to completion, verifies the results
 * and summarizes the run. Pure library code: no files, no clock, no process — the
 * CLI and worker threads call it the same way, so a run is identical in both.
 */
import { AppError, InputError, RunFailure, SimError } from '../kernel/errors.ts';
import type { EventObserver } from '../kernel/simulation.ts';
import { Machine, type NetworkMode, type TraceSink } from '../machine/machine.ts';
import { PacketNetwork } from '../network/packet-network.ts';
import type { Platform } from '../platform/schema.ts';
import type { AnyApp, MachineInfo, Metrics, ParamValue } from './app.ts';
import { NodeEngines } from './engines.ts';
import { NodeProgram } from './node-program.ts';
import { HandlerTable } from './handler-table.ts';
import { Runtime } from './runtime.ts';
import { RunOutput, type LogSink, type OutputSink } from './printing.ts';

export interface RunConfig {
  platform: Platform;
  app: AnyApp;
  /** Parsed parameter values (see parseParams). */
  params: Record<string, ParamValue>;
  nodes: number;
  seed: number;
  network: NetworkMode;
  /** Receives Qprintf output as nodes flush it (discarded when absent). */
  output?: OutputSink;
  /** Receives every log entry; when present, global operations log their progress too. */
  log?: LogSink;
  /** Records state changes for a trace file (src/trace/writer.ts). */
  trace?: TraceSink;
  /** Sees every event (replay records and checks runs with it). */
  observer?: EventObserver;
  /** Schedule-perturbation seed (`sim --perturb`); none when absent. */
  perturb?: number;
  /** Sees the machine once it is built, before it runs (for tests and tools that read its counters). */
  inspect?: (machine: Machine) => void;
}

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
function startRun(config: RunConfig): StartedRun {
  const { platform, app, params, nodes, seed } = config;
  const machine = new Machine(platform, { nodes, seed, network: config.network, perturb: config.perturb });
  machine.setTrace(config.trace ?? null);
  machine.sim.observer = config.observer ?? null;
  config.inspect?.(machine);
  const info: MachineInfo = {
    nodes,
    platform: platform.name,
    clockMHz: platform.clockMHz,
    hops: (a, b) => machine.topology.hops(a, b),
  };
  const problem = app.check?.(params, info) ?? null;
  if (problem !== null) throw new InputError(`app ${app.name}: ${problem}`);
  const input: unknown = app.setup?.({ params, machine: info, random: machine.sim.stream('app/input') });

  const results = new Array<unknown>(nodes);
  const handlers = new HandlerTable();
  const output = new RunOutput(nodes, config.output ?? null, config.log ?? null);
  const engines: NodeEngines[] = [];
  for (const node of machine.nodes) {
    const e = new NodeEngines(machine, node, handlers, output);
    engines.push(e);
    const rt = new Runtime(e, app.globals?.());
    machine.start(node, new NodeProgram(e, () => app.main(rt, params, input), (result) => void (results[node.id] = result)));
  }
  return { machine, output, engines, app, params, info, input, results };
}

/** Turns what escaped a run into a RunFailure naming where it happened, with each node's last log entry. */
function asRunFailure(e: unknown, machine: Machine, output: RunOutput): SimError {
  if (e instanceof RunFailure) e.lastLogEntries = output.lastEntries();
  if (e instanceof SimError) return e;
  const pid = machine.sim.currentProcess;
  const node = machine.nodes.find((n) => n.pid === pid);
  const where = node === undefined ? 'outside any node' : `node ${node.id} at cycle ${node.time}`;
  const failure = new AppError(`${where}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, { cause: e });
  failure.lastLogEntries = output.lastEntries();
  return failure;
}

/** One node when a run was stopped part-way (sim replay --stop-at). */
export interface NodeSnapshot {
  node: number;
  /** The node's own clock. */
  cycle: number;
  state: number;
  /** The runtime call it waits in, "exited", or "running". */
  call: string;
  /** Handler names of the packets waiting in its interfaces, left and right, oldest first. */
  pending: [string[], string[]];
  /** Its last log entry, if any. */
  lastLog: string | null;
}

export interface StopReport {
  cycle: number;
  events: number;
  fingerprint: string;
  nodes: NodeSnapshot[];
}

/**
 * Runs `config.app` until `limits` (a cycle or an event count) and describes every
 * node there; returns null if the run ended first.
 */
export function runUntil(config: RunConfig, limits: { untilCycle?: number; maxEvents?: number }): StopReport | null {
  const { machine, output, engines } = startRun(config);
  let outcome: string;
  try {
    outcome = machine.sim.run(limits);
  } catch (e) {
    throw asRunFailure(e, machine, output);
  }
  if (outcome !== 'cycle-limit' && outcome !== 'event-limit') return null;
  const last = output.lastEntryByNode();
  return {
    cycle: machine.sim.now,
    events: machine.sim.events,
    fingerprint: machine.sim.fingerprint(),
    nodes: machine.nodes.map((n, i) => ({
      node: i,
      cycle: n.time,
      state: engines[i].states.current,
      call: n.hasExited ? 'exited' : (n.waitingIn ?? 'running'),
      pending: [0, 1].map((net) =>
        machine.network.waitingList(i, net).map((p) => (typeof p.handler === 'function' && p.handler.name !== '' ? p.handler.name : 'anonymous handler')),
      ) as [string[], string[]],
      lastLog: last[i],
    })),
  };
}

/**
 * Runs `config.app` to completion.
 * @throws InputError if the node count or parameters do not suit the platform or app;
 *   RunFailure (DeadlockError, AppError) if the simulated program fails
 */
export function runApp(config: RunConfig): RunSummary {
  const { machine, output, app, params, info, input, results } = startRun(config);
  const { platform, nodes, seed } = config;
  try {
    machine.run();
  } catch (e) {
    throw asRunFailure(e, machine, output);
  }

  let verification: { ok: boolean; detail: string; metrics?: Metrics };
  try {
    verification = app.verify({ params, machine: info, input, results });
  } catch (e) {
    throw new AppError(`app ${app.name}: verify failed with ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, {
      cause: e,
    });
  }

  const cycles = machine.finishCycle;
  return {
    platform: platform.name,
    platformTitle: platform.title,
    platformHash: platform.contentHash,
    nodes,
    topology: machine.topology.describe(),
    network: config.network,
    seed,
    app: app.name,
    params,
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
    verified: verification.ok,
    verification: verification.detail,
    metrics: verification.metrics ?? {},
    lastLog: output.lastEntries(),
  };
}

function linkUtilization(machine: Machine, cycles: number): { mean: number; max: number } {
  const net = machine.network;
  if (!(net instanceof PacketNetwork) || cycles === 0) return { mean: 0, max: 0 };
  const busy = [...net.channelBusyCycles(0), ...net.channelBusyCycles(1)];
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    mean: round3(busy.reduce((a, b) => a + b, 0) / busy.length / cycles),
    max: round3(Math.max(...busy) / cycles),
  };
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
