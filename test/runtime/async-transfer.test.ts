import { describe, expect, it } from 'vitest';
import { type Handler, type Op, type PortHandler, type Runtime } from '../../src/runtime/index.ts';
import { runInline } from '../support/inline-app.ts';

interface G {
  memory: Uint32Array;
  arrived: number;
  sentDone: number[];
  remainingAfterOneRound: number[];
}

const WORDS = 40; // 10 Xfer packets on the CM-5

const arrived: PortHandler<G> = (rt) => {
  rt.globals.arrived++;
};

/** Node 0 queues one transfer to each of nodes 1..3 (into port 2) and services them. */
function run(service: (rt: Runtime<G>, ids: number[]) => Op, seed = 1) {
  return runInline(
    'cm5',
    4,
    function* (rt: Runtime<G>): Op<G> {
      const g = rt.globals;
      if (rt.self !== 0) {
        g.memory = new Uint32Array(WORDS);
        const p = rt.port(2);
        p.setBase(g.memory);
        p.count = WORDS;
        p.handler = arrived as PortHandler;
      }
      yield* rt.barrier();
      if (rt.self === 0) {
        const ids = [1, 2, 3].map((dest) =>
          rt.asyncBlockXfer(dest, 2, 0, Uint32Array.from({ length: WORDS }, (_, i) => dest * 1000 + i), WORDS, (r, id) => {
            r.globals.sentDone.push(id);
          }),
        );
        yield* service(rt, ids);
      } else {
        yield* rt.pollBothUntil(() => rt.globals.arrived === 1);
      }
      yield* rt.barrier();
      return g;
    },
    { globals: () => ({ memory: new Uint32Array(0), arrived: 0, sentDone: [], remainingAfterOneRound: [] }), network: 'packet', seed },
  );
}

describe('asynchronous block transfers (Appendix A 8)', () => {
  it('send every queued block intact with ServiceAllTransfers(-1), calling each completion once', () => {
    const { results } = run(function* (rt, ids) {
      expect(ids.map((id) => rt.getAbxProc(id))).toEqual([1, 2, 3]);
      expect(ids.map((id) => rt.getAbxRemaining(id))).toEqual([WORDS, WORDS, WORDS]);
      yield* rt.serviceAllTransfers(-1);
    });
    for (const dest of [1, 2, 3]) {
      expect(Array.from(results[dest].memory)).toEqual(Array.from({ length: WORDS }, (_, i) => dest * 1000 + i));
    }
    expect([...results[0].sentDone].sort()).toEqual([1, 2, 3]);
  });

  it('interleave: one round sends two packets of every transfer', () => {
    const { results } = run(function* (rt, ids) {
      yield* rt.serviceAllTransfers(1);
      rt.globals.remainingAfterOneRound = ids.map((id) => rt.getAbxRemaining(id));
      yield* rt.serviceAllTransfers(-1);
    });
    expect(results[0].remainingAfterOneRound).toEqual([WORDS - 8, WORDS - 8, WORDS - 8]);
  });

  it('CompleteTransfer finishes one transfer and leaves the others queued', () => {
    const { results } = run(function* (rt, ids) {
      yield* rt.completeTransfer(ids[1]);
      rt.globals.remainingAfterOneRound = [ids[0], ids[2]].map((id) => rt.getAbxRemaining(id));
      yield* rt.serviceAllTransfers(-1);
    });
    expect(results[0].sentDone[0]).toBe(2);
    expect(results[0].remainingAfterOneRound).toEqual([WORDS, WORDS]);
  });

  // GetABXremaining of a finished transfer failed ("no pending asynchronous transfer"), so
  // polling a transfer down to 0 failed at its end, and a completion, handed the id, could
  // not ask where its transfer went: Appendix A 8's accessors describe "the named transfer".
  it('still names a finished transfer: remaining 0, the rest as queued, CompleteTransfer a no-op', () => {
    const { results } = run(function* (rt, ids) {
      let rounds = 0;
      while (rt.getAbxRemaining(ids[0]) > 0) {
        yield* rt.serviceAllTransfers(1);
        rounds++;
      }
      expect(rounds).toBe(WORDS / 8); // two 4-word packets a round
      expect(ids.map((id) => rt.getAbxRemaining(id))).toEqual([0, 0, 0]);
      expect([rt.getAbxProc(ids[2]), rt.getAbxPort(ids[2]), rt.getAbxOffset(ids[2]), rt.getAbxBuffer(ids[2])[1]]).toEqual([3, 2, 0, 3001]);
      const before = rt.currentCycle64();
      yield* rt.completeTransfer(ids[1]);
      expect(rt.currentCycle64()).toBe(before);
      expect(() => rt.getAbxRemaining(99)).toThrow(/^node 0: no asynchronous transfer 99: expected an id asyncBlockXfer returned on this node$/);
    });
    expect([...results[0].sentDone].sort()).toEqual([1, 2, 3]);
  });

  it('lets a completion describe its own transfer', () => {
    const seen: string[] = [];
    const block = [1, 2, 3, 4];
    runInline('cm5', 2, function* (rt) {
      if (rt.self === 1) rt.port(2).setBase(new Uint32Array(8));
      yield* rt.barrier();
      if (rt.self === 0) {
        rt.asyncBlockXfer(1, 2, 4, block, 4, (r, id, buffer) => {
          seen.push(`to ${r.getAbxProc(id)} port ${r.getAbxPort(id)} at ${r.getAbxOffset(id)}, ${r.getAbxRemaining(id)} left, ${buffer === block ? 'its' : 'another'} buffer`);
        });
        // A block of no words is sent at once, and its completion runs as any other's.
        rt.asyncBlockXfer(1, 2, 0, block, 0, (r, id, buffer) => void seen.push(`empty, ${r.getAbxRemaining(id)} left, ${buffer === block ? 'its' : 'another'} buffer`));
        yield* rt.serviceAllTransfers(-1);
      }
      yield* rt.barrier();
    });
    expect([...seen].sort()).toEqual(['empty, 0 left, its buffer', 'to 1 port 2 at 4, 0 left, its buffer']);
  });

  // Finished by a handler's CompleteTransfer while ServiceAllTransfers ran, transfer 2 was
  // finished again when the round reached it: its completion ran twice and splice(-1)
  // dropped transfer 1, whose receiver then waited forever (a deadlock).
  it.each([
    ['ServiceAllTransfers', 'CompleteTransfer'],
    ['CompleteTransfer', 'ServiceAllTransfers'],
  ] as const)('a transfer a handler finishes during %s (by %s) finishes once, and the others still go', (outer, inner) => {
    interface H { ids: number[]; done: number[]; memory: Uint32Array; arrived: number }
    const nested: Handler<H> = function* (rt) {
      if (inner === 'CompleteTransfer') yield* rt.completeTransfer(rt.globals.ids[1]);
      else yield* rt.serviceAllTransfers(-1);
    };
    const { results } = runInline(
      'cm5',
      4,
      function* (rt: Runtime<H>): Op<H> {
        const g = rt.globals;
        if (rt.self === 1 || rt.self === 2) {
          const p = rt.port(2);
          p.setBase(g.memory);
          p.count = WORDS;
          p.handler = ((r: Runtime<H>) => {
            r.globals.arrived++;
          }) as PortHandler;
        }
        yield* rt.barrier();
        if (rt.self === 0) {
          g.ids = [1, 2].map((dest) => rt.asyncBlockXfer(dest, 2, 0, new Uint32Array(WORDS).fill(dest), WORDS, (r, id) => void r.globals.done.push(id)));
          if (outer === 'ServiceAllTransfers') yield* rt.serviceAllTransfers(-1);
          else {
            yield* rt.completeTransfer(g.ids[1]);
            yield* rt.serviceAllTransfers(-1);
          }
        } else if (rt.self !== 3) {
          if (rt.self === 1) yield* rt.sendBothLRPollBoth(0, nested);
          yield* rt.pollBothUntil(() => rt.globals.arrived === 1);
        }
        yield* rt.barrier();
        return g;
      },
      { globals: () => ({ ids: [], done: [], memory: new Uint32Array(WORDS), arrived: 0 }), network: 'packet' },
    );
    expect(results[0].done).toEqual([2, 1]);
    expect(Array.from(results[1].memory)).toEqual(new Array(WORDS).fill(1));
    expect(Array.from(results[2].memory)).toEqual(new Array(WORDS).fill(2));
  });

  it('fixes a pseudo-random service order at queue time, reproducible for a seed', () => {
    const order = (seed: number) => run(function* (rt) {
      yield* rt.serviceAllTransfers(-1);
    }, seed).results[0].sentDone.join(',');
    expect(order(1)).toBe(order(1));
    const orders = new Set([1, 2, 3, 4, 5, 6, 7, 8].map(order));
    expect(orders.size).toBeGreaterThan(1);
    // Each new transfer may go anywhere, the end too: all six orders of three come up.
    const many = new Set(Array.from({ length: 40 }, (_, i) => order(i + 1)));
    expect([...many].sort()).toEqual(['1,2,3', '1,3,2', '2,1,3', '2,3,1', '3,1,2', '3,2,1']);
  });

  // A function* completion made a generator that never ran (the run verified); 5 failed
  // when the transfer ended, "TypeError: ... is not a function".
  it('refuses a completion that is not a plain function', () => {
    const transfer = (complete: unknown) => () =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) rt.port(2).setBase(new Uint32Array(4));
        yield* rt.barrier();
        if (rt.self === 0) {
          rt.asyncBlockXfer(1, 2, 0, [1, 2, 3, 4], 4, complete as null);
          yield* rt.serviceAllTransfers(-1);
        }
        yield* rt.barrier();
      });
    const announced = function* announce(): Op {};
    const later = async function later(): Promise<void> {};
    expect(transfer(later)).toThrow(/^node 0: asynchronous transfer \d+'s completion later is an async function \(its body runs after the run has gone on\); a completion is a plain function /);
    expect(transfer(announced)).toThrow(/^node 0: asynchronous transfer \d+'s completion announce is a function\* \(its body never ran\); a completion is a plain function /);
    expect(transfer(5)).toThrow(/^node 0: asyncBlockXfer's completion 5: expected a function, or null for none$/);
    expect(transfer(() => undefined)).not.toThrow();
    // A void function's type takes any return value, as TypeScript allows: let be.
    expect(transfer(() => 3)).not.toThrow();
  });

  it('CompleteTransfer handles arrivals on both networks while it sends (as SendBlockXferPollBoth)', () => {
    interface H { heard: boolean; heardBeforeDone: boolean; memory: Uint32Array; arrived: number }
    const hello: Handler<H> = (rt) => {
      rt.globals.heard = true;
    };
    const { results } = runInline(
      'cm5',
      4,
      function* (rt: Runtime<H>): Op<H> {
        const g = rt.globals;
        if (rt.self === 2) {
          const p = rt.port(2);
          p.setBase(g.memory);
          p.count = 400;
          p.handler = ((r: Runtime<H>) => {
            r.globals.arrived++;
          }) as PortHandler;
        }
        yield* rt.barrier();
        if (rt.self === 0) {
          yield* rt.completeTransfer(rt.asyncBlockXfer(2, 2, 0, new Uint32Array(400).fill(7), 400));
          g.heardBeforeDone = g.heard;
          yield* rt.pollBothUntil(() => g.heard);
        } else if (rt.self === 1) yield* rt.sendLeftPollBoth(0, hello);
        else if (rt.self === 2) yield* rt.pollBothUntil(() => g.arrived === 1);
        yield* rt.barrier();
        return g;
      },
      { globals: () => ({ heard: false, heardBeforeDone: false, memory: new Uint32Array(400), arrived: 0 }), network: 'packet' },
    );
    expect(results[0].heardBeforeDone).toBe(true);
  });

  // Checked when queued, where the app's line is: nothing sends a transfer never serviced.
  it('refuses a transfer to a node that does not exist when it is queued', () => {
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 0) rt.asyncBlockXfer(5, 2, 0, [1, 2, 3, 4]);
      }),
    ).toThrow(/^node 0: message to node 5: expected a node number from 0 to 1$/);
  });

  it('refuses a number of rounds below -1 (-1 is all of them)', () => {
    const service = (rounds: number) => () =>
      runInline('cm5', 2, function* (rt) {
        yield* rt.serviceAllTransfers(rounds);
      });
    expect(service(-1)).not.toThrow();
    expect(service(0)).not.toThrow();
    expect(service(-2)).toThrow(/^node 0: serviceAllTransfers\(-2\): expected a number of rounds, or -1 for all$/);
    expect(service(1.5)).toThrow(/serviceAllTransfers\(1\.5\): expected a number of rounds/);
  });
});
