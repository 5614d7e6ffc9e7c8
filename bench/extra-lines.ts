/**
 * The square layout's extra rows and columns (thesis 5.2, Table 5-1; selection.md P1 and
 * R2): at 64 nodes on each platform, eq. 40's prediction with the factored Communication
 * (eq. 38) and with the hybrid one (eq. 54, platforms/models/hybrid/n64), and the
 * shortest critical chain's (src/library/extra-lines.ts chainExtraLines), against the
 * measured optimum: the stencil run with extraRows = 0..15 (extraCols = 0), then
 * extraCols = 0..15 (extraRows = 0), the argmin of its timed cycles (ties to the fewer
 * lines). Each prediction's cost is how much slower its value runs than the optimum
 * (clamped to 15, the range measured). Table 5-1's configurations (Alewife, CM-5 and
 * Paragon 200 x 200, ATM 50 x 50) and four more sizes per platform; 8 iterations, seed 1
 * (the CM-5's timer interrupts make its curves noisier). The runs go through
 * `sim sweep --workers 2`.
 *
 *   npm run bench extra-lines
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlatform } from '../src/cli/load-inputs.ts';
import { loadModelSet } from '../src/cli/model-files.ts';
import type { Communication } from '../src/library/extra-lines.ts';
import { selectContext, variantNamed, type SelectContext } from '../src/library/module.ts';
import { STENCIL_MODULE } from '../src/library/stencil-module.ts';
import { printRows } from './harness.ts';
import { metric, runSweep } from './sweep-results.ts';

const NODES = 64;
const ITERS = 8;
const MAX = 15;
/** Table 5-1's configuration first, then the others. */
const GRIDS: Record<string, [number, number][]> = {
  alewife: [[200, 200], [50, 50], [100, 100], [400, 400], [100, 300]],
  cm5: [[200, 200], [50, 50], [100, 100], [400, 400], [100, 300]],
  atm: [[50, 50], [200, 200], [100, 100], [400, 400], [100, 300]],
  paragon: [[200, 200], [50, 50], [100, 100], [400, 400], [100, 300]],
};
const MODELS: Communication[] = ['factored', 'hybrid', 'chain'];
const SQUARE = variantNamed(STENCIL_MODULE, 'square');

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function extraLinesBench(): Promise<void> {
  const runs: object[] = [];
  const predicted = new Map<string, Record<Communication, { extraRows: number; extraCols: number }>>();
  for (const [name, grids] of Object.entries(GRIDS)) {
    const platform = await loadPlatform(name);
    const ctx = (communication: Communication): SelectContext => selectContext(platform, NODES, loadModelSet(platform, NODES, undefined, { communication }), communication);
    const contexts = { factored: ctx('factored'), hybrid: ctx('hybrid'), chain: ctx('chain') };
    for (const [width, height] of grids) {
      const x = { width, height, iters: ITERS };
      const p = Object.fromEntries(MODELS.map((m) => [m, SQUARE.tune!(x, contexts[m]).params])) as Record<Communication, { extraRows: number; extraCols: number }>;
      predicted.set(`${name} ${width} ${height}`, p);
      for (let k = 0; k <= MAX; k++) {
        runs.push({ app: 'apps/stencil', platform: name, nodes: NODES, seeds: 1, params: { ...x, layout: 'square', extraRows: k, extraCols: 0 } });
        if (k > 0) runs.push({ app: 'apps/stencil', platform: name, nodes: NODES, seeds: 1, params: { ...x, layout: 'square', extraRows: 0, extraCols: k } });
      }
    }
  }
  const sweep = join(mkdtempSync(join(tmpdir(), 'bench-extra-lines-')), 'extra-lines.json');
  writeFileSync(sweep, JSON.stringify({ name: 'bench-extra-lines', runs }));
  const lines = runSweep(sweep, 2);

  const rows: [string, string][] = [];
  const hits = Object.fromEntries(MODELS.map((m) => [m, { rows: 0, cols: 0, cost: [] as number[] }])) as Record<Communication, { rows: number; cols: number; cost: number[] }>;
  let configs = 0;
  for (const [name, grids] of Object.entries(GRIDS)) {
    for (const [width, height] of grids) {
      configs++;
      const cycles = (r: number, c: number) => metric(lines, { platform: name, params: { width, height, iters: ITERS, extraRows: r, extraCols: c } }, 'cycles');
      const rowCurve = Array.from({ length: MAX + 1 }, (_, k) => cycles(k, 0));
      const colCurve = Array.from({ length: MAX + 1 }, (_, k) => cycles(0, k));
      const best = (v: number[]) => v.indexOf(Math.min(...v));
      const opt = { rows: best(rowCurve), cols: best(colCurve) };
      const p = predicted.get(`${name} ${width} ${height}`)!;
      const cells = MODELS.map((m) => {
        const r = p[m].extraRows;
        const c = p[m].extraCols;
        const rowCost = rowCurve[Math.min(r, MAX)] / rowCurve[opt.rows] - 1;
        const colCost = colCurve[Math.min(c, MAX)] / colCurve[opt.cols] - 1;
        if (r === opt.rows) hits[m].rows++;
        if (c === opt.cols) hits[m].cols++;
        hits[m].cost.push(rowCost, colCost);
        return `${m} ${r}/${c} (+${pct(rowCost)}/+${pct(colCost)})`;
      });
      rows.push([`${name} ${width} x ${height}`, `measured ${opt.rows}/${opt.cols} (${pct(rowCurve[0] / rowCurve[opt.rows] - 1)}/${pct(colCurve[0] / colCurve[opt.cols] - 1)} faster than none); ${cells.join('; ')}`]);
    }
  }
  printRows(`Extra rows/cols at ${NODES} nodes, ${ITERS} iterations: measured optimum over 0..${MAX}, and each model's prediction (its rows/cols slower than the optimum)`, rows);
  printRows(
    'Summary',
    MODELS.map((m) => [m, `rows optimal in ${hits[m].rows}/${configs}, columns in ${hits[m].cols}/${configs}; its values run ${pct(hits[m].cost.reduce((a, b) => a + b, 0) / hits[m].cost.length)} slower than the optimum on average, at worst ${pct(Math.max(...hits[m].cost))}`]),
  );
}
