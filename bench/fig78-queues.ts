/**
 * What fills the network in Fig. 7-8's runs (issue 22), for `npm run bench chapter7`:
 * the bandwidth-matched transposes with barriers, polling once (delay 35) and until
 * empty (delay 28), on the CM-5 without time slices, with its timer interrupts and
 * without them, each traced with its network counters (`--trace-network`). Prints each
 * run's MB/s per node and the packets in the network per node, averaged over the run.
 *
 * Why it matters: a time slice costs the nodes 48,200 cycles for every packet per node
 * then in the network (the CM-5 platform's timeSlice, from Table 3-5's dilation), so
 * what a slice does to a run turns on how full the network is when it falls. Polling
 * once leaves a queue where a node fell behind ("would lead to a stable queue in the
 * 'poll once' case", 6.1.3), and a timer interrupt on one node makes it fall behind:
 * over a shift those queues add up, and only the barrier at its end drains them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTrace } from '../src/trace/reader.ts';
import { fmt2, printRows } from './harness.ts';
import { params78, VARIANTS_78 } from './sweeps/chapter7.ts';

/** Fig. 7-8's variants (VARIANTS_78) with barriers and bandwidth matching: polling until empty, delay 28; polling once, delay 35. */
const POLL_EMPTY = 3;
const POLL_ONCE = 4;

const ROOT = join(import.meta.dirname, '..');

/** Writes the shipped CM-5 platform file with `changes` as `<name>.json` into `dir`; returns its path. */
export function cm5Variant(dir: string, name: string, changes: Record<string, unknown>): string {
  const cm5 = JSON.parse(readFileSync(join(ROOT, 'platforms', 'cm5.json'), 'utf8')) as Record<string, unknown>;
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...cm5, name, ...changes }));
  return file;
}

/** Packets in the network per node, averaged over the run: the per-node counts of the trace summed, as a step function of time. */
export function meanInFlightPerNode(trace: Pick<ReturnType<typeof readTrace>, 'inFlight' | 'lastCycle'> & { header: { nodes: number } }): number {
  const steps: [number, number][] = [];
  for (const node of trace.inFlight) {
    let previous = 0;
    node.cycles.forEach((cycle, i) => {
      steps.push([cycle, node.counts[i] - previous]);
      previous = node.counts[i];
    });
  }
  steps.sort((a, b) => a[0] - b[0]);
  let inFlight = 0;
  let last = 0;
  let area = 0;
  for (const [cycle, change] of steps) {
    area += inFlight * (cycle - last);
    inFlight += change;
    last = cycle;
  }
  return trace.lastCycle === 0 ? 0 : area / trace.lastCycle / trace.header.nodes;
}

/** Fig. 7-8's variant `variant` (VARIANTS_78) on `platform`, traced into `dir`: its MB/s per node and packets in the network per node. */
function queueRun(dir: string, platform: string, variant: number): { mbps: number; inFlight: number } {
  const trace = join(dir, 'fig78.trace');
  const params = Object.entries(params78(VARIANTS_78[variant].params)).flatMap(([k, v]) => ['--param', `${k}=${v}`]);
  const args = ['--platform', platform, 'apps/patterns', ...params, '--trace', trace, '--trace-network', '--json'];
  const out = execFileSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const summary = JSON.parse(out) as { verified: boolean; metrics: { mbPerSecPerNode: number } };
  if (!summary.verified) throw new Error(`fig78-queues: ${VARIANTS_78[variant].label} on ${platform} did not verify`);
  return { mbps: summary.metrics.mbPerSecPerNode, inFlight: meanInFlightPerNode(readTrace(readFileSync(trace), trace)) };
}

/** Prints the four runs (seed 1); platform files and traces go into `dir`. */
export function printFig78Queues(dir: string): void {
  const quiet = cm5Variant(dir, 'cm5-dedicated', { timeSlice: null });
  const noInterrupts = cm5Variant(dir, 'cm5-no-interrupts', { timeSlice: null, timerInterrupt: null });
  const rows = ([[POLL_ONCE, 'poll once (delay 35)'], [POLL_EMPTY, 'poll until empty (delay 28)']] as const).flatMap(([variant, poll]) =>
    [[quiet, 'timer interrupts'], [noInterrupts, 'no timer interrupts']].map(([platform, interrupts]): [string, string] => {
      const r = queueRun(dir, platform, variant);
      return [`${poll}, ${interrupts}`, `${fmt2.format(r.mbps)} MB/s, ${fmt2.format(r.inFlight)} packets per node in the network`];
    }),
  );
  printRows("What fills the network in Fig. 7-8's runs: barriers, bandwidth matching, no time slices, seed 1 (packets averaged over the run)", rows);
}
