import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/kernel/simulation.ts';
import { Node } from '../../src/machine/node.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

describe('timer interrupts (thesis 3.4.1)', () => {
  it('lengthen work by each interrupt in it, but delay a wait only if one is still running at its end', () => {
    const node = new Node(new Simulation(1), 0, { periodCycles: 1000, cycles: 100, phase: 500 });
    node.charge(400);
    expect(node.time).toBe(400);
    node.charge(200); // the interrupt at 500 falls inside: the work ends 100 cycles later
    expect([node.time, node.interruptCycles]).toEqual([700, 100]);
    node.chargeSpin(850); // would end at 1550, while the interrupt of 1500 runs until 1600
    expect([node.time, node.interruptCycles]).toEqual([1600, 150]);
    node.chargeStall(1000); // the interrupt at 2500 is over by the end, 2600
    expect([node.time, node.interruptCycles]).toEqual([2600, 150]);
    node.charge(2000); // 3500 falls inside, and 4500 too once the work has grown to 2100
    expect([node.time, node.interruptCycles, node.busyCycles]).toEqual([4800, 350, 2600]);
  });

  it("are counted in closed form, as interrupt by interrupt, for waits and for work of 10^13 cycles (the loop's time grew with the interrupts: compute(1e20) would have taken years)", () => {
    const timer = { periodCycles: 550_000, cycles: 1000, phase: 123_456 };
    /** The straightforward loop: each interrupt before the end, the work lengthened by each. */
    const byLoop = (start: number, cycles: number, isWork: boolean) => {
      let next = timer.phase;
      while (next < start) next += timer.periodCycles;
      let end = start + cycles;
      let last = -Infinity;
      while (next < end) {
        last = next;
        if (isWork) end += timer.cycles;
        next += timer.periodCycles;
      }
      return isWork ? end : Math.max(end, last + timer.cycles);
    };
    for (const [start, cycles] of [[0, 1e13], [200_000, 7_654_321_987], [123_456, 1], [0, 123_456], [0, 123_457], [999, 550_000 * 5]]) {
      for (const isWork of [true, false]) {
        const node = new Node(new Simulation(1), 0, timer);
        node.chargeSpin(start); // a wait to about `start`
        const from = node.time;
        if (isWork) node.charge(cycles);
        else node.chargeSpin(cycles);
        expect(node.time, `${isWork ? 'work' : 'wait'} of ${cycles} from ${from}`).toBe(byLoop(from, cycles, isWork));
      }
    }
  });

  it('take about 1000 cycles every 1/60 s on the CM-5, at a phase per node drawn from the seed', () => {
    const { periodCycles, cycles } = loadTestPlatform('cm5').timerInterrupt!;
    expect([periodCycles, cycles]).toEqual([550_000, 1000]); // 33 MHz / 60; Fig. 3-6
    const work = 2_000_000;
    const lost = (seed: number) =>
      runInline(
        'cm5',
        8,
        function* (rt) {
          const start = rt.cycleCount();
          rt.compute(work);
          return rt.elapsedCycles(start) - work;
        },
        { seed },
      ).results;
    const one = lost(1);
    // 2,000,000 cycles hold three or four interrupts, depending on the phase.
    for (const extra of one) expect([3 * cycles, 4 * cycles]).toContain(extra);
    expect(new Set(one).size).toBe(2);
    expect(lost(1)).toEqual(one);
    expect([2, 3, 4, 5].some((seed) => lost(seed).join() !== one.join())).toBe(true);
  });

  it('are absent on the PROTEUS-simulated platforms', () => {
    for (const platform of ['alewife', 'paragon', 'atm'] as const) {
      const { summary, results } = runInline(platform, 4, function* (rt) {
        const start = rt.cycleCount();
        rt.compute(5_000_000);
        return rt.elapsedCycles(start);
      });
      expect(summary.interruptCycles.max, platform).toBe(0);
      expect(results, platform).toEqual([5_000_000, 5_000_000, 5_000_000, 5_000_000]);
    }
  });
});
