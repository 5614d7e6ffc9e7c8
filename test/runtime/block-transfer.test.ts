import { describe, expect, it } from 'vitest';
import {
  portAndOffsetCons,
  portAndOffsetOffset,
  portAndOffsetPort,
  STRATA_MAX_XFER_OFFSET,
  STRATA_MIN_XFER_OFFSET,
  strataXferHeaderHandler,
  type Op,
  type PortHandler,
  type Runtime,
} from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';
import type { Machine } from '../../src/machine/machine.ts';
import type { Platform } from '../../src/platform/schema.ts';
import { editedPlatformText, type PlatformName } from '../support/platforms.ts';
import { parsePlatform } from '../../src/platform/load-platform.ts';

interface Receiver {
  memory: Uint32Array;
  completions: number;
  countSeen: number[];
}

const done: PortHandler<Receiver> = (rt) => {
  rt.globals.completions++;
};

/**
 * Node 1 sends node 0's port 4 a header naming the handler `headerWord` gives (0: none)
 * and a block of 4 words; node 0 gives the port `handler` and polls until a completion.
 */
function toPort4(handler: PortHandler<Receiver>, headerWord: (rt: Runtime<Receiver>) => number) {
  return runInline(
    'cm5',
    2,
    function* (rt: Runtime<Receiver>): Op<number> {
      const g = rt.globals;
      if (rt.self === 0) {
        rt.port(4).setBase(g.memory);
        rt.port(4).handler = handler as PortHandler;
      }
      yield* rt.barrier();
      if (rt.self === 1) {
        yield* rt.sendBothRLPollBoth(0, strataXferHeaderHandler, 4, 4, headerWord(rt));
        yield* rt.sendBlockXferPollBoth(0, 4, 0, [1, 2, 3, 4]);
      } else {
        yield* rt.pollBothUntil(() => g.completions > 0);
      }
      yield* rt.barrier();
      return g.completions;
    },
    { globals: () => ({ memory: new Uint32Array(4), completions: 0, countSeen: [] }) },
  );
}

const word = (i: number) => (0xa5000000 + i * 7) >>> 0;

/**
 * Node 1 sends `size` words to port 5 of node 0 in two halves, with the header
 * message `when` relative to the data; node 0 records the port count while waiting.
 */
function transfer(platform: PlatformName | Platform, size: number, when: 'before' | 'during' | 'after', network: 'packet' | 'analytic' = 'packet') {
  return runInline(
    platform,
    2,
    function* (rt: Runtime<Receiver>): Op<Receiver> {
      const g = rt.globals;
      if (rt.self === 0) {
        g.memory = new Uint32Array(size + 8);
        const port = rt.port(5);
        port.setBase(g.memory, 3); // offset 0 is word 3: leaves room on both sides
        port.count = 0;
        port.handler = null;
      }
      yield* rt.barrier();
      if (rt.self === 1) {
        const data = Uint32Array.from({ length: size }, (_, i) => word(i));
        const half = Math.floor(size / 2);
        const header = () => rt.sendBothRLPollBoth(0, strataXferHeaderHandler, 5, size, rt.handlerWord(done));
        if (when === 'before') yield* header();
        yield* rt.sendBlockXferPollBoth(0, 5, 0, data.subarray(0, half));
        if (when === 'during') yield* header();
        yield* rt.sendBlockXferPollBoth(0, 5, half, data.subarray(half));
        if (when === 'after') {
          rt.compute(5000); // the data lands and is counted well before the header
          yield* header();
        }
      } else {
        yield* rt.pollBothUntil(() => {
          g.countSeen.push(rt.port(5).count);
          return g.completions > 0;
        });
      }
      yield* rt.barrier();
      return g;
    },
    { globals: () => ({ memory: new Uint32Array(0), completions: 0, countSeen: [] }), network },
  ).results[0];
}

describe('block transfers (Appendix A 7)', () => {
  it.each(['before', 'during', 'after'] as const)('deliver exact words at the port offsets with the header %s the data', (when) => {
    const r = transfer('cm5', 37, when);
    expect(Array.from(r.memory.subarray(3, 3 + 37))).toEqual(Array.from({ length: 37 }, (_, i) => word(i)));
    expect([r.memory[0], r.memory[1], r.memory[2], r.memory[40]]).toEqual([0, 0, 0, 0]);
    expect(r.completions).toBe(1);
    if (when === 'after') expect(Math.min(...r.countSeen)).toBeLessThan(0); // data came first
  });

  it.each([1, 2, 3, 4, 5, 7, 8, 64] as const)('sends %i words on the CM-5 (4 per packet plus a 1-3 word tail)', (size) => {
    const r = transfer('cm5', size, 'before');
    expect(Array.from(r.memory.subarray(3, 3 + size))).toEqual(Array.from({ length: size }, (_, i) => word(i)));
    expect(r.completions).toBe(1);
  });

  it.each([19, 20, 21, 45] as const)('sends %i words by Xfer packets of 20 data words on a PROTEUS platform', (size) => {
    const r = transfer('paragon', size, 'during', 'analytic');
    expect(Array.from(r.memory.subarray(3, 3 + size))).toEqual(Array.from({ length: size }, (_, i) => word(i)));
    expect(r.completions).toBe(1);
  });

  it.each([
    [63, 'before'],
    [64, 'during'],
    [65, 'after'],
    [200, 'during'],
  ] as const)('sends %i words on Alewife by DMA (64 per packet), header %s the data', (size, when) => {
    const r = transfer('alewife', size, when);
    expect(Array.from(r.memory.subarray(3, 3 + size))).toEqual(Array.from({ length: size }, (_, i) => word(i)));
    expect([r.memory[2], r.memory[3 + size]]).toEqual([0, 0]);
    expect(r.completions).toBe(1);
  });

  it('DMA (thesis 4.3) moves a block faster and with fewer receiver cycles than processor-driven Xfer packets', () => {
    const withoutDma = parsePlatform(
      editedPlatformText('alewife', (p) => (p.messaging.dma = null)),
      'alewife-without-dma.json',
    );
    const cost = (platform: PlatformName | Platform) => {
      let machine: Machine | null = null;
      return runInline(
        platform,
        2,
        function* (rt) {
          const memory = new Uint32Array(1024);
          rt.port(1).setBase(memory);
          yield* rt.barrier();
          const start = rt.cycleCount();
          if (rt.self === 0) yield* rt.sendBlockXferPollBoth(1, 1, 0, Uint32Array.from({ length: 1024 }, (_, i) => i));
          else yield* rt.pollBothUntil(() => rt.port(1).count === -1024);
          return [rt.elapsedCycles(start), machine!.nodes[rt.self].busyCycles];
        },
        { inspect: (m) => (machine = m) },
      ).results;
    };
    const [dmaSender, dmaReceiver] = cost('alewife');
    const [xferSender, xferReceiver] = cost(withoutDma);
    expect(dmaReceiver[0]).toBeLessThan(xferReceiver[0]);
    expect(dmaReceiver[1]).toBeLessThan(xferReceiver[1] / 2);
    expect(dmaSender[1]).toBeLessThan(xferSender[1] / 2);
  });

  it('sends single Xfer packets with each SendXfer variant, words landing at their offsets', () => {
    const { results } = runInline(
      'cm5',
      2,
      function* (rt: Runtime<Receiver>): Op<number[]> {
        const g = rt.globals;
        if (rt.self === 1) {
          rt.port(9).setBase(g.memory);
          rt.port(9).count = 16;
          rt.port(9).handler = done as PortHandler;
        }
        yield* rt.barrier();
        if (rt.self === 0) {
          yield* rt.sendXferBothRLPollBoth(1, portAndOffsetCons(9, 0), 1, 2, 3, 4);
          yield* rt.sendXferBothLRPollBoth(1, portAndOffsetCons(9, 4), 5, 6, 7, 8);
          yield* rt.sendXferBothRLPollRight(1, portAndOffsetCons(9, 8), 9, 10, 11, 12);
          yield* rt.sendXferBothLRPollRight(1, portAndOffsetCons(9, 12), 13, 14, 15, 16);
        } else {
          yield* rt.pollBothUntil(() => g.completions === 1);
        }
        return Array.from(g.memory);
      },
      { globals: () => ({ memory: new Uint32Array(16), completions: 0, countSeen: [] }) },
    );
    expect(results[1]).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        yield* rt.sendXferBothRLPollBoth(1, 0, 1, 2, 3, 4, 5);
      }),
    ).toThrow(/an Xfer packet of 5 data words: expected 1 to 4/);
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        yield* rt.sendXferBothRLPollBoth(1, 0);
      }),
    ).toThrow(/an Xfer packet of 0 data words: expected 1 to 4/);
  });

  it("charges a single Xfer packet the platform's xferSendOverheadCycles, also where that is below sendInjectionCycles", () => {
    // The try at the network takes the first min(sendInjectionCycles, overhead) cycles of
    // the overhead, not sendInjectionCycles whatever the overhead (24 on the CM-5).
    const sendCycles = (xferSendOverheadCycles: number) => {
      const platform = parsePlatform(
        editedPlatformText('cm5', (p) => {
          p.messaging.xferSendOverheadCycles = xferSendOverheadCycles;
          p.timerInterrupt = null;
        }),
        'cm5-edited.json',
      );
      return runInline(platform, 2, function* (rt) {
        if (rt.self === 1) rt.port(9).setBase(new Uint32Array(4));
        yield* rt.barrier();
        let cycles = 0;
        if (rt.self === 0) {
          const start = rt.currentCycle64();
          yield* rt.sendXferBothLRPollBoth(1, portAndOffsetCons(9, 0), 1, 2, 3, 4);
          cycles = rt.currentCycle64() - start;
        }
        yield* rt.barrier();
        return cycles;
      }).results[0];
    };
    expect(sendCycles(10) - sendCycles(6)).toBe(4);
    expect(sendCycles(40) - sendCycles(10)).toBe(30);
  });

  it('SendBlockXferPollRight paces by polling the right network only, leaving a waiting left message alone', () => {
    // Node 1's left-network message reaches node 0 before node 0 sends a block with
    // PollRight: none of the block's pacing polls may run its handler (Appendix A 7).
    const { results } = runInline(
      'cm5',
      4,
      function* (rt: Runtime<{ gotLeft: boolean; memory: Uint32Array; completions: number }>): Op<boolean> {
        const g = rt.globals;
        if (rt.self === 2) {
          rt.port(9).setBase(g.memory);
          rt.port(9).count = 64;
          rt.port(9).handler = ((r: Runtime<{ completions: number }>) => void r.globals.completions++) as PortHandler;
        }
        yield* rt.barrier();
        let leftDuringBlock = false;
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, (r: Runtime<{ gotLeft: boolean }>) => void (r.globals.gotLeft = true));
        if (rt.self === 0) {
          rt.compute(5000);
          yield* rt.sendBlockXferPollRight(2, 9, 0, Uint32Array.from({ length: 64 }, (_, i) => i));
          leftDuringBlock = g.gotLeft;
          yield* rt.pollBothUntil(() => g.gotLeft);
        }
        if (rt.self === 2) yield* rt.pollBothUntil(() => g.completions === 1);
        yield* rt.barrier();
        return leftDuringBlock;
      },
      { globals: () => ({ gotLeft: false, memory: new Uint32Array(64), completions: 0 }), network: 'packet' },
    );
    expect(results[0]).toBe(false);
  });

  it('packs ports and signed offsets into one word and checks their ranges', () => {
    for (const [port, offset] of [[0, 0], [4095, STRATA_MAX_XFER_OFFSET], [7, STRATA_MIN_XFER_OFFSET], [123, -1]]) {
      const w = portAndOffsetCons(port, offset);
      expect(w).toBeGreaterThanOrEqual(0);
      expect(w).toBeLessThanOrEqual(0xffffffff);
      expect([portAndOffsetPort(w), portAndOffsetOffset(w)]).toEqual([port, offset]);
    }
    expect(() => portAndOffsetCons(4096, 0)).toThrow(/port 4096: expected a port number from 0 to 4095/);
    expect(() => portAndOffsetCons(0, STRATA_MAX_XFER_OFFSET + 1)).toThrow(/transfer offset 524288/);
  });

  it('refuses a transfer that would run past STRATA_MAX_XFER_OFFSET, and data for a port with no memory', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendBlockXferPollBoth(0, 1, STRATA_MAX_XFER_OFFSET - 2, [1, 2, 3, 4]);
      }),
    ).toThrow(/offset 524285 \+ size 4 exceeds STRATA_MAX_XFER_OFFSET/);
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendBlockXferPollBoth(0, 1, STRATA_MAX_XFER_OFFSET - 3, [1, 2, 3, 4]);
      }),
    ).toThrow(/offset 524284 \+ size 4 exceeds STRATA_MAX_XFER_OFFSET/);
    // "offset + size must be no larger than STRATA_MAX_XFER_OFFSET" (Appendix A 7): a sum
    // of exactly that is a transfer (into a port whose base puts those offsets in memory).
    const { results } = runInline('cm5', 2, function* (rt: Runtime<{ memory: Uint32Array; completions: number }>): Op<number[]> {
      const g = rt.globals;
      if (rt.self === 0) {
        rt.port(1).setBase(g.memory, -(STRATA_MAX_XFER_OFFSET - 8));
        rt.port(1).count = 4;
        rt.port(1).handler = done as PortHandler;
      }
      yield* rt.barrier();
      if (rt.self === 1) yield* rt.sendBlockXferPollBoth(0, 1, STRATA_MAX_XFER_OFFSET - 4, [1, 2, 3, 4]);
      else yield* rt.pollBothUntil(() => g.completions === 1);
      return Array.from(g.memory);
    }, { globals: () => ({ memory: new Uint32Array(8), completions: 0 }) });
    expect(results[0]).toEqual([0, 0, 0, 0, 1, 2, 3, 4]);
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendBlockXferPollBoth(0, 9, 0, [1, 2, 3, 4]);
        else yield* rt.pollBothUntil(() => false);
      }),
    ).toThrow(/block data arrived at port 9, which has no base/);
  });

  it('refuses block data that lands before the start of its port memory, as past its end', () => {
    const run = (offset: number) => () =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 0) rt.port(2).setBase(new Uint32Array(8), 1); // offset 0 is word 1
        yield* rt.barrier();
        if (rt.self === 1) yield* rt.sendXferBothRLPollBoth(0, portAndOffsetCons(2, offset), 1, 2, 3, 4);
        else yield* rt.pollBothUntil(() => rt.port(2).count === -4);
      });
    expect(run(-1)).not.toThrow(); // words 0..3: inside
    expect(run(-2)).toThrow(/node 0: block data for port 2 falls outside its memory \(words -1\.\.2 of 8\)/);
    expect(run(3)).not.toThrow(); // words 4..7: the last four
    expect(run(4)).toThrow(/falls outside its memory \(words 5\.\.8 of 8\)/);
    expect(run(5)).toThrow(/falls outside its memory \(words 6\.\.9 of 8\)/);
  });

  // A node's options were a copy it could edit in place: `rt.blockTransferOptions.delayCycles = -5`
  // went past the setter's check, and any poll but 'once' polled until empty.
  it('checks block-transfer options as a whole, and the record set is read-only (nodes setting the same share it)', () => {
    const withOptions = (edit: (rt: Runtime<undefined>) => void) =>
      runInline('cm5', 2, function* (rt) {
        edit(rt);
        yield* rt.barrier();
        return rt.blockTransferOptions;
      });
    const { results } = withOptions((rt) => {
      rt.blockTransferOptions = { ...rt.blockTransferOptions, delayCycles: 35, poll: 'once' };
    });
    expect(results[0]).toEqual({ bandwidthMatching: true, delayCycles: 35, poll: 'once' });
    expect(results[1]).toBe(results[0]);
    expect(Object.isFrozen(results[0])).toBe(true);
    expect(() => withOptions((rt) => ((rt.blockTransferOptions as { delayCycles: number }).delayCycles = -5))).toThrow(/read only property 'delayCycles'/);
    const refused = (options: unknown) => () => withOptions((rt) => (rt.blockTransferOptions = options as Runtime['blockTransferOptions']));
    expect(refused({ bandwidthMatching: true, delayCycles: -5, poll: 'once' })).toThrow(/^node 0: bandwidth-matching delay -5: expected a non-negative integer$/);
    expect(refused({ bandwidthMatching: true, delayCycles: 28, poll: 'sometimes' })).toThrow(/^node 0: block-transfer option poll "sometimes" \(a string\): expected 'once' or 'empty'$/);
    expect(refused({ bandwidthMatching: 'yes', delayCycles: 28, poll: 'once' })).toThrow(/^node 0: block-transfer option bandwidthMatching "yes" \(a string\): expected true or false$/);
    expect(refused(null)).toThrow(/^node 0: block-transfer options: expected \{ bandwidthMatching, delayCycles, poll \}, got null$/);
  });

  it("keeps a port's own handler when a header names another (the header sets one only if the port has none)", () => {
    const other: PortHandler<Receiver> = (rt) => {
      rt.globals.completions += 100;
    };
    const { results } = toPort4(done, (rt) => rt.handlerWord(other));
    expect(results[0]).toBe(1);
  });

  // `(rt) => rt.globals.completions++` failed as "TypeError: number 0 is not iterable", a
  // handler of 5 as "h is not a function", and a generator's `yield 5` passed unnoticed.
  it.each([
    ['returns a value', ((rt: Runtime<Receiver>) => rt.globals.completions++) as unknown as PortHandler<Receiver>, /^node 0: port 4's handler \(anonymous\) returned 0; port handlers return nothing \(or are generator functions, /],
    ['is not a function', 5 as unknown as PortHandler<Receiver>, /^node 0: port 4's handler is 5; expected a function, or null for none$/],
    [
      'yields a number itself',
      function* counted(rt: Runtime<Receiver>): Op {
        rt.globals.completions++;
        yield 5;
      } as PortHandler<Receiver>,
      /^node 0: port 4's handler counted yielded number 5; runtime calls are made with yield\* /,
    ],
  ])('names a port handler that %s', (_what, handler, message) => {
    expect(() => toPort4(handler, () => 0)).toThrow(message);
  });
});

// A header announcing 40 words before a block of 32, or a block sent without its header,
// deadlocked as "node 0: waiting in pollBothUntil" and said nothing of the port.
describe('a block transfer whose header and data do not add up', () => {
  const deadlockOf = (header: number | null) => () =>
    runInline('cm5', 2, function* (rt: Runtime<Receiver>): Op<void> {
      const g = rt.globals;
      if (rt.self === 0) {
        rt.port(4).setBase(g.memory);
        rt.port(4).handler = done as PortHandler;
      }
      yield* rt.barrier();
      if (rt.self === 1) {
        if (header !== null) yield* rt.sendBothRLPollBoth(0, strataXferHeaderHandler, 4, header, 0);
        yield* rt.sendBlockXferPollBoth(0, 4, 0, new Array<number>(32).fill(7), 32);
      } else {
        yield* rt.pollBothUntil(() => g.completions > 0);
      }
    }, { globals: () => ({ memory: new Uint32Array(64), completions: 0, countSeen: [] }) });

  it('deadlocks naming the port and the words it still expects', () => {
    expect(deadlockOf(40)).toThrow(/\n  node 0: waiting in pollBothUntil\n  node 1: exited\nports still counting words \(block transfers not complete\):\n  node 0 port 4: 8 words still expected$/);
  });

  it('deadlocks naming the port that took words beyond its count', () => {
    expect(deadlockOf(null)).toThrow(/\nports still counting words \(block transfers not complete\):\n  node 0 port 4: 32 words arrived beyond its count \(a header still to come, or one that announced too few\)$/);
  });
});
