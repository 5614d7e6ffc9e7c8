/**
 * Bandwidth matching's loop on paper (thesis 6.1.3, 7.3.3; issue 22), apart from the
 * simulator: nodes in a ring, each sending to the next (two nodes: an exchange; the
 * cyclic shift of Fig. 7-5 otherwise), each running the thesis's pseudo-code
 *
 *   loop { inject a packet; if packets have arrived, handle all of them (poll until
 *          empty) or one (poll once); otherwise delay }
 *
 * and nothing else: a packet is visible to its receiver's polls a fixed `latency`
 * cycles after it was injected, the network holds any number of packets, and no node
 * is interrupted unless asked. The costs are the platform's, charged as the simulator
 * charges them: an Xfer packet's send overhead, a poll that finds nothing, a received
 * packet (the receive overhead and the store of its words), the delay.
 *
 * It answers whether the alternation the thesis calls stable and self-synchronizing
 * (inject, receive one, repeat: eq. 47's 89 cycles a packet with one poll, 99 polling
 * until empty, 6.1.3) is where this loop goes at a CM-5's latencies and from any start
 * phase, and what an interrupt leaves behind, so that the simulator's two-node
 * exchange (bench/pacing.ts) can be read against the loop itself.
 */
import { blockTransferWords } from '../src/platform/packets.ts';
import type { Platform } from '../src/platform/schema.ts';
import { putCycles } from '../src/runtime/ports.ts';
import { fmt, fmt2, printRows } from './harness.ts';

/** The loop's costs in cycles. */
export interface LoopCosts {
  inject: number;
  /** A poll that finds a packet and handles it. */
  receive: number;
  failedPoll: number;
  /** Bandwidth matching's delay after a round that handled nothing. */
  delay: number;
}

/** The costs a platform's block transfer pays per packet in the simulator (block-send-op.ts, ports.ts). */
export function loopCosts(platform: Platform): LoopCosts {
  const m = platform.messaging;
  return {
    inject: m.xferSendOverheadCycles,
    receive: m.receiveOverheadCycles + putCycles(platform.cpu, blockTransferWords(m)),
    failedPoll: m.pollEmptyCycles,
    delay: m.bandwidthMatchDelayCycles,
  };
}

export interface RingOptions {
  nodes: number;
  latency: number;
  once: boolean;
  /** Packets each node sends. */
  packets: number;
  /** Each node's clock at the start (all 0 when absent). */
  phases?: readonly number[];
  /** Node 0 stops for `cycles` at its first action at or after cycle `at`. */
  interrupt?: { at: number; cycles: number };
}

export interface RingRun {
  /** Node 0's cycles between injections over the second half of its packets. */
  cyclesPerPacket: number;
  /** The mean number of packets visible to node 0 and not yet handled, seen at its injections in [from, to). */
  waitingAt(from: number, to: number): number;
}

const INJECT = 0;
const POLL = 1;
const DONE = 2;

/** Runs the loop on a ring: the node whose clock is earliest takes its next action (node order on ties). */
export function ringOnPaper(costs: LoopCosts, o: RingOptions): RingRun {
  const n = o.nodes;
  const clock = Array.from({ length: n }, (_, i) => o.phases?.[i] ?? 0);
  const visibleAt: number[][] = Array.from({ length: n }, () => []);
  const taken = new Array<number>(n).fill(0);
  const sent = new Array<number>(n).fill(0);
  const state = new Array<number>(n).fill(INJECT);
  const handled = new Array<number>(n).fill(0);
  const injections: number[] = [];
  const waiting: [number, number][] = [];
  let interrupt = o.interrupt;
  const arrived = (i: number) => taken[i] < visibleAt[i].length && visibleAt[i][taken[i]] <= clock[i];
  for (;;) {
    let i = -1;
    for (let k = 0; k < n; k++) if (state[k] !== DONE && (i < 0 || clock[k] < clock[i])) i = k;
    if (i < 0) break;
    if (i === 0 && interrupt !== undefined && clock[0] >= interrupt.at) {
      clock[0] += interrupt.cycles;
      interrupt = undefined;
      continue;
    }
    if (state[i] === INJECT) {
      if (sent[i] === o.packets) {
        state[i] = DONE;
        continue;
      }
      clock[i] += costs.inject;
      visibleAt[(i + 1) % n].push(clock[i] + o.latency);
      sent[i]++;
      handled[i] = 0;
      state[i] = POLL;
      if (i === 0) {
        injections.push(clock[0]);
        let w = 0;
        while (taken[0] + w < visibleAt[0].length && visibleAt[0][taken[0] + w] <= clock[0]) w++;
        waiting.push([clock[0], w]);
      }
    } else if (arrived(i)) {
      taken[i]++;
      clock[i] += costs.receive;
      handled[i]++;
      if (o.once) state[i] = INJECT;
    } else {
      clock[i] += costs.failedPoll + (handled[i] === 0 ? costs.delay : 0);
      state[i] = INJECT;
    }
  }
  const half = injections.length >> 1;
  return {
    cyclesPerPacket: (injections[injections.length - 1] - injections[half]) / (injections.length - 1 - half),
    waitingAt(from, to) {
      const seen = waiting.filter(([c]) => c >= from && c < to).map(([, w]) => w);
      return seen.reduce((a, b) => a + b, 0) / seen.length;
    },
  };
}

/** Start phases 0, 3, 6, ... below one alternation period (inject + receive + failed poll). */
function startPhases(costs: LoopCosts): number[] {
  const period = costs.inject + costs.receive + costs.failedPoll;
  return Array.from({ length: Math.ceil(period / 3) }, (_, k) => 3 * k);
}

/** Prints the loop's steady state over latencies and start phases, and the queue an interrupt leaves. */
export function paperReport(platform: Platform): void {
  const costs = loopCosts(platform);
  const alternation = costs.inject + costs.receive + costs.failedPoll;
  const phases = startPhases(costs);
  const rows: [string, string][] = [];
  for (const latency of [0, 40, 80, 120, 160]) {
    const once = ringOnPaper(costs, { nodes: 2, latency, once: true, packets: 2000 });
    const untilEmpty = phases.map((p) => ringOnPaper(costs, { nodes: 2, latency, once: false, packets: 2000, phases: [0, p] }).cyclesPerPacket);
    // Eight nodes in a ring, each starting a third of a period after the one before it.
    const ring = ringOnPaper(costs, { nodes: 8, latency, once: false, packets: 2000, phases: Array.from({ length: 8 }, (_, i) => (i * 37) % alternation) });
    const alternating = untilEmpty.filter((c) => c <= alternation + 1).length;
    rows.push([
      `latency ${latency}`,
      `${fmt2.format(once.cyclesPerPacket)} poll once; until empty ${fmt2.format(Math.min(...untilEmpty))}-${fmt2.format(Math.max(...untilEmpty))} over ${phases.length} start phases (${alternating} alternate), 8-node ring ${fmt2.format(ring.cyclesPerPacket)}`,
    ]);
  }
  printRows(
    `The loop on paper (bench/pacing-paper.ts): inject ${costs.inject}, receive ${costs.receive}, failed poll ${costs.failedPoll}, delay ${costs.delay} cycles; cycles per packet, two nodes unless said (alternation: ${costs.inject + costs.receive} poll once, ${alternation} until empty)`,
    rows,
  );

  const at = 100_000;
  const queue: [string, string][] = [];
  // The platform's delay; 7.3.3's 35 "to allow late processors to catch up more quickly";
  // one that makes a round whose poll fails longer than one that handles a packet; and
  // twice a receive.
  for (const delay of [costs.delay, 35, costs.receive - costs.failedPoll + 1, 2 * costs.receive]) {
    const r = ringOnPaper({ ...costs, delay }, { nodes: 8, latency: 120, once: true, packets: 4000, interrupt: { at, cycles: 1000 } });
    const w = (from: number, to: number) => fmt2.format(r.waitingAt(from, to));
    queue.push([`delay ${delay}`, `${w(at - 30_000, at)} before, ${w(at + 2_000, at + 30_000)} after, ${w(at + 100_000, at + 200_000)} from ${fmt.format(at + 100_000)} cycles on`]);
  }
  printRows('The same loop, poll once: packets waiting at node 0 of an 8-node ring (latency 120) around a 1,000-cycle interrupt at cycle 100,000', queue);
}
