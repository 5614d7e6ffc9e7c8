/** CM-5 block-transfer bandwidth against thesis eqs. 47-48, on a small machine. */
import { describe, expect, it } from 'vitest';
import type { Op, PortHandler, Runtime } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';

const WORDS = 2048; // 8 KB: start-up costs become negligible

interface G {
  memory: Uint32Array;
  done: number;
}

const finished: PortHandler<G> = (rt) => {
  rt.globals.done++;
};

/** MB/s per node and direction for pairs (i, i XOR 1), one-way (even to odd) or two-way. */
function bandwidth(twoWay: boolean, poll: 'once' | 'empty', delayCycles: number): number {
  const { results } = runInline(
    'cm5',
    4,
    function* (rt: Runtime<G>): Op<number> {
      const g = rt.globals;
      const port = rt.port(1);
      port.setBase(g.memory);
      port.count = WORDS;
      port.handler = finished as PortHandler;
      rt.blockTransferOptions = { bandwidthMatching: true, delayCycles, poll };
      yield* rt.barrier();
      const start = rt.cycleCount();
      if (twoWay || rt.self % 2 === 0) yield* rt.sendBlockXferPollBoth(rt.self ^ 1, 1, 0, new Uint32Array(WORDS).fill(rt.self));
      if (twoWay || rt.self % 2 === 1) yield* rt.pollBothUntil(() => g.done === 1);
      const cycles = rt.elapsedCycles(start);
      yield* rt.barrier();
      return cycles;
    },
    { globals: () => ({ memory: new Uint32Array(WORDS), done: 0 }), network: 'packet' },
  );
  return (WORDS * 4) / (Math.max(...results) / 33);
}

describe('CM-5 block transfers (thesis 6.1.3)', () => {
  it('reach 8.52 MB/s one way, limited by the 62-cycle receive (eq. 48), within 10%', () => {
    expect(Math.abs(bandwidth(false, 'empty', 25) / 8.52 - 1)).toBeLessThan(0.1);
  });

  it('reach 5.93 MB/s per direction two ways with bandwidth matching and poll once (eq. 47), within 10%', () => {
    expect(Math.abs(bandwidth(true, 'once', 28) / 5.93 - 1)).toBeLessThan(0.1);
  });
});
