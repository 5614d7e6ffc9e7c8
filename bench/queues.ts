/**
 * `npm run bench queues`: the two queues the performance work replaced, side by side
 * in one process on the patterns of a congested 64-node CM-5 transpose. Packet FIFOs:
 * js-sdsl's Deque (the owner's package, used before) against PacketFifo, at the
 * occupancy of router buffers (0 to 4 packets). Pending events: the binary heap alone
 * against the timing wheel in front of it, at about 180 pending events due within
 * 1 to 60 cycles with a few far ones (the transpose's measured mean and spread).
 */
import { Deque } from 'js-sdsl';
import { EventQueue } from '../src/kernel/event-queue.ts';
import { RandomStream } from '../src/kernel/random-stream.ts';
import { TimingWheelQueue } from '../src/kernel/timing-wheel.ts';
import { Packet } from '../src/network/packet.ts';
import { PacketFifo } from '../src/network/packet-fifo.ts';
import { fmt, fmt2, printRows, timeTask } from './harness.ts';

const OPS = 1_000_000;
const ITERATIONS = 15;

/** Push/shift traffic on 64 short FIFOs, as buffers see it; returns a checksum. */
function fifoTraffic<Q>(make: () => Q, push: (q: Q, p: Packet) => void, shift: (q: Q) => Packet | undefined): () => number {
  const packets = Array.from({ length: 256 }, (_, i) => new Packet(i % 64, (i * 7) % 64, 0, 20, null, []));
  return () => {
    const queues = Array.from({ length: 64 }, make);
    const rng = new RandomStream(1, 'bench/queues/fifo');
    const fill = new Int32Array(64);
    let sum = 0;
    for (let i = 0; i < OPS; i++) {
      const k = rng.int(64);
      if (fill[k] < 4 && (fill[k] === 0 || rng.int(2) === 0)) {
        push(queues[k], packets[i & 255]);
        fill[k]++;
      } else {
        sum += shift(queues[k])!.src;
        fill[k]--;
      }
    }
    return sum;
  };
}

/** Steady-state event traffic: pop one, push one, about 180 pending; returns a checksum. */
function eventTraffic(make: () => EventQueue | TimingWheelQueue): () => number {
  return () => {
    const q = make();
    const rng = new RandomStream(1, 'bench/queues/events');
    for (let i = 0; i < 180; i++) q.push(rng.int(60), 0, i, 0, undefined);
    let sum = 0;
    for (let i = 0; i < OPS; i++) {
      q.pop();
      sum += q.popA0;
      const delay = rng.int(100) === 0 ? 5000 + rng.int(5000) : 1 + rng.int(60);
      q.push(q.popTime + delay, 0, i, 0, undefined);
    }
    return sum;
  };
}

export async function queuesBench(): Promise<void> {
  const deque = fifoTraffic(() => new Deque<Packet>([], 16), (q, p) => void q.pushBack(p), (q) => q.popFront());
  const ring = fifoTraffic(() => new PacketFifo(4), (q, p) => q.push(p), (q) => q.shift());
  if (deque() !== ring()) throw new Error('bench queues: the two FIFOs disagree');
  const heap = eventTraffic(() => new EventQueue(1024));
  const wheel = eventTraffic(() => new TimingWheelQueue(1024));
  if (heap() !== wheel()) throw new Error('bench queues: the two event queues disagree');
  const rows: [string, string][] = [];
  for (const [name, a, b] of [
    ['packet FIFO: js-sdsl Deque / PacketFifo', deque, ring],
    ['pending events: heap / timing wheel', heap, wheel],
  ] as const) {
    const ta = await timeTask(`${name} a`, a, ITERATIONS);
    const tb = await timeTask(`${name} b`, b, ITERATIONS);
    rows.push([name, `${fmt.format((OPS / ta.medianMs) * 1000)} / ${fmt.format((OPS / tb.medianMs) * 1000)} ops/s = ${fmt2.format(ta.medianMs / tb.medianMs)}x (median of ${ITERATIONS})`]);
  }
  printRows(`Queues (${fmt.format(OPS)} operations per run)`, rows);
}
