// Bandwidth matching's loop on paper (bench/pacing-paper.ts): the thesis's pseudo-code
// (6.1.3) run on a ring of nodes with the CM-5's costs and a fixed latency, without the
// simulator. What it shows is what issue 22's evidence rests on: one poll per packet
// settles at eq. 47's arithmetic and keeps any queue an interrupt leaves (6.1.3's
// "stable queue"); polling until empty alternates only when packets are visible at
// once, and bursts at a CM-5's latency whatever the start phase.
import { describe, expect, it } from 'vitest';
import { loopCosts, ringOnPaper, type LoopCosts } from '../../bench/pacing-paper.ts';
import { loadPlatform } from '../../src/cli/load-inputs.ts';

const cm5 = async (): Promise<LoopCosts> => loopCosts(await loadPlatform('cm5'));

describe('the bandwidth-matching loop on paper', () => {
  it("takes the CM-5's costs as the simulator charges them: an Xfer send, the receive overhead and four stored words, a failed poll, the delay", async () => {
    // 26 + (46 + round(2 + 4 + 8 + 1.5)) = 88: eq. 47's 89 cycles a packet with one poll.
    expect(await cm5()).toEqual({ inject: 26, receive: 62, failedPoll: 11, delay: 28 });
  });

  it('with one poll per packet, two exchanging nodes settle at inject + receive a packet, at any latency', async () => {
    const costs = await cm5();
    for (const latency of [0, 60, 120, 200]) {
      expect(ringOnPaper(costs, { nodes: 2, latency, once: true, packets: 1000 }).cyclesPerPacket).toBe(costs.inject + costs.receive);
    }
  });

  it('polling until empty alternates at inject + receive + failed poll (99) only when packets are visible at once; at 120 cycles of latency it bursts from every start phase', async () => {
    const costs = await cm5();
    const alternation = costs.inject + costs.receive + costs.failedPoll;
    expect(ringOnPaper(costs, { nodes: 2, latency: 0, once: false, packets: 1000, phases: [0, 40] }).cyclesPerPacket).toBe(alternation);
    for (let phase = 0; phase < alternation; phase += 9) {
      const r = ringOnPaper(costs, { nodes: 2, latency: 120, once: false, packets: 1000, phases: [0, phase] });
      expect(r.cyclesPerPacket, `start phase ${phase}`).toBeGreaterThan(alternation + 10);
    }
  });

  it('one poll per packet keeps the queue a 1,000-cycle interrupt leaves, with the thesis\'s 35-cycle delay too; polling until empty drains it', async () => {
    const costs = await cm5();
    const at = 50_000;
    const around = (once: boolean, delay: number) => {
      const r = ringOnPaper({ ...costs, delay }, { nodes: 8, latency: 120, once, packets: 3000, interrupt: { at, cycles: 1000 } });
      return { before: r.waitingAt(at - 20_000, at), after: r.waitingAt(at + 100_000, at + 150_000) };
    };
    for (const delay of [costs.delay, 35]) {
      const once = around(true, delay);
      expect(once.before).toBe(1);
      // About 1,000 cycles of the neighbour's sends at one a round whose poll failed.
      expect(once.after).toBeGreaterThan(10);
    }
    const empty = around(false, costs.delay);
    expect(empty.after).toBeLessThan(2);
  });

  it("an interrupt on node 0 leaves the ring's pace as it was, and a queue behind", async () => {
    const costs = await cm5();
    const plain = ringOnPaper(costs, { nodes: 4, latency: 80, once: true, packets: 500 });
    const late = ringOnPaper(costs, { nodes: 4, latency: 80, once: true, packets: 500, interrupt: { at: 10_000, cycles: 1000 } });
    // The interrupt falls in the first half: the steady state after it is the same alternation.
    expect(late.cyclesPerPacket).toBe(plain.cyclesPerPacket);
    expect(late.waitingAt(20_000, 40_000)).toBeGreaterThan(plain.waitingAt(20_000, 40_000));
  });
});
