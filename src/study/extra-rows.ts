/**
 * `sim study extra-rows` (thesis 5.2, Table 5-1): the square layout's extra rows and
 * columns for the boundary processors, predicted by the stencil module (the shortest
 * critical chain, src/library/extra-lines.ts, and its predicted benefit),
 * against the measured optimum. Configurations per platform: the thesis's (Alewife,
 * CM-5 and Paragon 200 x 200, ATM 50 x 50) and 16 more (--trials) with width and
 * height log-uniform in [32, max-grid] (default 400) from the stream
 * `study/extra-rows/<platform>/n<nodes>`, redrawn until every value 0-15 of each
 * parameter partitions the grid. Each runs extraRows 0..15 (extraCols 0) and extraCols
 * 0..15 (extraRows 0), 4 iterations, then the predicted pair and, in a second round,
 * the measured optimum pair. A prediction is optimal when no value measured fewer
 * cycles, "within 0.5%" when it costs at most 0.5% more than the best (counted apart,
 * as issue 21 asks); benefit = T(0, 0) / T(r, c) - 1.
 *
 * On a platform whose nodes take timer interrupts (the CM-5) each point is the median
 * of three seeds, the thesis's rule for a robust CM-5 timing (3.4.1, 3.4.3) and the
 * one its models were calibrated with (calibrate/app-tasks.ts NOISY_SEEDS): one run
 * of a small grid moves by several percent with the interrupts' phases, more than the
 * differences between neighbouring values being judged.
 */
import { partition } from '../../apps/stencil/grid.ts';
import { median } from '../calibrate/app-tasks.ts';
import { RandomStream } from '../kernel/random-stream.ts';
import { variantNamed } from '../library/module.ts';
import { STENCIL_MODULE } from '../library/stencil-module.ts';
import { logUniform } from './stencil-grids.ts';
import { checkLines, holdsOver, type Check } from './checks.ts';
import { STENCIL_ITERS, usesStencilModel } from './stencil-selection.ts';
import { groupBy, pct } from './stats.ts';
import { cyclesOf, runId, seedsOf, unmeasured, type Measurements, type Row, type Study, type StudyOptions, type StudyRun, type Summary } from './study.ts';
import { COLORS, f2, legend, Plot, svgDocument } from '../library/svg.ts';
import { TABLE_5_1 } from './thesis.ts';

/** The values measured of each parameter (Table 5-1's trials; issue 21: 0..15). */
const VALUES = Array.from({ length: 16 }, (_, k) => k);
const MIN_SIDE = 32;
/** The most points a configuration's first round runs (planOf): each parameter's 16 values, each one's prediction beyond them, the predicted pair. */
const MOST_POINTS = 2 * VALUES.length + 3;
/** A prediction this close to the optimum counts apart (issue 21). */
const NEAR = 0.005;

interface Config {
  platform: string;
  spec: string;
  nodes: number;
  config: number;
  thesis: boolean;
  width: number;
  height: number;
  rows: number;
  cols: number;
  benefit: number;
  /** The seeds each point is run with: NOISY_SEEDS on a platform with timer interrupts, else one. */
  seeds: readonly number[];
}

const feasible = (nodes: number, w: number, h: number) => VALUES.every((v) => typeof partition('square', nodes, w, h, 1, 0, v) !== 'string' && typeof partition('square', nodes, w, h, 1, v, 0) !== 'string');

const cache = new WeakMap<StudyOptions, Config[]>();
function configsOf(options: StudyOptions): Config[] {
  const hit = cache.get(options);
  if (hit !== undefined) return hit;
  const square = variantNamed(STENCIL_MODULE, 'square');
  const out: Config[] = [];
  for (const p of options.platforms) {
    for (const nodes of options.nodes) {
      const ctx = p.context(nodes);
      const grids: { width: number; height: number; thesis: boolean }[] = [];
      const t = TABLE_5_1[p.name];
      if (t !== undefined && feasible(nodes, t.width, t.height)) grids.push({ width: t.width, height: t.height, thesis: true });
      const random = new RandomStream(options.seed, `study/extra-rows/${p.name}/n${nodes}`);
      const want = grids.length + (options.trials ?? 16);
      for (let tries = 0; grids.length < want && tries < 10_000; tries++) {
        const width = logUniform(random, MIN_SIDE, options.maxGrid);
        const height = logUniform(random, MIN_SIDE, options.maxGrid);
        if (feasible(nodes, width, height) && !grids.some((g) => g.width === width && g.height === height)) grids.push({ width, height, thesis: false });
      }
      const seeds = seedsOf(p);
      grids.forEach((g, config) => {
        const tuned = square.tune!({ width: g.width, height: g.height, iters: STENCIL_ITERS }, ctx);
        out.push({ platform: p.name, spec: p.spec, nodes, config, thesis: g.thesis, width: g.width, height: g.height, rows: Number(tuned.params.extraRows), cols: Number(tuned.params.extraCols), benefit: tuned.benefit ?? 0, seeds });
      });
    }
  }
  cache.set(options, out);
  return out;
}

const run = (c: Config, extraRows: number, extraCols: number, seed: number): StudyRun => ({ platform: c.spec, nodes: c.nodes, app: 'apps/stencil', params: { width: c.width, height: c.height, iters: STENCIL_ITERS, layout: 'square', extraRows, extraCols }, seed });
const fits = (c: Config, r: number, cc: number) => typeof partition('square', c.nodes, c.width, c.height, 1, cc, r) !== 'string';

/** A point's measurement over its seeds: the median; null if a run failed, undefined while one is unmeasured. */
function pointCycles(cycles: readonly (number | null | undefined)[]): number | null | undefined {
  if (cycles.some((x) => x === undefined)) return undefined;
  if (cycles.some((x) => x === null)) return null;
  return median(cycles as number[]);
}

/** The measured argmin over `values` (ties to the smaller value), or null if a run failed. */
function argmin(values: readonly number[], t: (v: number) => number | null): number | null {
  let at: number | null = null;
  let tb = Infinity;
  for (const v of values) {
    const x = t(v);
    if (x === null) return null;
    if (x < tb) (at = v), (tb = x);
  }
  return at;
}

type Kind = 'rows' | 'cols' | 'predicted' | 'optimum';

/**
 * A configuration's runs: each parameter over 0..15 with the other 0, the predicted
 * value of each alone when it lies beyond 15, the predicted pair, and once both
 * sweeps are measured, the measured optimum pair. Pairs the layout cannot take are left out.
 */
function planOf(c: Config, measured: Measurements): { kind: Kind; r: number; c: number }[] {
  const out: { kind: Kind; r: number; c: number }[] = [...VALUES.map((v) => ({ kind: 'rows' as const, r: v, c: 0 })), ...VALUES.map((v) => ({ kind: 'cols' as const, r: 0, c: v }))];
  if (c.rows > 15) out.push({ kind: 'rows', r: c.rows, c: 0 });
  if (c.cols > 15) out.push({ kind: 'cols', r: 0, c: c.cols });
  out.push({ kind: 'predicted', r: c.rows, c: c.cols });
  const t = (r: number, cc: number) => pointCycles(c.seeds.map((seed) => measured.get(runId(run(c, r, cc, seed)))?.cycles));
  if (VALUES.every((v) => t(v, 0) !== undefined && t(0, v) !== undefined)) {
    const r = argmin(VALUES, (v) => t(v, 0) as number | null);
    const cc = argmin(VALUES, (v) => t(0, v) as number | null);
    if (r !== null && cc !== null) out.push({ kind: 'optimum', r, c: cc });
  }
  return out.filter((x) => fits(c, x.r, x.c));
}

export const EXTRA_COLUMNS = ['platform', 'nodes', 'config', 'thesis', 'width', 'height', 'iters', 'kind', 'extraRows', 'extraCols', 'seed', 'measured', 'predictedRows', 'predictedCols', 'predictedBenefit'] as const;

interface Verdict {
  predicted: number;
  optimum: number | null;
  /** T(predicted) / T(optimum) - 1. */
  loss: number | null;
  verdict: 'optimal' | 'within 0.5%' | 'wrong' | 'failed';
}

interface ConfigScore {
  platform: string;
  nodes: number;
  config: number;
  thesis: boolean;
  width: number;
  height: number;
  rows: Verdict;
  cols: Verdict;
  predictedBenefit: number;
  /** T(0, 0) / T(predicted pair) - 1. */
  measuredBenefit: number | null;
  /** T(0, 0) / T(optimum pair) - 1. */
  optimumBenefit: number | null;
}

function verdict(sweep: readonly Row[], param: 'extraRows' | 'extraCols', predicted: number): Verdict {
  if (sweep.some((r) => r.measured === null)) return { predicted, optimum: null, loss: null, verdict: 'failed' };
  const inRange = sweep.filter((r) => (r[param] as number) <= 15);
  const best = inRange.reduce((a, b) => ((b.measured as number) < (a.measured as number) || ((b.measured as number) === (a.measured as number) && (b[param] as number) < (a[param] as number)) ? b : a));
  const at = sweep.find((r) => r[param] === predicted);
  if (at === undefined) return { predicted, optimum: best[param] as number, loss: null, verdict: 'failed' };
  const loss = (at.measured as number) / (best.measured as number) - 1;
  return { predicted, optimum: best[param] as number, loss, verdict: loss <= 0 ? 'optimal' : loss <= NEAR ? 'within 0.5%' : 'wrong' };
}

/** A configuration's rows as one per point (kind, extraRows, extraCols), measured = the median over its seeds' rows. */
function points(rows: readonly Row[]): Row[] {
  return [...groupBy(rows, (r) => `${r.kind}|${r.extraRows}|${r.extraCols}`).values()].map((g) => ({ ...g[0], seed: null, measured: pointCycles(g.map((r) => r.measured as number | null)) ?? null }));
}

/** The extra-rows summary of its rows. */
export function scoreExtra(rows: readonly Row[]): { configs: ConfigScore[]; checks: Check[] } {
  const configs = [...groupBy(rows, (r) => `${r.platform}|${r.nodes}|${r.config}`).values()].map(points).map((g): ConfigScore => {
    const r0 = g[0];
    const pr = r0.predictedRows as number;
    const pc = r0.predictedCols as number;
    const base = g.find((r) => r.kind === 'rows' && r.extraRows === 0)?.measured ?? null;
    const pair = (kind: Kind) => g.find((r) => r.kind === kind)?.measured ?? null;
    const ben = (t: Row['measured']) => (typeof base === 'number' && typeof t === 'number' ? base / t - 1 : null);
    return {
      platform: r0.platform as string,
      nodes: r0.nodes as number,
      config: r0.config as number,
      thesis: r0.thesis as boolean,
      width: r0.width as number,
      height: r0.height as number,
      rows: verdict(g.filter((r) => r.kind === 'rows'), 'extraRows', pr),
      cols: verdict(g.filter((r) => r.kind === 'cols'), 'extraCols', pc),
      predictedBenefit: r0.predictedBenefit as number,
      measuredBenefit: ben(pair('predicted')),
      optimumBenefit: ben(pair('optimum')),
    };
  });
  const checks: Check[] = [];
  for (const param of ['rows', 'cols'] as const) {
    const vs = configs.map((c) => c[param].verdict);
    const n = (v: Verdict['verdict']) => vs.filter((x) => x === v).length;
    checks.push({ check: `extra ${param}: prediction optimal, or within 0.5% (counted apart)`, target: `${vs.length} of ${vs.length}`, value: `${n('optimal')} optimal + ${n('within 0.5%')} within 0.5% of ${vs.length}${n('failed') > 0 ? ` (${n('failed')} failed)` : ''}`, pass: holdsOver(vs.length, n('wrong') === 0 && n('failed') === 0) });
  }
  const far = configs.filter((c) => c.measuredBenefit === null || Math.abs(c.predictedBenefit - c.measuredBenefit) > 0.03);
  checks.push({ check: 'predicted benefit within 3 points of the measured', target: `${configs.length} of ${configs.length}`, value: `${configs.length - far.length} of ${configs.length}`, pass: holdsOver(configs.length, far.length === 0) });
  const thesis = configs.filter((c) => c.thesis && c.measuredBenefit !== null);
  const atm = thesis.find((c) => c.platform === 'atm');
  if (atm !== undefined && thesis.length > 1) {
    const top = thesis.reduce((a, b) => ((b.measuredBenefit as number) > (a.measuredBenefit as number) ? b : a));
    checks.push({ check: "thesis configurations: ATM's measured benefit the largest", target: 'atm', value: `${top.platform} (${pct(top.measuredBenefit)})`, pass: top.platform === 'atm' });
  }
  return { configs, checks };
}

export const EXTRA_ROWS: Study = {
  name: 'extra-rows',
  reproduces: 'Table 5-1',
  usesModel: usesStencilModel,
  about: 'Per platform, the thesis\'s configuration (Alewife, CM-5, Paragon 200 x 200; ATM 50 x 50) and 16 more grids by default (--trials) in [32, max-grid]² (default 400): the square layout\'s predicted extra rows and columns (the shortest critical chain) against the measured optimum over 0..15 of each (4 iterations), and the predicted benefit (the square\'s model less what the chain saves) against the measured. On the CM-5, whose nodes take timer interrupts, each point is the median of three seeds (thesis 3.4.1). Figure: predicted against measured benefit.',
  defaults: { takes: ['trials', 'max-grid'], trials: 16, minTrials: 0, maxGrid: 400, maxKeys: null, nodes: [64], inRounds: true, mostRunsPerTrial: (p) => MOST_POINTS * seedsOf(p).length },
  columns: EXTRA_COLUMNS,
  next: (options, measured) => unmeasured(configsOf(options).flatMap((c) => planOf(c, measured).flatMap((x) => c.seeds.map((seed) => run(c, x.r, x.c, seed)))), measured),
  rows(options, measured) {
    return configsOf(options).flatMap((c) =>
      planOf(c, measured).flatMap((x) => c.seeds.map((seed) => ({
        platform: c.platform,
        nodes: c.nodes,
        config: c.config,
        thesis: c.thesis,
        width: c.width,
        height: c.height,
        iters: STENCIL_ITERS,
        kind: x.kind,
        extraRows: x.r,
        extraCols: x.c,
        seed,
        measured: cyclesOf(measured, run(c, x.r, x.c, seed)),
        predictedRows: c.rows,
        predictedCols: c.cols,
        predictedBenefit: c.benefit,
      }))),
    );
  },
  summarize: (rows) => ({ study: 'extra-rows', ...scoreExtra(rows) }) as unknown as Summary,
  text(summary) {
    const s = summary as unknown as ReturnType<typeof scoreExtra>;
    const lines = ['extra-rows: thesis Table 5-1 (the thesis\'s in [brackets]; benefit = T(0,0) / T(r,c) - 1)', ''];
    lines.push(`${'platform'.padEnd(9)} ${'nodes'.padStart(5)} ${'grid'.padStart(9)}  ${'rows pred/opt'.padStart(13)} ${'[5-1]'.padStart(5)} ${'verdict'.padStart(11)}  ${'cols pred/opt'.padStart(13)} ${'[5-1]'.padStart(5)} ${'verdict'.padStart(11)}  ${'benefit pred'.padStart(12)} ${'measured'.padStart(8)} ${'[5-1]'.padStart(11)} ${'at optimum'.padStart(10)}`);
    for (const c of s.configs) {
      const t = c.thesis && c.nodes === 64 ? TABLE_5_1[c.platform] : undefined;
      const v = (x: Verdict) => `${x.predicted}/${x.optimum ?? '-'}`.padStart(13);
      lines.push(
        `${c.platform.padEnd(9)} ${String(c.nodes).padStart(5)} ${`${c.width}x${c.height}`.padStart(9)}  ${v(c.rows)} ${(t === undefined ? '' : `[${t.rows}]`).padStart(5)} ${c.rows.verdict.padStart(11)}  ${v(c.cols)} ${(t === undefined ? '' : `[${t.cols}]`).padStart(5)} ${c.cols.verdict.padStart(11)}  ${pct(c.predictedBenefit).padStart(12)} ${pct(c.measuredBenefit).padStart(8)} ${(t === undefined ? '' : `[${t.predicted}/${t.actual}%]`).padStart(11)} ${pct(c.optimumBenefit).padStart(10)}`,
      );
    }
    lines.push('', 'optimal: no value of 0..15 measured fewer cycles than the prediction; within 0.5%: the prediction costs at most 0.5% more than the best; a point on a platform with timer interrupts is the median of three seeds.');
    lines.push('', 'checks (issue 21 acceptance):');
    lines.push(...checkLines(s.checks));
    return `${lines.join('\n')}\n`;
  },
  figure(_rows, summary) {
    const s = summary as unknown as ReturnType<typeof scoreExtra>;
    const pts = s.configs.filter((c) => c.measuredBenefit !== null);
    const lo = Math.min(0, ...pts.map((c) => Math.min(c.predictedBenefit, c.measuredBenefit as number))) * 100;
    const hi = Math.max(1, ...pts.map((c) => Math.max(c.predictedBenefit, c.measuredBenefit as number))) * 100 * 1.05;
    const ticks = [-20, -10, -5, 0, 2, 5, 10, 20, 50].filter((t) => t >= lo && t <= hi);
    const plot = new Plot({ lo, hi, log: false, label: 'predicted benefit (%)', ticks }, { lo, hi, log: false, label: 'measured benefit at the predicted values (%)', ticks }).frame();
    plot.add(`<line x1="${f2(plot.px(lo))}" y1="${f2(plot.py(lo))}" x2="${f2(plot.px(hi))}" y2="${f2(plot.py(hi))}" stroke="#bbb" stroke-dasharray="4 3"/>`);
    const names = [...new Set(s.configs.map((c) => c.platform))];
    for (const c of pts) {
      const color = COLORS[names.indexOf(c.platform) % COLORS.length];
      plot.add(`<circle cx="${f2(plot.px(c.predictedBenefit * 100))}" cy="${f2(plot.py((c.measuredBenefit as number) * 100))}" r="${c.thesis ? 7 : 4}" fill="${color}"${c.thesis ? ' stroke="black" stroke-width="1.5"' : ''}><title>${c.platform} ${c.width} x ${c.height}: rows ${c.rows.predicted}, cols ${c.cols.predicted}</title></circle>`);
    }
    const keys = legend(620, 60, names.map((n, k) => ({ label: n, color: COLORS[k % COLORS.length], shape: 'circle' as const })));
    return svgDocument(800, 460, 'Extra rows and columns: predicted against measured benefit (thesis Table 5-1; outlined: its configurations)', [...plot.parts, ...keys]);
  },
};
