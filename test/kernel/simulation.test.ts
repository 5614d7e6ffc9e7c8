import { describe, expect, it } from 'vitest';
import { BLOCK, Simulation, type SimProcess } from '../../src/kernel/simulation.ts';

describe('Simulation', () => {
  it('runs processes by yielded delays, ties in scheduling order', () => {
    const sim = new Simulation(1);
    const log: [number, string][] = [];
    function* worker(name: string, delays: number[]): SimProcess {
      for (const d of delays) {
        log.push([sim.now, `${name} waits ${d}`]);
        yield d;
      }
      log.push([sim.now, `${name} done`]);
    }
    sim.spawn('a', worker('a', [3, 2]));
    sim.spawn('b', worker('b', [5]));
    expect(sim.run()).toBe('idle');
    expect(log).toEqual([
      [0, 'a waits 3'],
      [0, 'b waits 5'],
      [3, 'a waits 2'],
      // Both resume at 5; b scheduled its resume first (at cycle 0, a at cycle 3).
      [5, 'b done'],
      [5, 'a done'],
    ]);
  });

  it('parks a process on BLOCK until another wakes it; a second wake is harmless', () => {
    const sim = new Simulation(1);
    const log: [number, string][] = [];
    const sleeper = sim.spawn(
      'sleeper',
      (function* (): SimProcess {
        log.push([sim.now, 'sleeps']);
        yield BLOCK;
        log.push([sim.now, 'woken']);
      })(),
    );
    sim.spawn(
      'waker',
      (function* (): SimProcess {
        yield 10;
        expect(sim.processState(sleeper)).toBe('blocked');
        expect(sim.wake(sleeper, 2)).toBe(true);
        expect(sim.wake(sleeper)).toBe(false);
        log.push([sim.now, 'woke sleeper']);
      })(),
    );
    sim.run();
    expect(log).toEqual([
      [0, 'sleeps'],
      [10, 'woke sleeper'],
      [12, 'woken'],
    ]);
    expect(sim.processState(sleeper)).toBe('done');
  });

  it('tells a process it is running, the others scheduled, and a running process cannot be woken', () => {
    const sim = new Simulation(1);
    const seen: string[] = [];
    let other = -1;
    let self = -1;
    self = sim.spawn(
      'self',
      (function* (): SimProcess {
        seen.push(`self ${sim.processState(self)}, other ${sim.processState(other)}, wake self ${sim.wake(self)}`);
        yield 5;
        seen.push(`self ${sim.processState(self)}, other ${sim.processState(other)}`);
      })(),
    );
    other = sim.spawn(
      'other',
      (function* (): SimProcess {
        yield 3;
      })(),
    );
    expect(sim.processState(self)).toBe('scheduled');
    sim.run();
    expect(seen).toEqual(['self running, other scheduled, wake self false', 'self running, other done']);
    expect(sim.processState(self)).toBe('done');
  });

  it('dispatches registered event kinds with their arguments', () => {
    const sim = new Simulation(1);
    const seen: [number, number, number, unknown][] = [];
    const kind = sim.defineEventKind('probe', (a0, a1, obj) => seen.push([sim.now, a0, a1, obj]));
    sim.schedule(4, kind, 1, 2, 'x');
    sim.scheduleAt(2, kind, 3, 4);
    sim.run();
    expect(seen).toEqual([
      [2, 3, 4, undefined],
      [4, 1, 2, 'x'],
    ]);
    expect(sim.kindName(kind)).toBe('probe');
  });

  it('rejects delays that are negative or not whole cycles', () => {
    const sim = new Simulation(1);
    const kind = sim.defineEventKind('k', () => {});
    expect(() => sim.schedule(-1, kind)).toThrow(/non-negative integer/);
    expect(() => sim.schedule(1.5, kind)).toThrow(/non-negative integer/);
    expect(() => sim.schedule(Number.NaN, kind)).toThrow(/non-negative integer/);
  });

  it('stops on request and at cycle and event limits', () => {
    const sim = new Simulation(1);
    let count = 0;
    const kind = sim.defineEventKind('tick', () => {
      count++;
      if (count === 3) sim.stop();
      sim.schedule(10, kind);
    });
    sim.schedule(0, kind);
    expect(sim.run()).toBe('stopped');
    expect([sim.now, count]).toEqual([20, 3]);
    expect(sim.run({ untilCycle: 45 })).toBe('cycle-limit');
    expect([sim.now, count]).toEqual([40, 5]);
    expect(sim.run({ maxEvents: 7 })).toBe('event-limit');
    expect(sim.events).toBe(7);
    // Both reached: the next event (cycle 70) is past the cycle limit, which is the outcome.
    expect(sim.run({ maxEvents: 7, untilCycle: 69 })).toBe('cycle-limit');
    expect(sim.run({ maxEvents: 7, untilCycle: 70 })).toBe('event-limit');
    // A far event (the wheel's heap) past the limit stays too, and runs once the limit allows it.
    const far = new Simulation(1);
    const seen: number[] = [];
    const mark = far.defineEventKind('mark', (a0) => void seen.push(a0));
    far.schedule(100_000, mark, 1);
    far.schedule(5, mark, 0);
    expect(far.run({ untilCycle: 99_999 })).toBe('cycle-limit');
    expect([far.now, seen, far.pendingEvents]).toEqual([5, [0], 1]);
    expect(far.run({ untilCycle: 100_000 })).toBe('idle');
    expect(seen).toEqual([0, 1]);
  });

  it('dispatches an event due exactly at the cycle limit, and none after it', () => {
    const sim = new Simulation(1);
    const seen: number[] = [];
    const kind = sim.defineEventKind('tick', () => {
      seen.push(sim.now);
      sim.schedule(10, kind);
    });
    sim.schedule(0, kind);
    expect(sim.run({ untilCycle: 30 })).toBe('cycle-limit');
    expect(seen).toEqual([0, 10, 20, 30]);
    expect(sim.now).toBe(30);
  });

  it('tells apart events whose times differ only above 2^32 cycles', () => {
    function fingerprint(time: number): string {
      const sim = new Simulation(1);
      const kind = sim.defineEventKind('e', () => {});
      sim.scheduleAt(time, kind, 5, 6);
      sim.run();
      return sim.fingerprint();
    }
    expect(fingerprint(7)).not.toBe(fingerprint(7 + 2 ** 32));
  });

  it('gives the same fingerprint for the same events and a different one when any event differs', () => {
    function fingerprint(lastDelay: number): string {
      const sim = new Simulation(1);
      const kind = sim.defineEventKind('e', () => {});
      sim.schedule(1, kind, 5, 6);
      sim.schedule(lastDelay, kind, 7, 8);
      sim.run();
      return sim.fingerprint();
    }
    expect(fingerprint(3)).toBe(fingerprint(3));
    expect(fingerprint(3)).not.toBe(fingerprint(4));
    expect(fingerprint(3)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('dispatches background events in order without letting them keep the run going', () => {
    const sim = new Simulation(1);
    const log: string[] = [];
    const tick = sim.defineEventKind(
      'tick',
      () => {
        log.push(`tick ${sim.now}`);
        sim.schedule(10, tick);
      },
      { background: true },
    );
    const work = sim.defineEventKind('work', () => void log.push(`work ${sim.now}`));
    sim.schedule(5, tick);
    sim.schedule(12, work);
    sim.schedule(30, work);
    expect(sim.run()).toBe('idle');
    // The tick at 35 is still queued, but nothing else is: the run ends at the last work.
    expect(log).toEqual(['tick 5', 'work 12', 'tick 15', 'tick 25', 'work 30']);
    expect([sim.now, sim.pendingEvents]).toEqual([30, 1]);
  });

  it('keeps two simulations in one process independent', () => {
    const a = new Simulation(1);
    const b = new Simulation(2);
    const ka = a.defineEventKind('a', () => {});
    b.defineEventKind('b', () => {});
    a.schedule(5, ka);
    a.run();
    expect(a.now).toBe(5);
    expect(b.now).toBe(0);
    expect(b.pendingEvents).toBe(0);
  });

  it('starts a process spawned with a delay that many cycles from now', () => {
    const sim = new Simulation(1);
    const starts: number[] = [];
    sim.spawn('late', (function* (): SimProcess {
      starts.push(sim.now);
    })(), 7);
    sim.run();
    expect(starts).toEqual([7]);
  });

  it('shows an observer each event with its first argument and 16 bits of the fingerprint', () => {
    const sim = new Simulation(1);
    const kind = sim.defineEventKind('e', () => {});
    for (let i = 0; i < 200; i++) sim.schedule(i, kind, 1000 + i, 5);
    const seen: [number, number][] = [];
    const digests: number[] = [];
    sim.observer = (index, _time, _kind, a0, digest) => {
      seen.push([index, a0]);
      digests.push(digest);
    };
    sim.run();
    expect(seen.slice(0, 2)).toEqual([[1, 1000], [2, 1001]]);
    expect(digests.every((d) => d >= 0 && d < 65536)).toBe(true);
    expect(digests.some((d) => d >= 256)).toBe(true);
  });

  it('names no process when an event handler throws after a process ran', () => {
    const sim = new Simulation(1);
    const kind = sim.defineEventKind('fails', () => {
      throw new Error('handler');
    });
    sim.spawn('calm', (function* (): SimProcess {
      sim.schedule(1, kind);
    })());
    expect(() => sim.run()).toThrow('handler');
    expect(sim.currentProcess).toBe(-1);
  });

  it('names the process that threw', () => {
    const sim = new Simulation(1);
    sim.spawn('calm', (function* (): SimProcess {})());
    const bad = sim.spawn(
      'bad',
      (function* (): SimProcess {
        yield 3;
        throw new Error('boom');
      })(),
    );
    expect(() => sim.run()).toThrow('boom');
    expect(sim.currentProcess).toBe(bad);
    expect(sim.processName(bad)).toBe('bad');
  });
});
