/**
 * Formats a finished run for people (aligned lines) and for programs (one JSON
 * object). Wall-clock figures are measured by the caller and passed in.
 */
import type { AutoResolution } from '../library/auto.ts';
import { formatParams } from '../runtime/app.ts';
import { formatResolution } from './auto-params.ts';
import type { RunSummary } from '../runtime/run-app.ts';

export interface WallClock {
  wallMs: number;
}

/**
 * The two number formats, made at the first human summary: making an Intl.NumberFormat
 * loads the locale data, about 15 ms of every `sim` process's start-up, and a --json
 * run never formats a number with them.
 */
let formats: { n0: Intl.NumberFormat; n1: Intl.NumberFormat; s3: Intl.NumberFormat } | null = null;

function numberFormats(): { n0: Intl.NumberFormat; n1: Intl.NumberFormat; s3: Intl.NumberFormat } {
  formats ??= {
    n0: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
    n1: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
    s3: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }),
  };
  return formats;
}

/** What a run adds to its summary besides the run: the `auto` values resolved before it (auto-params.ts). */
export interface SummaryExtra {
  auto?: AutoResolution;
}

/** The human summary, one fact per line. */
export function formatSummary(s: RunSummary, wall: WallClock, extra: SummaryExtra = {}): string {
  const { n0, n1, s3 } = numberFormats();
  const eventsPerSec = eventsPerSecond(s, wall);
  const lines: [string, string][] = [
    ['run', `${s.app} on ${s.platform} (${s.platformTitle}), ${s.nodes} node${s.nodes === 1 ? '' : 's'} (${s.topology}), ${s.network} network, seed ${s.seed}`],
    ['params', formatParams(s.params)],
    ...(extra.auto === undefined ? [] : [['auto', formatResolution(extra.auto)] as [string, string]]),
    // Under a microsecond to three digits: 1,128 cycles at 100 GHz said "= 0 us".
    ['simulated', `${n0.format(s.simulatedCycles)} cycles = ${(s.simulatedMicros < 1 ? s3 : n1).format(s.simulatedMicros)} us`],
    ['busy/node', spreadLine(s.busyCycles)],
    ['spin/node', spreadLine(s.spinCycles)],
    ['stall/node', spreadLine(s.stallCycles)],
    ['interrupt/node', spreadLine(s.interruptCycles)],
    [
      'messages',
      `${n0.format(s.packetsSent)} packets, ${n0.format(s.bytesSent)} bytes` +
        (s.network === 'packet' ? `; link utilization mean ${pct(s.linkUtilization.mean)}, max ${pct(s.linkUtilization.max)}` : ''),
    ],
    ['events', `${n0.format(s.events)} in ${n0.format(wall.wallMs)} ms wall (${n0.format(eventsPerSec)} events/s)`],
    ['fingerprint', s.fingerprint],
  ];
  const metrics = Object.entries(s.metrics).map(([k, v]) => `${k}=${formatMetric(v)}`);
  if (metrics.length > 0) lines.push(['metrics', metrics.join('  ')]);
  lines.push(['verified', `${s.verified ? 'yes' : 'NO'}: ${s.verification}`]);
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
    events: s.events,
    wallMs: Math.round(wall.wallMs * 1000) / 1000,
    eventsPerSec: Math.round(eventsPerSecond(s, wall)),
    fingerprint: s.fingerprint,
    verified: s.verified,
    verification: s.verification,
    metrics: s.metrics,
    simulatorVersion,
  });
}

function eventsPerSecond(s: RunSummary, wall: WallClock): number {
  return wall.wallMs > 0 ? (s.events / wall.wallMs) * 1000 : 0;
}

function pct(x: number): string {
  const { n1 } = numberFormats();
  return `${n1.format(x * 100)}%`;
}

function spreadLine(x: { min: number; mean: number; max: number }): string {
  const { n0 } = numberFormats();
  return `min ${n0.format(x.min)}  mean ${n0.format(x.mean)}  max ${n0.format(x.max)} cycles`;
}

function formatMetric(v: unknown): string {
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}:${String(x)}`)
      .join(',');
  }
  return String(v);
}
