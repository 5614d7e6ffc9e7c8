/**
 * race: a deliberately racy program for `sim explore`. Nodes 1 and 2 each send one
 * message to node 3 at the same moment; node 3 assumes node 1's arrives first. An
 * unperturbed CM-5 or Alewife happens to deliver them in that order every time (the two
 * sends tie and node 1's goes first), so the bug hides; under `--perturb` the small
 * timing changes sometimes let node 2's message win, and the assertion fails. (On the
 * Paragon and the ATM network which one wins unperturbed depends on the node count, by
 * the two routes' lengths: at the default 64 nodes node 1's on the Paragon and node 2's
 * on the ATM; at 4 nodes node 2's on both.)
 */
import { defineApp, type Handler, type Op } from '../../../src/runtime/index.ts';

interface Globals {
  arrivals: number[];
}

const hello: Handler<Globals> = (rt, from) => {
  rt.globals.arrivals.push(from);
};

export default defineApp({
  name: 'race',
  description: 'two messages race to one node, which assumes their order (for sim explore)',
  params: {},
  check: (_p, machine) => (machine.nodes < 4 ? `needs at least 4 nodes, got ${machine.nodes}` : null),
  globals: (): Globals => ({ arrivals: [] }),
  *main(rt): Op<number[]> {
    yield* rt.barrier();
    if (rt.self === 1 || rt.self === 2) yield* rt.sendLeftPollBoth(3, hello, rt.self);
    if (rt.self === 3) {
      yield* rt.pollBothUntil(() => rt.globals.arrivals.length === 2);
      rt.assert(rt.globals.arrivals[0] === 1, `node 2's message arrived before node 1's (order ${rt.globals.arrivals.join(', ')})`);
    }
    return rt.globals.arrivals;
  },
  verify({ results }) {
    // One from each of nodes 1 and 2, in either order: two from node 1 verified.
    const from = [...results[3]].sort((a, b) => a - b);
    const both = from.length === 2 && from[0] === 1 && from[1] === 2;
    return { ok: both, detail: `node 3 got messages from nodes ${results[3].join(' and ')}${both ? '' : ', expected one from node 1 and one from node 2'}` };
  },
});
