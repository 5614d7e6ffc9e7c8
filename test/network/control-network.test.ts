import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunFailure } from '../../src/kernel/errors.ts';
import { Simulation } from '../../src/kernel/simulation.ts';
import { COMBINE_CHANNEL, combineAll, CombineOp, COMBINE_OP_NAMES, GLOBAL_OR_CHANNEL, SegmentType, VECTOR_CHANNEL, type ReduceOp } from '../../src/network/combine.ts';
import { ControlNetwork } from '../../src/network/control-network.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const CM5 = loadTestPlatform('cm5').controlNetwork!;
const { NoBoundary: NO, ElementBoundary: ELEMENT, ArrayBoundary: ARRAY } = SegmentType;

/**
 * A real simulation holding a CM-5 control network of `nodes` nodes. `at(cycle, what,
 * action)` runs `action` at that cycle and logs [cycle, what] (with what it returns);
 * the network's completion listener logs which nodes it told, once per cycle.
 */
function controlNetwork(nodes: number) {
  const sim = new Simulation(1);
  const log: [number, string][] = [];
  let told: number[] = [];
  const control = new ControlNetwork(sim, CM5, nodes, (node) => {
    told.push(node);
    if (told.length === nodes) {
      log.push([sim.now, `told nodes ${told.join(',')}`]);
      told = [];
    }
  });
  const steps: [number, string, () => unknown][] = [];
  const at = (cycle: number, what: string, action: () => unknown = () => undefined): void => void steps.push([cycle, what, action]);
  const run = (): [number, string][] => {
    steps.sort((a, b) => a[0] - b[0]); // stable: same-cycle steps keep their order
    sim.spawn(
      'script',
      (function* () {
        for (const [cycle, what, action] of steps) {
          yield cycle - sim.now;
          const result = action();
          log.push([sim.now, result === undefined ? what : `${what}: ${JSON.stringify(result)}`]);
        }
      })(),
    );
    sim.run();
    return log;
  };
  return { sim, control, at, run };
}

/** Every node joins `channel` at cycle 0; returns the cycle its episode completes. */
function completionCycle(channel: number, words: number, nodes = 4): number {
  const { sim, control } = controlNetwork(nodes);
  for (let i = 0; i < nodes; i++) control.join(channel, i, CombineOp.ReduceAdd, new Array<number>(words).fill(1), NO);
  sim.run();
  return sim.now;
}

/** One episode of `op` on `channel` with node i's words `values[i]`; returns each node's result. */
function combine(channel: number, op: ReduceOp, values: number[][], segments: number[]): number[][] {
  const { sim, control } = controlNetwork(values.length);
  values.forEach((words, i) => control.join(channel, i, op, words, segments[i]));
  sim.run();
  return values.map((_, i) => [...control.result(channel, i)]);
}

/** combineAll applied word by word: what node i should receive. */
function expected(op: ReduceOp, values: number[][], segments: number[]): number[][] {
  const columns = (values[0] ?? []).map((_, e) => combineAll(op, values.map((words) => words[e]), segments));
  return values.map((_, i) => columns.map((column) => column[i]));
}

describe('CM-5 control network: timing (Appendix A, Table 1)', () => {
  it('takes its costs from platforms/cm5.json', () => {
    expect(CM5).toEqual({
      barrierCycles: 140,
      combineIntCycles: 150,
      combineVectorCyclesPerWord: 49,
      broadcastCycles: 90,
      broadcastVectorCyclesPerWord: 49,
      startCycles: 10,
      queryCycles: 5,
    });
  });

  it('completes an episode a fixed latency after the last node joins, and not before', () => {
    // The hardware's share of a 140-cycle barrier: 140 - 10 (start) - 5 (query) = 125 cycles.
    const { control, at, run } = controlNetwork(4);
    const isComplete = () => [0, 1, 2, 3].map((i) => control.isComplete(GLOBAL_OR_CHANNEL, i));
    for (const [cycle, node] of [
      [0, 0],
      [7, 3],
      [30, 1],
      [12, 2],
    ]) {
      at(cycle, `node ${node} joins`, () => control.join(GLOBAL_OR_CHANNEL, node, CombineOp.ReduceOr, [0], NO));
    }
    at(154, 'complete', isComplete);
    at(155, 'complete', isComplete);
    // A second episode on the same channel: the last join at 200 completes at 325.
    for (const node of [3, 2, 1, 0]) at(197 + node, `node ${node} joins again`, () => control.join(GLOBAL_OR_CHANNEL, node, CombineOp.ReduceOr, [0], NO));
    at(324, 'complete', isComplete);
    expect(run()).toEqual([
      [0, 'node 0 joins'],
      [7, 'node 3 joins'],
      [12, 'node 2 joins'],
      [30, 'node 1 joins'],
      [154, 'complete: [false,false,false,false]'],
      [155, 'told nodes 0,1,2,3'],
      [155, 'complete: [true,true,true,true]'],
      [197, 'node 0 joins again'],
      [198, 'node 1 joins again'],
      [199, 'node 2 joins again'],
      [200, 'node 3 joins again'],
      [324, 'complete: [false,false,false,false]'],
      [325, 'told nodes 0,1,2,3'],
    ]);
  });

  it('pipelines vector combines: each word after the first adds 49 cycles, whatever the machine size', () => {
    // CombineInt's hardware share is 150 - 10 - 5 = 135 cycles.
    expect(completionCycle(GLOBAL_OR_CHANNEL, 1)).toBe(125);
    expect(completionCycle(COMBINE_CHANNEL, 1)).toBe(135);
    expect([0, 1, 2, 3, 8].map((words) => completionCycle(VECTOR_CHANNEL, words))).toEqual([135, 135, 184, 233, 478]);
    expect([2, 64, 1024].map((nodes) => completionCycle(VECTOR_CHANNEL, 3, nodes))).toEqual([233, 233, 233]);
  });

  it('keeps its channels apart: an episode on one does not complete another', () => {
    const { control, at, run } = controlNetwork(2);
    at(0, 'both join a barrier; node 0 a combine', () => {
      control.join(GLOBAL_OR_CHANNEL, 0, CombineOp.ReduceOr, [0], NO);
      control.join(GLOBAL_OR_CHANNEL, 1, CombineOp.ReduceOr, [0], NO);
      control.join(COMBINE_CHANNEL, 0, CombineOp.ReduceAdd, [5], NO);
    });
    at(200, 'barrier, combine complete for node 0', () => [control.isComplete(GLOBAL_OR_CHANNEL, 0), control.isComplete(COMBINE_CHANNEL, 0)]);
    at(200, 'node 1 joins the combine', () => control.join(COMBINE_CHANNEL, 1, CombineOp.ReduceAdd, [6], NO));
    at(335, 'combine results', () => [control.result(COMBINE_CHANNEL, 0), control.result(COMBINE_CHANNEL, 1)]);
    expect(run()).toEqual([
      [0, 'both join a barrier; node 0 a combine'],
      [125, 'told nodes 0,1'],
      [200, 'barrier, combine complete for node 0: [true,false]'],
      [200, 'node 1 joins the combine'],
      [335, 'told nodes 0,1'],
      [335, 'combine results: [[11],[11]]'],
    ]);
  });
});

describe('CM-5 control network: combines compute what combineAll defines (Appendix A 4.3)', () => {
  it('segments scans and back-scans at element and array boundaries; reductions ignore them', () => {
    const values = [[1], [2], [3], [4]];
    const at2 = (boundary: number) => [NO, NO, boundary, NO];
    const results = (op: ReduceOp, segments: number[]) => combine(COMBINE_CHANNEL, op, values, segments).map((r) => r[0]);
    expect(results(CombineOp.ScanAdd, at2(NO))).toEqual([0, 1, 3, 6]);
    expect(results(CombineOp.ScanAdd, at2(ELEMENT))).toEqual([0, 1, 0, 3]);
    expect(results(CombineOp.ScanAdd, at2(ARRAY))).toEqual([0, 1, 3, 3]);
    expect(results(CombineOp.BackScanAdd, at2(ELEMENT))).toEqual([2, 0, 4, 0]);
    expect(results(CombineOp.BackScanAdd, at2(ARRAY))).toEqual([2, 7, 4, 0]);
    expect(results(CombineOp.ReduceAdd, at2(ELEMENT))).toEqual([10, 10, 10, 10]);
  });

  it('gives every node its word-by-word result for all fifteen ops, on the combine and vector channels', () => {
    // Words that tell signed from unsigned and wrap on overflow.
    const values = Array.from({ length: 8 }, (_, i) => [i * 7 - 12, 0x7fffffff - i, -0x80000000 + i * 3, (0x9e3779b9 * (i + 1)) >>> 0]);
    const segmentings = [
      [NO, NO, NO, NO, NO, NO, NO, NO],
      [NO, ELEMENT, NO, ARRAY, NO, NO, ELEMENT, NO],
      [ARRAY, ARRAY, ELEMENT, ELEMENT, NO, ARRAY, NO, ELEMENT],
    ];
    for (const op of Object.values(CombineOp)) {
      for (const segments of segmentings) {
        const name = `${COMBINE_OP_NAMES[op]} over segments ${segments.join('')}`;
        expect(combine(VECTOR_CHANNEL, op, values, segments), name).toEqual(expected(op, values, segments));
        const firstWords = values.map((words) => [words[0]]);
        expect(combine(COMBINE_CHANNEL, op, firstWords, segments), name).toEqual(expected(op, firstWords, segments));
      }
    }
  });

  it('agrees with combineAll for any op, machine size, vector and segmenting', () => {
    const word = fc.integer({ min: -0x80000000, max: 0xffffffff });
    const episode = fc
      .record({ op: fc.integer({ min: 0, max: 14 }), nodes: fc.integer({ min: 1, max: 12 }), length: fc.integer({ min: 1, max: 4 }) })
      .chain(({ op, nodes, length }) =>
        fc.record({
          op: fc.constant(op as CombineOp),
          values: fc.array(fc.array(word, { minLength: length, maxLength: length }), { minLength: nodes, maxLength: nodes }),
          segments: fc.array(fc.constantFrom(NO, ELEMENT, ARRAY), { minLength: nodes, maxLength: nodes }),
        }),
      );
    fc.assert(
      fc.property(episode, ({ op, values, segments }) => {
        expect(combine(VECTOR_CHANNEL, op, values, segments)).toEqual(expected(op, values, segments));
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

describe('CM-5 control network: misuse', () => {
  it('refuses a node that starts a channel again before its episode completed', () => {
    const { control, at, run } = controlNetwork(2);
    const join = (node: number) => () => control.join(GLOBAL_OR_CHANNEL, node, CombineOp.ReduceOr, [0], NO);
    const attempt = (action: () => void) => () => {
      try {
        action();
        return 'accepted';
      } catch (e) {
        return `${(e as Error).constructor.name}: ${(e as Error).message}`;
      }
    };
    at(0, 'node 1 joins', join(1));
    at(1, 'node 1 joins again', attempt(join(1)));
    at(2, 'node 0 joins', join(0));
    // Everyone has joined, but the episode completes only at 127.
    at(3, 'node 0 joins again', attempt(join(0)));
    at(127, 'node 0 joins again', attempt(join(0)));
    expect(run()).toEqual([
      [0, 'node 1 joins'],
      [1, 'node 1 joins again: "RunFailure: node 1: started a barrier or global OR before its previous one completed"'],
      [2, 'node 0 joins'],
      [3, 'node 0 joins again: "RunFailure: node 0: started a barrier or global OR before its previous one completed"'],
      [127, 'told nodes 0,1'],
      [127, 'node 0 joins again: "accepted"'],
    ]);
  });

  it('refuses mixed ops and vector lengths in one episode, which then completes with the rest', () => {
    const { sim, control } = controlNetwork(3);
    control.join(COMBINE_CHANNEL, 0, CombineOp.ScanAdd, [1], NO);
    expect(() => control.join(COMBINE_CHANNEL, 1, CombineOp.ScanOr, [2], NO)).toThrow(
      new RunFailure('node 1: joined a combine with ScanOr while another node used ScanAdd'),
    );
    control.join(VECTOR_CHANNEL, 0, CombineOp.ReduceMax, [1, 2], NO);
    expect(() => control.join(VECTOR_CHANNEL, 2, CombineOp.ReduceMax, [1, 2, 3], NO)).toThrow(
      new RunFailure('node 2: joined a vector combine of 3 elements while another node used 2'),
    );
    // The refused joins left no trace: the episodes go on as begun.
    control.join(COMBINE_CHANNEL, 1, CombineOp.ScanAdd, [2], NO);
    control.join(COMBINE_CHANNEL, 2, CombineOp.ScanAdd, [4], NO);
    control.join(VECTOR_CHANNEL, 1, CombineOp.ReduceMax, [5, -1], NO);
    control.join(VECTOR_CHANNEL, 2, CombineOp.ReduceMax, [3, 9], NO);
    sim.run();
    expect([0, 1, 2].map((i) => control.result(COMBINE_CHANNEL, i))).toEqual([[0], [1], [3]]);
    expect([0, 1, 2].map((i) => control.result(VECTOR_CHANNEL, i))).toEqual([
      [5, 9],
      [5, 9],
      [5, 9],
    ]);
    expect(() => control.takeBroadcast(0)).toThrow(new RunFailure('node 0: no broadcast to receive'));
  });
});

describe('CM-5 control network: broadcasts (Appendix A 4.4)', () => {
  it('delivers to every other node a fixed latency later, pipelined per word, in the order sent', () => {
    // One word: 90 - 10 - 5 = 75 cycles; each further word adds 49.
    const { control, at, run } = controlNetwork(4);
    const inboxes = () => [0, 1, 2, 3].map((i) => control.hasBroadcast(i));
    at(10, 'node 2 broadcasts [7,8,9]', () => control.startBroadcast(2, [7, 8, 9]));
    at(20, 'node 0 broadcasts [1]', () => control.startBroadcast(0, [1]));
    at(94, 'inboxes; node 0 delivered', () => [inboxes(), control.isBroadcastDelivered(0)]);
    at(95, 'inboxes; node 0 delivered', () => [inboxes(), control.isBroadcastDelivered(0)]);
    at(182, 'node 2 delivered', () => control.isBroadcastDelivered(2));
    at(183, 'node 2 delivered; node 3 never broadcast', () => [control.isBroadcastDelivered(2), control.isBroadcastDelivered(3)]);
    at(200, 'node 1 takes', () => control.takeBroadcast(1));
    at(200, 'node 1 takes', () => control.takeBroadcast(1));
    at(200, 'node 0 takes', () => control.takeBroadcast(0));
    at(200, 'node 2 takes', () => control.takeBroadcast(2));
    at(200, 'inboxes', inboxes);
    expect(run()).toEqual([
      [10, 'node 2 broadcasts [7,8,9]'],
      [20, 'node 0 broadcasts [1]'],
      [94, 'inboxes; node 0 delivered: [[false,false,false,false],false]'],
      [95, 'told nodes 0,1,2,3'],
      [95, 'inboxes; node 0 delivered: [[false,true,true,true],true]'],
      [182, 'node 2 delivered: false'],
      [183, 'told nodes 0,1,2,3'],
      [183, 'node 2 delivered; node 3 never broadcast: [true,true]'],
      // The shorter broadcast, sent later, arrived first.
      [200, 'node 1 takes: [1]'],
      [200, 'node 1 takes: [7,8,9]'],
      [200, 'node 0 takes: [7,8,9]'],
      [200, 'node 2 takes: [1]'],
      [200, 'inboxes: [false,false,false,true]'],
    ]);
  });
});

describe('CM-5 control network: asynchronous global OR (Appendix A 4.2)', () => {
  it("starts set, and sees each node's new bit a barrier latency after it is set", () => {
    const { control, at, run } = controlNetwork(3);
    const or = () => control.asyncOr;
    at(0, 'OR', or);
    for (const node of [0, 1, 2]) at(node * 10, `node ${node} clears`, () => control.setAsyncOr(node, false));
    at(144, 'OR', or);
    at(145, 'OR', or); // 20 + 125
    at(200, 'node 1 sets', () => control.setAsyncOr(1, true));
    at(201, 'node 1 sets again', () => control.setAsyncOr(1, true));
    at(202, 'node 2 sets', () => control.setAsyncOr(2, true));
    at(210, 'node 1 clears', () => control.setAsyncOr(1, false));
    at(324, 'OR', or);
    at(325, 'OR', or);
    at(335, 'node 2 clears', () => control.setAsyncOr(2, false));
    at(336, 'OR', or); // node 1's clear was seen at 335; node 2's bit is still set
    at(459, 'OR', or);
    at(460, 'OR', or);
    expect(run()).toEqual([
      [0, 'OR: true'],
      [0, 'node 0 clears'],
      [10, 'node 1 clears'],
      [20, 'node 2 clears'],
      [144, 'OR: true'],
      [145, 'OR: false'],
      [200, 'node 1 sets'],
      [201, 'node 1 sets again'],
      [202, 'node 2 sets'],
      [210, 'node 1 clears'],
      [324, 'OR: false'],
      [325, 'OR: true'],
      [335, 'node 2 clears'],
      [336, 'OR: true'],
      [459, 'OR: true'],
      [460, 'OR: false'],
    ]);
  });
});
