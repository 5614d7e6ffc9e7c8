/**
 * The stencil selection study's diagnosis (src/study/stencil-ceiling.ts): near ties are
 * counted from the measured times, and the in-sample ceiling is what the models' terms
 * (eq. 33 and the edges' packets) fitted to the runs themselves would choose, so it is
 * perfect when the runs follow eq. 33 exactly and falls where they do not.
 */
import { describe, expect, it } from 'vitest';
import { stencilFactsOf } from '../../src/library/stencil-module.ts';
import { diagnoseCeiling } from '../../src/study/stencil-ceiling.ts';
import type { Row } from '../../src/study/study.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const THREE = new Set(['square', 'vstrips', 'uni']);

/** A 16-node trial's rows: square (4 x 4) and vstrips (16 x 1) runs of a width x height grid. */
function trial(width: number, height: number, square: (w: number, h: number) => number, vstrips: (w: number, h: number) => number): Row[] {
  const base = { platform: 'alewife', nodes: 16, ...stencilFactsOf(loadTestPlatform('alewife')), width, height, iters: 4, aspect: null };
  // The slowest node's block (slowestLines): 4 parts of width and height for square, 16 parts of width for vstrips.
  const lines = (total: number, parts: number) => parts * Math.ceil((total - 1) / parts);
  return [
    { ...base, variant: 'square', measured: square(lines(width, 4), lines(height, 4)) },
    { ...base, variant: 'vstrips', measured: vstrips(lines(width, 16), height) },
  ];
}

const GRIDS = [
  [64, 64],
  [256, 16],
  [1024, 24],
  [40, 900],
  [128, 128],
  [700, 33],
  [96, 300],
  [2000, 12],
];

describe('stencil selection diagnosis: near ties and the in-sample ceiling of eq. 33', () => {
  it('runs that follow eq. 33 exactly give a perfect ceiling, and the near ties are the close pairs', () => {
    const square = (w: number, h: number) => 9000 + 40 * w + 40 * h + 2 * w * h;
    const vstrips = (w: number, h: number) => 5000 + 3 * w + 90 * h + 2 * w * h;
    const trials = GRIDS.map(([w, h]) => trial(w, h, square, vstrips));
    const d = diagnoseCeiling(trials, THREE);
    expect(d.all.inSampleAccuracy).toBe(1);
    const gaps = trials.map((t) => {
      const [a, b] = t.map((r) => r.measured as number).sort((x, y) => x - y);
      return b / a - 1;
    });
    expect(d.all.nearTies).toEqual([0.005, 0.01].map((x) => gaps.filter((g) => g < x).length / trials.length));
    expect(d.thesis).toEqual(d.all);
  });

  it('runs eq. 33 cannot follow (a cost in the square root of the block) lower the ceiling below 100%', () => {
    // vstrips pays 3000 per square root of its block's height: no combination of 1, w, h, wh fits it everywhere.
    const square = (w: number, h: number) => 4000 + 40 * w + 40 * h + 2 * w * h;
    const vstrips = (w: number, h: number) => 3000 * Math.sqrt(h) + 2 * w * h;
    const grids = [...GRIDS, [300, 40], [150, 60], [60, 150], [512, 20], [16, 16], [3000, 8], [80, 80], [4000, 4000]];
    const trials = grids.map(([w, h]) => trial(w, h, square, vstrips));
    const d = diagnoseCeiling(trials, THREE);
    expect(d.all.inSampleAccuracy).not.toBeNull();
    expect(d.all.inSampleAccuracy!).toBeLessThan(1);
  });

  it('a trial with a failed run is left out', () => {
    const f = (w: number, h: number) => 1000 + w * h;
    const trials = GRIDS.slice(0, 4).map(([w, h]) => trial(w, h, f, (a, b) => 2 * f(a, b)));
    trials[0][1] = { ...trials[0][1], measured: null };
    const d = diagnoseCeiling(trials, THREE);
    expect(d.all.inSampleAccuracy).toBe(1);
    expect(d.all.nearTies).toEqual([0, 0]);
  });
});
