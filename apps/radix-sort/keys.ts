/**
 * Sort inputs and checks shared by radix-sort and sample-sort. Keys are unsigned
 * integers of `keyBits` bits, `perNode` on each node, drawn from the run seed:
 *
 *   uniform   uniform over [0, 2^keyBits)
 *   sorted    already in global order (node 0 smallest), evenly spread over the range
 *   reverse   the same, descending
 *   equal     every key the same (the middle of the range)
 *   few       four distinct values, picked at random
 *   skewed    mostly small keys (u^4 of the range) with the last node holding only the
 *             largest ones (the top 1/64 of the range): all large keys on one node
 */
import { STRATA_MAX_XFER_OFFSET, type RandomStream } from '../../src/runtime/index.ts';

export const DISTRIBUTIONS = ['uniform', 'sorted', 'reverse', 'equal', 'few', 'skewed'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

/**
 * Most keys a run may sort, over all nodes (2^26). The simulator holds each key several
 * times in the host's memory (the input, the node's copy, the sort's buffers, the
 * result and checkSorted's three global copies): 64-node CM-5 runs of 16,384 and 65,536
 * keys a node peaked at 143 and 231 MB with radix sort, 145 and 274 MB with sample sort,
 * about 28 and 41 bytes a key, so 2^26 keys take 2 to 3 GB, about the stencil's largest
 * grid. Past it a run died for want of memory (radix sort on 4096 nodes of 4,194,304
 * keys: 24 GB, killed after three minutes) instead of being refused. The shipped
 * studies sort at most 20,000 keys a node on 64 nodes (1.3 x 10^6 keys).
 */
export const MAX_TOTAL_KEYS = 1 << 26;

/**
 * The most keys a node can hold in a sort: a key's place on its node is the offset of
 * the block transfer that brings it, and Strata's offsets end at STRATA_MAX_XFER_OFFSET
 * (2^19 - 1, Appendix A 7). Keys per node of 524,289 passed the parameter's range and
 * failed on two nodes ("transfer offset 524288").
 */
export const MAX_KEYS_PER_NODE = STRATA_MAX_XFER_OFFSET + 1;

/** Why `nodes` x `perNode` keys are more than a run may sort (MAX_TOTAL_KEYS), or null. */
export function checkKeyCount(nodes: number, perNode: number): string | null {
  const total = nodes * perNode;
  if (total <= MAX_TOTAL_KEYS) return null;
  return `${nodes} nodes x ${perNode} keys = ${total} keys; the simulator holds 28 to 41 bytes of host memory per key, so expected nodes x keys at most ${MAX_TOTAL_KEYS} (2^26, 2 to 3 GB)`;
}

/**
 * Why a radix sort of `digitBits`-bit digits on `nodes` nodes is more than the host holds,
 * or null: every pass scans a table of 2^digitBits counters on each node as one vector
 * combine (radix.ts), nodes x 2^digitBits words together, and a combine holds 24 to 58
 * bytes of host memory a word (apps/microbench's CombineVector bound). 16-bit digits on
 * 4096 nodes (2^28 words) ran V8's heap out, a native abort (exit 134) after 20 s.
 */
export function digitTableProblem(nodes: number, digitBits: number): string | null {
  const words = nodes * 2 ** digitBits;
  if (words <= MAX_TOTAL_KEYS) return null;
  return `digits of ${digitBits} bits on ${nodes} nodes scan ${nodes} x 2^${digitBits} = ${words} counters a pass; a vector combine holds 24 to 58 bytes of host memory a word, so expected nodes x 2^digitBits at most ${MAX_TOTAL_KEYS} (2^26): narrower digits or fewer nodes`;
}

/** A uniform key of `bits` bits. */
function randomKey(random: RandomStream, bits: number): number {
  return bits === 32 ? random.uint32() : random.int(2 ** bits);
}

/** Every node's keys, node by node. */
export function makeKeys(dist: Distribution, nodes: number, perNode: number, keyBits: number, random: RandomStream): Uint32Array[] {
  const range = 2 ** keyBits;
  const n = nodes * perNode;
  const few = Array.from({ length: 4 }, () => randomKey(random, keyBits));
  return Array.from({ length: nodes }, (_, node) => {
    const keys = new Uint32Array(perNode);
    for (let i = 0; i < perNode; i++) {
      const g = node * perNode + i;
      switch (dist) {
        case 'uniform':
          keys[i] = randomKey(random, keyBits);
          break;
        case 'sorted':
          keys[i] = Math.floor((g * range) / n);
          break;
        case 'reverse':
          keys[i] = Math.floor(((n - 1 - g) * range) / n);
          break;
        case 'equal':
          keys[i] = Math.floor(range / 2);
          break;
        case 'few':
          keys[i] = few[random.int(4)];
          break;
        case 'skewed': {
          const top = range - Math.max(1, Math.floor(range / 64));
          keys[i] = node === nodes - 1 && nodes > 1 ? top + Math.floor(random.float() * (range - top)) : Math.floor(random.float() ** 4 * range);
          break;
        }
      }
    }
    return keys;
  });
}

/** Checks that `output` (node by node) is the sorted permutation of `input`; returns problems. */
export function checkSorted(input: readonly Uint32Array[], output: readonly Uint32Array[], perNodeOut?: number): string[] {
  const problems: string[] = [];
  const want = concatenated(input).sort();
  const got = concatenated(output);
  if (perNodeOut !== undefined) {
    output.forEach((k, node) => {
      if (k.length !== perNodeOut) problems.push(`node ${node} holds ${k.length} keys, expected ${perNodeOut}`);
    });
  }
  if (got.length !== want.length) problems.push(`the output has ${got.length} keys, the input ${want.length}`);
  let inOrder = true;
  for (let i = 1; i < got.length; i++) {
    if (got[i - 1] > got[i]) {
      problems.push(`keys out of order at global position ${i}: ${got[i - 1]} before ${got[i]}`);
      inOrder = false;
      break;
    }
  }
  // In order, the output is its own sorted copy: a second sort of every key is needed only when it is not.
  const sortedGot = inOrder ? got : got.slice().sort();
  for (let i = 0; i < Math.min(want.length, sortedGot.length); i++) {
    if (want[i] !== sortedGot[i]) {
      problems.push(`the output is not a permutation of the input (first difference at rank ${i}: ${sortedGot[i]} vs ${want[i]})`);
      break;
    }
  }
  return problems;
}

/**
 * The nodes' keys one after another, in one typed array (copied, not through plain
 * arrays: 64,000 keys take milliseconds), of their own type: a Uint32Array sorts in
 * about 0.57 of the time a Float64Array of the same keys takes.
 */
function concatenated(keys: readonly Uint32Array[]): Uint32Array {
  let n = 0;
  for (const k of keys) n += k.length;
  const all = new Uint32Array(n);
  let at = 0;
  for (const k of keys) {
    all.set(k, at);
    at += k.length;
  }
  return all;
}
