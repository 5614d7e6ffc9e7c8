/**
 * Formats a finished run for people (aligned lines) and for programs (one JSON
 * object). Wall-clock figures are measured by the caller and passed in.
 */
import type { AutoResolution } from '../library/auto.ts';
import { formatParams } from '../runtime/app.ts';
import { formatResolution } from './auto-params.ts';
import { grouped, significant } from '../kernel/numbers.ts';
import type { RunSummary } from '../runtime/run-app.ts';

export interface WallClock {
  wallMs: number;
}

/** What a run adds to its summary besides the run: the `auto` values resolved before it (auto-params.ts). */
export interface SummaryExtra {
  auto?: AutoResolution;
  /** A run that failed verification: its repro file, or null when none could be written (--json only). */
  repro?: string | null;
  /** The platform file, when it is not the shipped one of the platform's name (the human summary's run line). */
  platformFile?: string;
}

/** The human summary, one fact per line. */
export function formatSummary(s: RunSummary, wall: WallClock, extra: SummaryExtra = {}): string {
  const eventsPerSec = eventsPerSecond(s, wall);
  const lines: [string, string][] = [
    ['run', `${s.app} on ${s.platform}${extra.platformFile === undefined ? '' : ` from ${extra.platformFile}`} (${s.platformTitle}), ${s.nodes} node${s.nodes === 1 ? '' : 's'} (${s.topology}), ${s.network} network, seed ${s.seed}`],
    ['params', formatParams(s.params)],
    ...(extra.auto === undefined ? [] : [['auto', formatResolution(extra.auto)] as [string, string]]),
    // Under a microsecond to three digits: 1,128 cycles at 100 GHz said "= 0 us".
    ['simulated', `${grouped(s.simulatedCycles)} cycles = ${s.simulatedMicros < 1 ? significant(s.simulatedMicros, 3) : grouped(s.simulatedMicros, 1)} us`],
    ['busy/node', spreadLine(s.busyCycles)],
    ['spin/node', spreadLine(s.spinCycles)],
    ['stall/node', spreadLine(s.stallCycles)],
    ['interrupt/node', spreadLine(s.interruptCycles)],
    [
      'messages',
      `${grouped(s.packetsSent)} packets, ${grouped(s.bytesSent)} bytes` +
        (s.network === 'packet' ? `; link utilization mean ${pct(s.linkUtilization.mean)}, max ${pct(s.linkUtilization.max)}` : ''),
    ],
    // Appendix A 3.5: StrataExit(0) serves messages only until every node has reached it.
    ...(s.unreceivedPackets === undefined ? [] : [['unreceived', `${grouped(s.unreceivedPackets)} packet${s.unreceivedPackets === 1 ? ' was' : 's were'} still in the network when every node had exited: ${s.unreceivedPackets === 1 ? 'its handler' : 'their handlers'} never ran (StrataExit handles messages only until all nodes reach it)`] as [string, string]]),
    ['events', `${grouped(s.events)} in ${grouped(wall.wallMs)} ms wall (${grouped(eventsPerSec)} events/s)`],
    ['fingerprint', s.fingerprint],
  ];
  const metrics = Object.entries(s.metrics).map(([k, v]) => `${k}=${formatMetric(v)}`);
  if (metrics.length > 0) lines.push(['metrics', metrics.join('  ')]);
  // An empty detail printed 'verified NO: ' and nothing after.
  lines.push(['verified', `${s.verified ? 'yes' : 'NO'}${s.verification === '' ? '' : `: ${s.verification}`}`]);
  return lines.map(([k, v]) => `${k.padEnd(15)}${v}`).join('\n');
}

/** The machine-readable summary. */
export function summaryJson(s: RunSummary, wall: WallClock, simulatorVersion: string, extra: SummaryExtra = {}): string {
  return JSON.stringify({
    platform: s.platform,
    platformHash: s.platformHash,
    nodes: s.nodes,
    topology: s.topology,
    network: s.network,
    seed: s.seed,
    app: s.app,
    params: s.params,
    ...(extra.auto === undefined ? {} : { auto: extra.auto }),
    simulatedCycles: s.simulatedCycles,
    simulatedMicros: s.simulatedMicros,
    busyCycles: s.busyCycles,
    spinCycles: s.spinCycles,
    stallCycles: s.stallCycles,
    interruptCycles: s.interruptCycles,
    linkUtilization: s.linkUtilization,
    packetsSent: s.packetsSent,
    bytesSent: s.bytesSent,
    ...(s.unreceivedPackets === undefined ? {} : { unreceivedPackets: s.unreceivedPackets }),
    events: s.events,
    wallMs: Math.round(wall.wallMs * 1000) / 1000,
    eventsPerSec: Math.round(eventsPerSecond(s, wall)),
    fingerprint: s.fingerprint,
    verified: s.verified,
    verification: s.verification,
    ...(extra.repro === undefined ? {} : { repro: extra.repro }),
    metrics: s.metrics,
    simulatorVersion,
  });
}

function eventsPerSecond(s: RunSummary, wall: WallClock): number {
  return wall.wallMs > 0 ? (s.events / wall.wallMs) * 1000 : 0;
}

function pct(x: number): string {
  return `${grouped(x * 100, 1)}%`;
}

function spreadLine(x: { min: number; mean: number; max: number }): string {
  return `min ${grouped(x.min)}  mean ${grouped(x.mean)}  max ${grouped(x.max)} cycles`;
}

function formatMetric(v: unknown): string {
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}:${String(x)}`)
      .join(',');
  }
  return String(v);
}
