/**
 * radix-sort: parallel LSD radix sort (thesis 4.5.1, Fig. 4-11) of `keys` unsigned
 * keys of `keyBits` bits per node, `digitBits` per digit, drawn by `dist` (keys.ts).
 * Verification: the output is a sorted permutation of the input with `keys` keys on
 * every node, node 0 holding the smallest.
 */
import { defineApp, State, type Op } from '../../src/runtime/index.ts';
import { checkKeyCount, checkSorted, digitTableProblem, DISTRIBUTIONS, makeKeys, MAX_KEYS_PER_NODE, type Distribution } from './keys.ts';
import { RADIX_STATES, radixSort } from './radix.ts';

/** State while loading the keys (the radix sort's own states are 8 and 9). */
const INIT = 10;

interface Result {
  keys: Uint32Array;
  cycles: number;
}

export default defineApp({
  name: 'radix-sort',
  states: { ...RADIX_STATES, [INIT]: 'Init' },
  description: 'parallel LSD radix sort with vector scans (thesis 4.5.1)',
  params: {
    keys: { type: 'int', default: 1000, min: 1, max: MAX_KEYS_PER_NODE, doc: "keys per node (at most 2^19: a key's place is a block transfer's offset)" },
    keyBits: { type: 'int', default: 32, min: 1, max: 32, doc: 'bits per key' },
    digitBits: { type: 'int', default: 8, min: 1, max: 16, doc: 'bits per digit (radix 2^digitBits)' },
    dist: { type: 'enum', values: [...DISTRIBUTIONS], default: 'uniform', doc: 'key distribution' },
  },
  check: (p, machine) => checkKeyCount(machine.nodes, p.keys) ?? digitTableProblem(machine.nodes, p.digitBits),
  setup({ params, machine, random }): Uint32Array[] {
    return makeKeys(params.dist as Distribution, machine.nodes, params.keys, params.keyBits, random);
  },

  *main(rt, p, input): Op<Result> {
    // Initialization (thesis Fig. 6-5's first phase): load this node's keys into its memory.
    rt.setState(INIT);
    const keys = input[rt.self].slice();
    rt.computeOps({ loads: keys.length, stores: keys.length, intOps: keys.length });
    rt.setState(State.Idle);
    yield* rt.barrier();
    const start = rt.cycleCount();
    const sorted = yield* radixSort(rt, keys, p.keyBits, p.digitBits, { even: 0, odd: 1 });
    return { keys: sorted, cycles: rt.elapsedCycles(start) };
  },

  verify({ params, machine, input, results }) {
    const problems = checkSorted(input, results.map((r) => r.keys), params.keys);
    const cycles = Math.max(...results.map((r) => r.cycles));
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `${machine.nodes * params.keys} keys of ${params.keyBits} bits came out sorted, ${params.keys} per node`
          : problems.slice(0, 3).join('; '),
      metrics: {
        cycles,
        digits: Math.ceil(params.keyBits / params.digitBits),
        microseconds: Math.round((cycles / machine.clockMHz) * 100) / 100,
        cyclesPerKey: Math.round((cycles / params.keys) * 100) / 100,
      },
    };
  },
});
