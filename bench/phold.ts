/**
 * PHOLD kernel benchmark model: `processes` logical processes, each starting with
 * `pendingPerProcess` events; every event schedules one new event at an
 * exponentially distributed integer delay (>= 1 cycle) to a uniformly random
 * process. Two variants: plain event handlers, and one generator per process resumed
 * for each event it receives (the cost simulated nodes pay).
 * bench/native/phold.cpp is the same model over std::priority_queue; both use the
 * same random stream, so they follow the same trajectory and finish at the same time.
 */
import { Simulation } from '../src/kernel/simulation.ts';

/** The model of issue 2's benchmark: 4096 x 16 pending, 5 M events, mean delay 100 cycles. */
export const PHOLD_MODEL = { processes: 4096, pendingPerProcess: 16, events: 5_000_000, meanDelayCycles: 100, seed: 1 };

export interface PholdOptions {
  processes: number;
  pendingPerProcess: number;
  events: number;
  meanDelayCycles: number;
  seed: number;
  mode: 'handler' | 'generator';
}

export interface PholdResult {
  events: number;
  finalCycle: number;
  targetSum: number;
  wallMs: number;
  eventsPerSec: number;
  fingerprint: string;
}

export function runPhold(o: PholdOptions): PholdResult {
  const sim = new Simulation(o.seed);
  const rng = sim.stream('phold');
  const n = o.processes;
  const mean = o.meanDelayCycles;
  let targetSum = 0;
  let kind = 0;
  if (o.mode === 'handler') {
    kind = sim.defineEventKind('phold', () => {
      const target = rng.int(n);
      targetSum += target;
      sim.schedule(1 + Math.floor(rng.exponential(mean)), kind, target);
    });
  } else {
    const gens: Generator<void, void, undefined>[] = [];
    function* lp(): Generator<void, void, undefined> {
      for (;;) {
        const target = rng.int(n);
        targetSum += target;
        sim.schedule(1 + Math.floor(rng.exponential(mean)), kind, target);
        yield;
      }
    }
    for (let i = 0; i < n; i++) {
      const g = lp();
      gens.push(g);
    }
    kind = sim.defineEventKind('phold', (target) => {
      gens[target].next();
    });
  }
  for (let i = 0; i < n; i++) {
    for (let e = 0; e < o.pendingPerProcess; e++) {
      sim.schedule(1 + Math.floor(rng.exponential(mean)), kind, i);
    }
  }
  const t0 = performance.now();
  sim.run({ maxEvents: o.events });
  const wallMs = performance.now() - t0;
  return {
    events: sim.events,
    finalCycle: sim.now,
    targetSum,
    wallMs,
    eventsPerSec: (sim.events / wallMs) * 1000,
    fingerprint: sim.fingerprint(),
  };
}
