import { describe, expect, it } from 'vitest';
import { InputError, RunFailure } from '../../src/kernel/errors.ts';
import { BLOCK } from '../../src/kernel/simulation.ts';
import { DeadlockError } from '../../src/kernel/errors.ts';
import { Machine, type MachineOptions, type TraceSink } from '../../src/machine/machine.ts';
import { WAKE_CONTROL, WAKE_INJECT_LEFT, WAKE_LEFT, WAKE_RIGHT, type Node, type Op } from '../../src/machine/node.ts';
import { CombineOp, SegmentType } from '../../src/network/combine.ts';
import { GLOBAL_OR_CHANNEL } from '../../src/network/combine.ts';
import { ControlNetwork } from '../../src/network/control-network.ts';
import { LEFT, Packet, RIGHT } from '../../src/network/packet.ts';
import type { Platform } from '../../src/platform/schema.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** The CM-5 without its timer interrupts, so that cycle counts stay round. */
const quietCm5 = (): Platform => ({ ...loadTestPlatform('cm5'), timerInterrupt: null });

function machine(platform: Platform | 'alewife', options: Partial<MachineOptions> = {}): Machine {
  return new Machine(platform === 'alewife' ? loadTestPlatform('alewife') : platform, { nodes: 4, seed: 1, network: 'analytic', ...options });
}

/** Starts `program(node)` on every node; `log` collects [cycle, what]. */
function startAll(m: Machine, program: (node: Node) => Op): void {
  for (const node of m.nodes) m.start(node, program(node));
}

/** Charges `cycles` of work, lets global time catch up, and exits. */
function* workThenExit(m: Machine, node: Node, cycles: number, log: [number, string][]): Op {
  node.charge(cycles);
  yield* node.sync();
  log.push([m.sim.now, `node ${node.id} exits`]);
  m.exit(node);
}

/** A 20-byte packet: on a 2 x 2 Alewife mesh, neighbours are 30 + floor(1.28) + 20/2 = 41 cycles apart. */
const packet = (src: number, dst: number, net: number) => new Packet(src, dst, net, 20, null, []);

describe('Machine: built from a platform', () => {
  it('has one node per id, the chosen data network, and a control network only where the platform has one', () => {
    const alewife = machine('alewife');
    expect([alewife.size, alewife.nodes.map((n) => n.id), alewife.network.mode, alewife.control]).toEqual([4, [0, 1, 2, 3], 'analytic', null]);
    expect(alewife.topology.describe()).toBe('2 x 2 mesh');
    const cm5 = machine(quietCm5(), { nodes: 8, network: 'packet' });
    expect(cm5.network.mode).toBe('packet');
    expect(cm5.control).toBeInstanceOf(ControlNetwork);
  });

  it('refuses a node count its topology cannot have', () => {
    expect(() => machine(quietCm5(), { nodes: 6 })).toThrow(InputError);
    expect(() => machine(quietCm5(), { nodes: 6 })).toThrow('6 nodes: expected a power of two for a fat-tree network');
  });

  it('perturbs only when asked, from the perturbation seed alone', () => {
    expect(machine('alewife').perturbation).toBeNull();
    expect(machine('alewife').network.perturbation).toBeNull();
    const draws = (m: Machine) => [0, 1, 2, 3, 4, 5].map(() => m.perturbation!.int(4));
    const a = machine('alewife', { perturb: 7, seed: 1 });
    const b = machine('alewife', { perturb: 7, seed: 2 });
    expect(a.network.perturbation).not.toBeNull();
    expect(draws(a)).toEqual(draws(b));
    expect(draws(machine('alewife', { perturb: 8 }))).not.toEqual(draws(machine('alewife', { perturb: 7 })));
  });
});

describe('Machine: the run loop', () => {
  it('ends when every node has exited, even with events still to come', () => {
    const m = machine('alewife', { nodes: 2 });
    const log: [number, string][] = [];
    m.start(
      m.nodes[0],
      (function* (): Op {
        m.nodes[0].charge(100);
        yield* m.nodes[0].sync();
        m.network.tryInject(packet(0, 1, LEFT)); // arrives at 141, after everyone left
        log.push([m.sim.now, 'node 0 sends and exits']);
        m.exit(m.nodes[0]);
      })(),
    );
    m.start(m.nodes[1], workThenExit(m, m.nodes[1], 110, log));
    m.run();
    expect(log).toEqual([
      [100, 'node 0 sends and exits'],
      [110, 'node 1 exits'],
    ]);
    expect([m.allExited, m.sim.now, m.finishCycle, m.nodes.map((n) => n.exitCycle)]).toEqual([true, 110, 110, [100, 110]]);
    expect(m.sim.pendingEvents).toBe(1); // the packet's delivery
    expect(m.nodes.map((n) => m.sim.processName(n.pid))).toEqual(['node 0', 'node 1']);
  });

  it('reports a deadlock when events run out first, grouping the nodes by what they wait in', () => {
    const m = machine('alewife', { nodes: 8 });
    const log: [number, string][] = [];
    startAll(m, (node) => {
      if (node.id === 4 || node.id === 6) return workThenExit(m, node, node.id * 10, log);
      if (node.id === 7) {
        return (function* (): Op {
          yield BLOCK; // parked by no runtime call: nothing says what it waits in
        })();
      }
      return node.idle(20, WAKE_CONTROL, 'completeBarrier', () => false);
    });
    let error: unknown;
    try {
      m.run();
    } catch (e) {
      error = e;
    }
    expect(log).toEqual([
      [40, 'node 4 exits'],
      [60, 'node 6 exits'],
    ]);
    expect(error).toBeInstanceOf(DeadlockError);
    expect(error).toBeInstanceOf(RunFailure);
    const deadlock = error as DeadlockError;
    expect(deadlock.message).toBe(
      [
        'deadlock at cycle 60: 6 node(s) waiting with nothing left to happen',
        '  nodes 0-3,5: waiting in completeBarrier',
        '  nodes 4,6: exited',
        '  node 7: waiting in an unknown call',
      ].join('\n'),
    );
    expect(deadlock.nodeStates).toEqual([
      ...Array(4).fill('waiting in completeBarrier'),
      'exited',
      'waiting in completeBarrier',
      'exited',
      'waiting in an unknown call',
    ]);
  });

  it("passes on a node program's exception", () => {
    const m = machine('alewife', { nodes: 2 });
    startAll(m, (node) =>
      (function* (): Op {
        node.charge(20);
        yield* node.sync();
        if (node.id === 1) throw new Error('node 1 broke');
        m.exit(node);
      })(),
    );
    expect(() => m.run()).toThrow('node 1 broke');
    expect([m.sim.now, m.allExited]).toEqual([20, false]);
  });
});

describe('Machine: networks wake the nodes that wait on them', () => {
  it('a packet wakes a node idling on its logical network, not one waiting on the other', () => {
    const m = machine('alewife');
    const log: [number, string][] = [];
    const [receiver, sender] = m.nodes;
    m.start(
      receiver,
      (function* (): Op {
        yield* receiver.idle(5, WAKE_RIGHT, 'a right packet', () => m.network.waiting(0, RIGHT) > 0);
        log.push([m.sim.now, `node 0 woken: clock ${receiver.time}, left ${m.network.waiting(0, LEFT)}, right ${m.network.waiting(0, RIGHT)}`]);
        yield* receiver.sync();
        m.exit(receiver);
      })(),
    );
    m.start(
      sender,
      (function* (): Op {
        m.network.tryInject(packet(1, 0, LEFT)); // arrives at 41: node 0 sleeps on
        sender.charge(10);
        yield* sender.sync();
        m.network.tryInject(packet(1, 0, RIGHT)); // arrives at 51
        m.exit(sender);
      })(),
    );
    for (const node of m.nodes.slice(2)) m.start(node, workThenExit(m, node, 0, []));
    m.run();
    // Woken at 51, node 0 finds the packet at its iteration at 55.
    expect(log).toEqual([[51, 'node 0 woken: clock 55, left 1, right 1']]);
  });

  it('a full injection buffer wakes its stalled sender when it has room again', () => {
    const m = machine('alewife', { network: 'packet' });
    const log: [number, string][] = [];
    const sender = m.nodes[1];
    m.start(
      sender,
      (function* (): Op {
        // Alewife's injection buffer holds two packets.
        const accepted = [0, 1, 2].map(() => m.network.tryInject(packet(1, 0, LEFT)));
        log.push([m.sim.now, `accepted ${accepted.join(', ')}`]);
        yield* sender.idle(3, WAKE_INJECT_LEFT, 'a send (network full)', () => m.network.canInject(1, LEFT), true);
        log.push([m.sim.now, `room again: clock ${sender.time}, stall ${sender.stallCycles}, injected ${m.network.tryInject(packet(1, 0, LEFT))}`]);
        yield* sender.sync();
        m.exit(sender);
      })(),
    );
    for (const node of m.nodes.filter((n) => n !== sender)) m.start(node, workThenExit(m, node, 0, []));
    m.run();
    // The first packet's tail leaves the buffer after 20 bytes / 2 bytes per cycle.
    expect(log).toEqual([
      [0, 'accepted true, true, false'],
      [10, 'room again: clock 12, stall 12, injected true'],
    ]);
  });

  it('a control-network completion wakes every node waiting on it (a barrier without the runtime)', () => {
    const m = machine(quietCm5());
    const control = m.control!;
    const log: [number, string][] = [];
    startAll(m, (node) =>
      (function* (): Op {
        node.charge(node.id * 10);
        yield* node.sync();
        control.join(GLOBAL_OR_CHANNEL, node.id, CombineOp.ReduceOr, [0], SegmentType.NoBoundary);
        yield* node.idle(4, WAKE_CONTROL, 'a barrier', () => control.isComplete(GLOBAL_OR_CHANNEL, node.id));
        log.push([m.sim.now, `node ${node.id} through: clock ${node.time}`]);
        yield* node.sync();
        m.exit(node);
      })(),
    );
    m.run();
    // The last node joins at 30; the barrier completes 140 - 10 - 5 = 125 cycles later.
    // Each node sees it at its first 4-cycle iteration at or after 155, counted from its join.
    expect(log).toEqual([
      [155, 'node 0 through: clock 156'],
      [155, 'node 1 through: clock 158'],
      [155, 'node 2 through: clock 156'],
      [155, 'node 3 through: clock 158'],
    ]);
    expect(m.finishCycle).toBe(158);
  });
});

describe('Machine: traces', () => {
  it("passes the packet network's in-flight counts to a sink that takes them, stamped with global time", () => {
    const m = machine('alewife', { nodes: 2, network: 'packet' });
    const counts: [number, number, number][] = [];
    const sink: TraceSink = { state: () => {}, inFlight: (node, cycle, count) => void counts.push([node, cycle, count]) };
    m.setTrace(sink);
    expect(m.trace).toBe(sink);
    const [receiver, sender] = m.nodes;
    m.start(
      sender,
      (function* (): Op {
        m.network.tryInject(packet(1, 0, LEFT));
        m.network.tryInject(packet(1, 0, LEFT));
        m.exit(sender);
      })(),
    );
    m.start(
      receiver,
      (function* (): Op {
        // idle returns after any wake-up; the caller checks again (the first packet wakes it).
        while (m.network.waiting(0, LEFT) < 2) yield* receiver.idle(1, WAKE_LEFT, 'packets', () => m.network.waiting(0, LEFT) === 2);
        yield* receiver.sync();
        m.network.receive(0, LEFT);
        m.network.receive(0, LEFT);
        m.exit(receiver);
      })(),
    );
    m.run();
    // Both enter the network at 0 and arrive at 41 and 51 (the second waits out the first's 10-cycle tail).
    expect(counts).toEqual([
      [0, 0, 1],
      [0, 0, 2],
      [0, 51, 1],
      [0, 51, 0],
    ]);

    // The analytic network keeps no such counts.
    const analytic = machine('alewife', { nodes: 2 });
    analytic.setTrace(sink);
    analytic.network.tryInject(packet(1, 0, LEFT));
    expect(counts).toHaveLength(4);
  });
});
