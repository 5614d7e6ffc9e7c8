/**
 * Parallel LSD radix sort (thesis 4.5.1, Fig. 4-11), as a routine every node calls
 * with its `k` keys; sample sort uses it for its samples. For each digit: count the
 * numerals locally; a vector scan gives this node's offset for every numeral and a
 * vector reduction the totals; together they give each numeral's run of global
 * element positions, where element i lives at node i / k, index i mod k (eq. 34).
 * Keys are grouped by numeral locally (stably), then each numeral's run moves by
 * block transfer, split where it crosses into the next node; keys that stay here are
 * copied. A barrier ends the digit. Two arrays alternate as source and target.
 */
import { CombineOp, State, type Op, type Runtime } from '../../src/runtime/index.ts';

/** State-graph states of the radix sort (the apps that use it name them). */
export const RADIX_STATES = { 8: 'Count', 9: 'Reorder' };
const COUNT = 8;
const REORDER = 9;

/** Ports the sort receives on: the target array of even and of odd digits. */
export interface RadixPorts {
  even: number;
  odd: number;
}

export function* radixSort(rt: Runtime<unknown>, keys: Uint32Array, keyBits: number, digitBits: number, ports: RadixPorts): Op<Uint32Array> {
  const k = keys.length;
  const radix = 2 ** digitBits;
  const digits = Math.ceil(keyBits / digitBits);
  let source = keys.slice();
  let target = new Uint32Array(k);
  const spare = new Uint32Array(k);
  const counts = new Int32Array(radix);
  const offsets = new Int32Array(radix);
  const totals = new Int32Array(radix);
  const port = [rt.port(ports.even), rt.port(ports.odd)];
  port[0].setBase(target);
  port[1].setBase(source);

  for (let d = 0; d < digits; d++) {
    const shift = d * digitBits;
    const mask = radix - 1;
    // This digit's target receives exactly k keys from the nodes (including this one).
    const into = port[d & 1];
    into.count += k;

    rt.setState(COUNT);
    counts.fill(0);
    for (let i = 0; i < k; i++) counts[(source[i] >>> shift) & mask]++;
    rt.computeOps({ loads: 2 * k, intOps: 3 * k, stores: k, branches: k });
    yield* rt.combineVector(offsets, counts, CombineOp.ScanAdd);
    yield* rt.combineVector(totals, counts, CombineOp.ReduceAdd);

    // Group keys by numeral (stable), remembering where each numeral's run starts here.
    rt.setState(REORDER);
    const groupStart = new Int32Array(radix + 1);
    for (let v = 0; v < radix; v++) groupStart[v + 1] = groupStart[v] + counts[v];
    const fill = groupStart.slice(0, radix);
    for (let i = 0; i < k; i++) spare[fill[(source[i] >>> shift) & mask]++] = source[i];
    rt.computeOps({ loads: 3 * k + 2 * radix, intOps: 3 * k + radix, stores: 2 * k + radix });

    // Send each numeral's run to its global element positions.
    let numeralStart = 0;
    for (let v = 0; v < radix; v++) {
      let element = numeralStart + offsets[v];
      let from = groupStart[v];
      const end = groupStart[v + 1];
      while (from < end) {
        const node = Math.floor(element / k);
        const index = element % k;
        const n = Math.min(end - from, k - index);
        if (node === rt.self) {
          target.set(spare.subarray(from, from + n), index);
          into.count -= n;
          rt.computeOps({ loads: n, stores: n });
        } else {
          yield* rt.sendBlockXferPollBoth(node, d & 1 ? ports.odd : ports.even, index, spare.subarray(from, from + n));
        }
        element += n;
        from += n;
      }
      numeralStart += totals[v];
    }
    rt.setState(State.Idle);
    yield* rt.pollBothUntil(() => into.count === 0, 'radix sort: waiting for keys');
    yield* rt.barrier();
    [source, target] = [target, source];
  }
  return source;
}
