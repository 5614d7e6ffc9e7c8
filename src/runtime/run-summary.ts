/**
 * What a finished run reports (RunSummary): its machine, app and parameters, simulated
 * time, events and fingerprint, the nodes' busy, spin, stall and interrupt cycles, the
 * data network's load, and the app's verification. AppRun.summary makes one once the
 * app's verify has answered; the CLI prints it and adds wall-clock figures.
 */
import type { Machine, NetworkMode } from '../machine/machine.ts';
import { PacketNetwork } from '../network/packet-network.ts';
import { platformIdentity } from '../platform/platform-identity.ts';
import type { Metrics, ParamValue, Verification } from './app.ts';
import type { RunConfig } from './run-config.ts';

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

/** The summary of a run of `config` whose every node has exited, with the app's verification and each node's last log entry. */
export function summarize(config: RunConfig, machine: Machine, verification: Verification, lastLog: string[]): RunSummary {
  const { platform, nodes, seed } = config;
  const cycles = machine.finishCycle;
  return {
    platform: platform.name,
    platformTitle: platform.title,
    platformHash: platformIdentity(platform).contentHash,
    nodes,
    topology: machine.topology.describe(),
    network: config.network,
    seed,
    app: config.app.name,
    // A copy: the configuration's own object, changed in the summary, changed the next run of that configuration.
    params: { ...config.params },
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
    lastLog,
  };
}

/** The summary's unreceivedPackets: sent and never taken by a poll, when there are any. */
function unreceived(machine: Machine): { unreceivedPackets?: number } {
  let n = 0;
  for (const node of machine.nodes) n += node.packetsSent - node.packetsReceived;
  return n === 0 ? {} : { unreceivedPackets: n };
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
