/**
 * Parallel LSD radix sort (thesis 4.5.1, Fig. 4-11), as a routine every node calls
 * with its `k` keys; sample sort uses it for its samples. For each digit: count the
 * numerals locally; a vector scan gives this node's offset for every numeral and a
 * vector reduction the totals; together they give each numeral's run of global
 * element positions, where element i lives at node i / k, index i mod k (eq. 34).
 * Then one pass through the keys in their local order sends each key by itself (one
 * Xfer packet) to the next element of its numeral, as 4.5.1's text describes, and
 * after each send takes every packet that has arrived (PollBothTilEmpty, the polling
 * 7.3.3 and 7.5 prescribe for random patterns); keys that stay here are stored. A
 * barrier ends the digit. Two arrays alternate as source
 * and target (4.5.1: "the source for one digit becomes the target for the next").
 *
 * Sending in data order rather than numeral by numeral matters: every node's numeral
 * v goes to the same few nodes (those holding v's global range), so if every node
 * walked its numerals in the same order, all of them would send to one to four nodes
 * at once, the target collisions of 7.2. In data order a node's consecutive keys
 * have independent numerals for distinct keys, so its targets change from key to key
 * (7.4: "small batch sizes avoid prolonged hot spots"; a batch of one here).
 */
import { CombineOp, portAndOffsetCons, State, type OpCounts, type Op, type Runtime } from '../../src/runtime/index.ts';

/** State-graph states of the radix sort (the apps that use it name them). */
export const RADIX_STATES = { 8: 'Count', 9: 'Reorder' };
const COUNT = 8;
const REORDER = 9;
/** Per key: its digit (shift, mask), its element number (load, increment, store), eq. 34 (divide, remainder). */
const KEY_OPS: OpCounts = { loads: 2, stores: 1, intOps: 5 };
/** A key that stays on this node: stored into the target array. */
const STORE_OPS: OpCounts = { stores: 1 };

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
  const counts = new Int32Array(radix);
  const offsets = new Int32Array(radix);
  const totals = new Int32Array(radix);
  const port = [rt.port(ports.even), rt.port(ports.odd)];
  port[0].setBase(target);
  port[1].setBase(source);
  // What a key and a stored key cost, priced once: computeOps would check and price the
  // same counts again for every key (the same cycles either way).
  const keyCycles = rt.cost(KEY_OPS);
  const storeCycles = rt.cost(STORE_OPS);

  for (let d = 0; d < digits; d++) {
    const shift = d * digitBits;
    const mask = radix - 1;
    // This digit's target receives exactly k keys from the nodes (including this one).
    const into = port[d & 1];
    into.count += k;

    rt.setState(COUNT);
    countNumerals(source, shift, mask, counts);
    rt.computeOps({ loads: 2 * k, intOps: 3 * k, stores: k, branches: k });
    yield* rt.combineVector(offsets, counts, CombineOp.ScanAdd);
    yield* rt.combineVector(totals, counts, CombineOp.ReduceAdd);

    // One pass through the data in its local order (4.5.1: "We make one pass through
    // the data, sending the data according to the element number for its numeral, and
    // then incrementing the element number"): each key goes by itself, as one Xfer
    // packet to its (node, index) of eq. 34, and keys that stay here are stored.
    rt.setState(REORDER);
    const next = numeralStarts(offsets, totals);
    rt.computeOps({ loads: 2 * radix, intOps: 2 * radix, stores: radix });
    const portNo = d & 1 ? ports.odd : ports.even;
    for (let i = 0; i < k; i++) {
      const key = source[i];
      const element = next[(key >>> shift) & mask]++;
      const node = Math.floor(element / k);
      const index = element - node * k;
      rt.compute(keyCycles);
      if (node === rt.self) {
        target[index] = key;
        into.count--;
        rt.compute(storeCycles);
      } else {
        yield* rt.sendXferBothRLPollBoth(node, portAndOffsetCons(portNo, index), key);
        // Then take every packet that has arrived: the send polls one network once,
        // which lets keys pile up at their receivers over a pass until the senders
        // stall (7.3.3: limited polling "causes congestion" for random patterns, which
        // should "poll until there are no pending packets"; 7.5: "the best default
        // behavior is polling until there are no pending arrivals"; Appendix A:
        // "frequent polling with PollBothTilEmpty is recommended"). So a pass costs
        // the same per key at every size, as 4.5.4 finds ("the slopes are always
        // linear in the number of keys per node").
        yield* rt.pollBothTilEmpty();
      }
    }
    rt.setState(State.Idle);
    yield* rt.pollBothUntil(() => into.count === 0, 'radix sort: waiting for keys');
    yield* rt.barrier();
    [source, target] = [target, source];
  }
  return source;
}

/**
 * Each numeral's first element number (eq. 34's global positions): the keys of
 * numerals below v on all nodes (the running sum of `totals`), then those of v on the
 * nodes before this one (`offsets`, the scan). A function of its own, as
 * countNumerals: radix 2^16 makes it 65,536 steps a digit, which the sort's generator
 * ran unoptimized (V8 deoptimizes the generator at the end of each pass, on paths it
 * had not yet run).
 */
function numeralStarts(offsets: Int32Array, totals: Int32Array): Int32Array {
  const next = new Int32Array(offsets.length);
  let start = 0;
  for (let v = 0; v < offsets.length; v++) {
    next[v] = start + offsets[v];
    start += totals[v];
  }
  return next;
}

/**
 * counts[v] = how many of `keys` have numeral v in the digit at `shift` (`mask` its
 * values). A function of its own rather than a loop in the sort's generator: V8
 * optimizes it after a few calls.
 */
function countNumerals(keys: Uint32Array, shift: number, mask: number, counts: Int32Array): void {
  counts.fill(0);
  for (let i = 0; i < keys.length; i++) counts[(keys[i] >>> shift) & mask]++;
}
