/**
 * Bandwidth matching's pacing loop up close (thesis 6.1.3, 7.3.3; issue 22): two CM-5
 * nodes exchanging blocks (patterns cshift by 1 on 2 nodes), each node's injections and
 * receptions read back from a message trace. Prints
 *   - node 0's timeline with each poll policy: one poll per packet settles into the
 *     alternation the thesis describes (inject, receive one, repeat); polling until
 *     empty settles into bursts (inject k while nothing has arrived, then drain k);
 *   - the steady state in cycles per packet beside the thesis's (eq. 47: 89 with one
 *     poll; send + one packet + one failed poll = 99 polling until empty), for the
 *     shipped network interface latency and others, and under --perturb;
 *   - what a timer interrupt leaves behind with one poll per packet: the time packets
 *     wait to be received before and after it (the stable queue of 6.1.3);
 *   - the same loop on paper, without the simulator (pacing-paper.ts), over latencies
 *     and start phases.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace, type MessageRecord } from '../src/trace/reader.ts';
import { loadPlatform } from '../src/cli/load-inputs.ts';
import { fmt, fmt2, printRows } from './harness.ts';
import { paperReport } from './pacing-paper.ts';

const ROOT = join(import.meta.dirname, '..');

/** The shipped CM-5 platform file, as parsed JSON (the part this bench changes). */
type Cm5File = { network: { interfaceLatencyCycles: number } };

interface Exchange {
  /** Node 0's injections (cycles) and what it took out of the network. */
  sends: number[];
  receives: MessageRecord[];
}

/** Runs the 2-node exchange on `platform` (a name or a file), tracing into `dir`, and reads node 0's side of it back. */
function exchange(dir: string, platform: string, blockBytes: number, poll: string, extra: string[] = []): Exchange {
  const trace = join(dir, 'run.trace');
  const args = ['--platform', platform, '--nodes', '2', 'apps/patterns', '--param', 'pattern=cshift', '--param', 'shift=1'];
  args.push('--param', `blockBytes=${blockBytes}`, '--param', `poll=${poll}`, '--trace', trace, '--trace-messages', '--json', ...extra);
  execFileSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const messages = readTrace(readFileSync(trace), trace).messages;
  const sends = messages.filter((m) => m.src === 0).map((m) => m.sent);
  sends.sort((a, b) => a - b);
  return { sends, receives: messages.filter((m) => m.dst === 0) };
}

/** Mean cycles between node 0's injections over the second half of the transfer (the start-up left out). */
function cyclesPerPacket(e: Exchange): number {
  const s = e.sends;
  const from = s.length >> 1;
  return (s[s.length - 1] - s[from]) / (s.length - 1 - from);
}

/** Node 0's events from its `from`-th injection on: injections and receptions in time order. */
function timeline(e: Exchange, from: number, count: number): [string, string][] {
  const t0 = e.sends[from];
  const events: [number, string][] = [
    ...e.sends.map((c): [number, string] => [c, 'injects a packet']),
    ...e.receives.map((m): [number, string] => [m.received, `receives one (injected by node 1 at ${fmt.format(m.sent)})`]),
  ];
  events.sort((a, b) => a[0] - b[0]);
  return events
    .filter(([c]) => c >= t0)
    .slice(0, count)
    .map(([c, what]) => [`cycle ${fmt.format(c)}`, what]);
}

/** `shipped` with `interfaceLatencyCycles` set to `cycles`, as a platform file in `dir`. */
function withInterfaceLatency(dir: string, shipped: Cm5File, cycles: number): string {
  const file = join(dir, `cm5-interface-${cycles}.json`);
  writeFileSync(file, JSON.stringify({ ...shipped, network: { ...shipped.network, interfaceLatencyCycles: cycles } }));
  return file;
}

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

export async function pacingBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pacing-'));
  try {
    report(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  paperReport(await loadPlatform('cm5'));
}

function report(dir: string): void {
  const once = exchange(dir, 'cm5', 16384, 'once');
  const empty = exchange(dir, 'cm5', 16384, 'empty');
  printRows('Two CM-5 nodes exchanging 16 KB blocks, poll once: node 0 from its 400th packet', timeline(once, 400, 12));
  printRows('The same, polling until empty', timeline(empty, 400, 12));

  const shipped = JSON.parse(readFileSync(join(ROOT, 'platforms/cm5.json'), 'utf8')) as Cm5File;
  const rows: [string, string][] = [];
  for (const latency of [0, 40, shipped.network.interfaceLatencyCycles, 120]) {
    const platform = latency === shipped.network.interfaceLatencyCycles ? 'cm5' : withInterfaceLatency(dir, shipped, latency);
    const label = `interface latency ${latency}${platform === 'cm5' ? ' (shipped)' : ''}`;
    const o = platform === 'cm5' ? once : exchange(dir, platform, 16384, 'once');
    const u = platform === 'cm5' ? empty : exchange(dir, platform, 16384, 'empty');
    rows.push([label, `${fmt2.format(cyclesPerPacket(o))} poll once, ${fmt2.format(cyclesPerPacket(u))} until empty`]);
  }
  for (const seed of [1, 2]) {
    const perturbed = (poll: string) => fmt2.format(cyclesPerPacket(exchange(dir, 'cm5', 16384, poll, ['--perturb', String(seed)])));
    rows.push([`shipped, --perturb ${seed}`, `${perturbed('once')} poll once, ${perturbed('empty')} until empty`]);
  }
  printRows('Cycles per packet in the steady state (thesis: 89 poll once, eq. 47; 99 until empty: send + one packet + one failed poll)', rows);

  // A long exchange, so that timer interrupts (1,000 cycles every 550,000 of a node's
  // clock) fall into it: node 0's first gap between injections of over 1,000 cycles.
  const long = exchange(dir, 'cm5', 1 << 20, 'once');
  const k = long.sends.findIndex((c, i) => i > 0 && c - long.sends[i - 1] > 1000) - 1;
  const at = long.receives.findIndex((m) => m.received > long.sends[k]);
  const waited = (from: number, to: number) => fmt.format(mean(long.receives.slice(from, to).map((m) => m.received - m.sent)));
  printRows(
    `A timer interrupt on node 0 in a 1 MB exchange, poll once: ${fmt.format(long.sends[k + 1] - long.sends[k])} cycles between its injections at cycle ${fmt.format(long.sends[k])}`,
    [
      ['cycles per packet, 200 packets before', fmt2.format((long.sends[k] - long.sends[k - 200]) / 200)],
      ['cycles per packet, 200 packets after', fmt2.format((long.sends[k + 201] - long.sends[k + 1]) / 200)],
      ['cycles a received packet had waited, packets 200 to 400', waited(200, 400)],
      ['cycles a received packet had waited, 200 before', waited(at - 200, at)],
      ['cycles a received packet had waited, the 200 after the next 20', waited(at + 20, at + 220)],
      ['cycles a received packet had waited, the last 200', waited(long.receives.length - 200, long.receives.length)],
    ],
  );
}
