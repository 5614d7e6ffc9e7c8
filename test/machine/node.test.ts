import { describe, expect, it } from 'vitest';
import { Simulation, type SimProcess } from '../../src/kernel/simulation.ts';
import { Node, WAKE_CONTROL, WAKE_DATA, WAKE_INJECT_RIGHT, WAKE_LEFT, WAKE_RIGHT, type Op } from '../../src/machine/node.ts';

/** A tiny real simulation: `count` nodes without timer interrupts, and a log of [cycle, what]. */
function world(count = 1) {
  const sim = new Simulation(1);
  const nodes = Array.from({ length: count }, (_, i) => new Node(sim, i));
  const log: [number, string][] = [];
  /** Runs `program` as `node`'s thread from cycle 0. */
  const start = (node: Node, program: Op): void => {
    node.pid = sim.spawn(`node ${node.id}`, program);
  };
  /** Runs `steps` as a process that is not a node (a stand-in for the network). */
  const outside = (steps: () => SimProcess): void => {
    sim.spawn('outside', steps());
  };
  return { sim, nodes, node: nodes[0], log, start, outside };
}

const counters = (n: Node) => ({ busy: n.busyCycles, spin: n.spinCycles, stall: n.stallCycles, interrupt: n.interruptCycles });

describe('Node: the clock rule', () => {
  it('charges cycles to its own clock without events; sync lets global time catch up', () => {
    const { sim, node, log, start } = world();
    node.charge(100);
    node.chargeSpin(20);
    node.chargeStall(5);
    expect([node.time, sim.now, node.ahead, sim.pendingEvents]).toEqual([125, 0, 125, 0]);
    start(
      node,
      (function* (): Op {
        log.push([sim.now, `starts with its clock at ${node.time}`]);
        yield* node.sync();
        log.push([sim.now, `synced at ${node.time}`]);
        node.charge(30);
        yield* node.sync();
        log.push([sim.now, `synced at ${node.time}`]);
        yield* node.sync(); // already there: no event
        log.push([sim.now, `synced again at ${node.time}`]);
      })(),
    );
    sim.run();
    expect(log).toEqual([
      [0, 'starts with its clock at 125'],
      [125, 'synced at 125'],
      [155, 'synced at 155'],
      [155, 'synced again at 155'],
    ]);
    expect(sim.events).toBe(3); // the start and one resume per sync that had to wait
  });

  it('files each charge under its own counter', () => {
    const { node } = world();
    node.charge(40);
    node.chargeSpin(11);
    node.chargeSpin(11);
    node.chargeStall(24);
    node.advance(7, true); // moves the clock; the caller files the cycles
    expect(counters(node)).toEqual({ busy: 40, spin: 22, stall: 24, interrupt: 0 });
    expect(node.time).toBe(93);
  });
});

describe('Node: idle', () => {
  it('parks until woken on its mask, then moves to the first iteration boundary at or after the wake-up', () => {
    // Node 0 spins in a loop of 10-cycle iterations until `ready`; the outside sets it
    // and notifies at 35, at 70 (on a boundary), and again at 70 once the node waits anew.
    const { sim, node, log, start, outside } = world();
    let ready = false;
    const wait = function* (what: string): Op {
      yield* node.idle(10, WAKE_LEFT, what, () => ready);
      ready = false;
      log.push([sim.now, `${what} over: clock ${node.time}, spin ${node.spinCycles}`]);
      yield* node.sync();
    };
    start(
      node,
      (function* (): Op {
        yield* wait('first wait');
        yield* wait('second wait');
        yield* wait('third wait');
        ready = true;
        yield* wait('fourth wait'); // ready at once: no park, no charge
      })(),
    );
    outside(function* () {
      yield 35;
      log.push([sim.now, `notify; node ${sim.processState(node.pid)} in ${node.waitingIn}`]);
      ready = true;
      node.notify(WAKE_LEFT);
      yield 35;
      ready = true;
      node.notify(WAKE_LEFT);
      yield 0; // lets the node take the flag and park again at 70
      log.push([sim.now, `notify; node ${sim.processState(node.pid)} in ${node.waitingIn}`]);
      ready = true;
      node.notify(WAKE_LEFT);
    });
    sim.run();
    expect(log).toEqual([
      [35, 'notify; node blocked in first wait'],
      // The iterations at 10, 20 and 30 failed; the one at 40 sees the flag.
      [35, 'first wait over: clock 40, spin 40'],
      // Parked at 40, woken at 70: the iteration at 70 sees it.
      [70, 'second wait over: clock 70, spin 70'],
      [70, 'notify; node blocked in third wait'],
      // Woken the cycle it parked: the iteration at 70 had failed, so the next is at 80.
      [70, 'third wait over: clock 80, spin 80'],
      [80, 'fourth wait over: clock 80, spin 80'],
    ]);
    expect(node.waitingIn).toBeNull();
    expect(counters(node)).toEqual({ busy: 0, spin: 80, stall: 0, interrupt: 0 });
  });

  it('syncs before its first check, and charges a stalled wait as stall cycles', () => {
    const { sim, node, log, start, outside } = world();
    let hasRoom = false;
    start(
      node,
      (function* (): Op {
        node.charge(12);
        yield* node.idle(7, WAKE_INJECT_RIGHT, 'a send (network full)', () => hasRoom, true);
        log.push([sim.now, `sent: clock ${node.time}`]);
      })(),
    );
    outside(function* () {
      yield 20;
      log.push([sim.now, `room; node in ${node.waitingIn}`]);
      hasRoom = true;
      node.notify(WAKE_INJECT_RIGHT);
    });
    sim.run();
    // Parked at 12 (not 0): checks at 19 fails, 26 succeeds.
    expect(log).toEqual([
      [20, 'room; node in a send (network full)'],
      [20, 'sent: clock 26'],
    ]);
    expect(counters(node)).toEqual({ busy: 12, spin: 0, stall: 14, interrupt: 0 });
  });

  it('notify wakes only a node idling on one of the mask bits, and only once', () => {
    const { sim, nodes, log, start, outside } = world(2);
    const [waiter, worker] = nodes;
    start(
      waiter,
      (function* (): Op {
        yield* waiter.idle(5, WAKE_RIGHT, 'a right packet', () => sim.now >= 30);
        log.push([sim.now, `waiter woken: clock ${waiter.time}`]);
      })(),
    );
    start(
      worker,
      (function* (): Op {
        worker.charge(100);
        yield* worker.sync();
        log.push([sim.now, 'worker done']);
      })(),
    );
    outside(function* () {
      for (const [delay, mask, name] of [
        [10, WAKE_LEFT, 'left'],
        [10, WAKE_CONTROL | WAKE_INJECT_RIGHT, 'control and inject-right'],
        [10, WAKE_DATA, 'left or right'],
      ] as const) {
        yield delay;
        const pending = sim.pendingEvents;
        waiter.notify(mask);
        worker.notify(mask); // running, not idle: nothing to wake
        waiter.notify(mask); // at most one wake-up
        log.push([sim.now, `notified ${name}: waiter ${sim.processState(waiter.pid)}, ${sim.pendingEvents - pending} event(s) scheduled`]);
      }
    });
    sim.run();
    expect(log).toEqual([
      [10, 'notified left: waiter blocked, 0 event(s) scheduled'],
      [20, 'notified control and inject-right: waiter blocked, 0 event(s) scheduled'],
      [30, 'notified left or right: waiter scheduled, 1 event(s) scheduled'],
      [30, 'waiter woken: clock 30'],
      [100, 'worker done'],
    ]);
  });
});

describe('Node: pause (time slices)', () => {
  it('delays a running node by the pause at once, and its sync waits for the new clock', () => {
    const { sim, node, log, start, outside } = world();
    start(
      node,
      (function* (): Op {
        node.charge(100);
        yield* node.sync();
        log.push([sim.now, `synced at ${node.time}`]);
      })(),
    );
    outside(function* () {
      yield 50;
      node.pause(sim.now, 30);
      log.push([sim.now, `paused for 30: clock ${node.time}`]);
    });
    sim.run();
    expect(log).toEqual([
      [50, 'paused for 30: clock 130'],
      [130, 'synced at 130'],
    ]);
    expect(counters(node)).toEqual({ busy: 100, spin: 0, stall: 0, interrupt: 30 });
  });

  it('holds a parked node until the pause ends if it is woken during it, and not at all if woken after', () => {
    const run = (wakeAt: number) => {
      const { sim, node, log, start, outside } = world();
      start(
        node,
        (function* (): Op {
          yield* node.idle(10, WAKE_LEFT, 'a packet', () => sim.now >= wakeAt);
          log.push([sim.now, `woken: clock ${node.time}`]);
        })(),
      );
      outside(function* () {
        yield 20;
        node.pause(sim.now, 50); // the node may not go on before 70
        log.push([sim.now, `paused for 50: clock ${node.time}`]);
        yield wakeAt - 20;
        node.notify(WAKE_LEFT);
      });
      sim.run();
      return { log, counters: counters(node) };
    };
    expect(run(30)).toEqual({
      log: [
        [20, 'paused for 50: clock 0'],
        [30, 'woken: clock 70'],
      ],
      // It spun up to the iteration at 30, then the pause held it until 70.
      counters: { busy: 0, spin: 30, stall: 0, interrupt: 40 },
    });
    expect(run(95)).toEqual({
      log: [
        [20, 'paused for 50: clock 0'],
        [95, 'woken: clock 100'],
      ],
      counters: { busy: 0, spin: 100, stall: 0, interrupt: 0 },
    });
  });

  it('skips the timer interrupts due during a pause of a running node', () => {
    const node = new Node(new Simulation(1), 0, { periodCycles: 1000, cycles: 100, phase: 500 });
    node.charge(400);
    node.pause(0, 300); // covers the interrupt due at 500
    node.charge(200); // 700 to 900: no interrupt in it
    expect([node.time, node.interruptCycles]).toEqual([900, 300]);
    node.charge(700); // the interrupt at 1500 falls inside
    expect([node.time, node.interruptCycles]).toEqual([1700, 400]);
  });
});
