import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/kernel/simulation.ts';
import type { Op } from '../../src/machine/node.ts';
import { END, StepOp, SUB } from '../../src/runtime/step-op.ts';

/** Waits 5 cycles, runs a nested generator that waits 3 then 4, then ends; logs each step's cycle. */
class Steps extends StepOp {
  private state = 0;
  private readonly sim: Simulation;
  private readonly log: string[];

  constructor(sim: Simulation, log: string[]) {
    super(null);
    this.sim = sim;
    this.log = log;
  }

  protected step(): number {
    this.log.push(`step ${this.state} at ${this.sim.now}`);
    switch (this.state++) {
      case 0:
        return 5;
      case 1:
        this.sub = this.nested();
        return SUB;
      default:
        return END;
    }
  }

  private *nested(): Op {
    this.log.push(`nested at ${this.sim.now}`);
    yield 3;
    yield 4;
    this.log.push(`nested ends at ${this.sim.now}`);
  }
}

describe('a state-machine operation', () => {
  it('runs under yield* like a generator: its waits, then a nested operation to its end, then the code after it', () => {
    const sim = new Simulation(1);
    const log: string[] = [];
    sim.spawn('p', (function* (): Op {
      yield* new Steps(sim, log);
      log.push(`after at ${sim.now}`);
    })());
    sim.run();
    expect(log).toEqual(['step 0 at 0', 'step 1 at 5', 'nested at 5', 'nested ends at 12', 'step 2 at 12', 'after at 12']);
  });

  it('is over after return(), and stays over', () => {
    const op = new Steps(new Simulation(1), []);
    expect(op.next()).toEqual({ value: 5, done: false });
    expect(op.return()).toEqual({ value: undefined, done: true });
    expect(op.next()).toEqual({ value: undefined, done: true });
  });
});
