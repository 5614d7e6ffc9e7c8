import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_TASKS, median } from '../../src/calibrate/app-tasks.ts';
import type { FittedModel } from '../../src/calibrate/models.ts';
import { runUnit } from '../../src/calibrate/samples.ts';
import { parseSpecs } from '../../src/calibrate/spec.ts';
import { loadTestPlatform, type PlatformName } from '../support/platforms.ts';
import { ROOT } from '../support/sim-cli.ts';

/** The samples of one spec on one platform: [measured, ...columns] per line, building then verification. */
function samples(platformName: PlatformName, nodes: number, spec: string, vcount = 0): number[][] {
  const text = runUnit({ platform: loadTestPlatform(platformName), spec: parseSpecs(spec, 'test.spec')[0], source: 'test.spec', nodes, seed: 1, vcount });
  return text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split(' ').slice(1).map(Number));
}

describe('calibration tasks: custom collection (thesis 6.3) and data that drive the cost', () => {
  it('Receive is the cost per packet from loops with and without incoming packets: the receive overhead', () => {
    for (const platform of ['cm5', 'paragon'] as const) {
      const receive = loadTestPlatform(platform).messaging.receiveOverheadCycles;
      const got = samples(platform, 8, '{{ r 1 3 ++ @ Barrier() @ Receive(100) @ Barrier() @ @ }}');
      expect(got).toHaveLength(3);
      // The handler does nothing but count, so a packet costs the overhead and the rest of its poll.
      for (const [cycles] of got) {
        expect(cycles).toBeGreaterThanOrEqual(receive);
        expect(cycles).toBeLessThan(receive * 1.2);
      }
    }
  });

  it('Receive on two nodes, where one sender cannot keep node 0 busy: the polls that found nothing drop out', () => {
    // On the Paragon and the ATM node 0 handles a packet faster than node 1 sends one, so most of
    // its polls find nothing; counted in, they made a packet cost 137 and 1,109 cycles.
    for (const platform of ['paragon', 'atm'] as const) {
      const receive = loadTestPlatform(platform).messaging.receiveOverheadCycles;
      for (const [cycles] of samples(platform, 2, '{{ r 1 2 ++ @ Barrier() @ Receive(100) @ Barrier() @ @ }}')) {
        expect(cycles).toBeGreaterThanOrEqual(receive);
        expect(cycles).toBeLessThan(receive * 1.2);
      }
    }
  });

  it("on 8 nodes, the tasks whose cost is the node's and the link's alone give what the shipped models (fitted on 16 to 64) predict", () => {
    // strata.spec's own lines, each loop cut to its first few values.
    const lines = readFileSync(join(ROOT, 'apps/calibration/strata.spec'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{{'))
      .map((l) => l.replace('r 1 4 ++', 'r 1 2 ++').replace('c 0 1024 +=64', 'c 0 128 +=64').replace('i 1 64 ++', 'i 1 3 ++').replace('k 1 8 ++, i 4 10 +=2', 'k 1 3 ++, i 4 6 +=2'));
    // Message costs are exact on every platform (Receive's fitted constant within 0.5%), the CM-5's block
    // transfers within 0.5% and its two-way and queued ones within 2%: its processor moves every word
    // (Alewife's DMA makes small blocks uneven).
    const exact = ['SendRequest', 'SendRPC', 'Receive', 'PollBothTilEmpty', 'SendLeftPollBoth', 'Random', 'Qprintf'];
    const cases = [...(['cm5', 'alewife', 'paragon', 'atm'] as const).map((p) => [p, exact, 0.5] as const), ['cm5', ['BlockTransfer'], 0.5] as const, ['cm5', ['ExchangeBlocks', 'AsyncTransfers'], 2] as const];
    for (const [platform, names, percent] of cases) {
      const models: FittedModel[] = JSON.parse(readFileSync(join(ROOT, 'platforms/models', `${platform}.json`), 'utf8')).models;
      for (const name of names) {
        const m = models.find((x) => x.name === name)!;
        const got = samples(platform, 8, lines.find((l) => l.includes(`@ ${name}(`))!);
        expect(got.length, name).toBeGreaterThanOrEqual(2);
        for (const [y, ...x] of got) {
          const predicted = m.coefficients[0] + x.reduce((sum, v, k) => sum + m.coefficients[k + 1] * v, 0);
          expect(Math.abs(y - predicted) / predicted, `${platform} ${name} at ${x.join(' ')}: ${y}, predicted ${predicted}`).toBeLessThan(percent / 100);
        }
      }
    }
  });

  it('Roundtrip averages trips once the partner is waiting: the Alewife line has the mesh slope of 2 x 1.28 cycles per hop', () => {
    const got = samples('alewife', 64, '{{ n 1 P-1 ++ @ Barrier() @ Roundtrip(n) @ Release() @ hops:hops(n) @ }}');
    expect(got).toHaveLength(63);
    // Least squares of cycles on hops over the 63 partners (a trip ends on a poll, so each is rounded up to the polling loop's 4 cycles).
    const n = got.length;
    const mx = got.reduce((a, [, h]) => a + h, 0) / n;
    const my = got.reduce((a, [y]) => a + y, 0) / n;
    const slope = got.reduce((a, [y, h]) => a + (h - mx) * (y - my), 0) / got.reduce((a, [, h]) => a + (h - mx) ** 2, 0);
    expect(slope).toBeGreaterThan(2.3);
    expect(slope).toBeLessThan(2.9);
    // No partner is caught passing a barrier's release down its subtree: every trip is near the line.
    for (const [y, h] of got) expect(Math.abs(y - (my + slope * (h - mx)))).toBeLessThan(5);
  });

  it('CompositeMedian(steps) arranges the values so that Fig. 6-2 takes that many steps: each costs the same', () => {
    // Up to P - ceil(P/2) = 8 steps, from the large value when the average lies above every other (7 and 8 were refused).
    const got = samples('cm5', 16, '{{ s 0 8 ++ @ Barrier() @ CompositeMedian(steps) @ @ steps:s @ }}');
    expect(got.map(([, steps]) => steps)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const perStep = got.slice(1).map(([y], i) => y - got[i][0]);
    // A step is one two-word reduction and one global max on the control network.
    expect(new Set(perStep).size).toBe(1);
    expect(perStep[0]).toBeGreaterThan(2 * 150);
  });

  it('each rect task times exactly the processor grid it names, and refuses a machine that grid does not divide', () => {
    // aspect = px / py picks the px x py factorization (apps/stencil/grid.ts processorGrid).
    expect(APP_TASKS.StencilRectCols4.params([64, 32, 2], 64)).toEqual({ layout: 'rect', width: 64, height: 32, iters: 2, aspect: 4 / 16 });
    expect(APP_TASKS.StencilRectRows2.params([64, 32, 2], 64)).toEqual({ layout: 'rect', width: 64, height: 32, iters: 2, aspect: 32 / 2 });
    expect(() => APP_TASKS.StencilRectRows4.params([64, 32, 2], 6)).toThrow(/StencilRectRows4 on 6 nodes: 1.5 processor columns do not divide P = 6/);
    // A whole number of columns that does not divide P either: aspect 4 / 1.5 would have picked another grid.
    expect(() => APP_TASKS.StencilRectCols4.params([64, 32, 2], 6)).toThrow(/StencilRectCols4 on 6 nodes: 4 processor columns do not divide P = 6/);
  });
});

describe("a noisy sample's median", () => {
  it('is the middle timing, or the mean of the middle two for an even count', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
  });
});
