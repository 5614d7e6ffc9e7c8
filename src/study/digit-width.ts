/**
 * `sim study digit-width` (thesis 5.3.2, Fig. 5-3): radix sort's digit width chosen by
 * g(i) over the viable pass counts (eq. 44; the sort module's radix variant) against
 * the measured best over 1-16 bits (capped at the key width: a wider digit only adds
 * buckets). 40 trials (--trials) per machine size, spread round-robin over the
 * platforms, each with a key width uniform in 8..32 bits and keys per node
 * log-uniform in [10, max-keys] (default 20000), from the stream
 * `study/digit-width/n<nodes>`; every width runs once (seed 1; on the CM-5 the median
 * of seeds 1-3, study.ts seedsOf). A choice is optimal
 * when no width measured fewer cycles, "within 0.5%" when it costs at most 0.5% more
 * (counted apart, issue 21). The figure plots the optimal width against keys per node
 * (the thesis's 4 -> 7 -> 10 -> 14 bits as keys grow). The summary adds the in-sample
 * ceiling (digit-ceiling.ts): how far any calibration of the model's terms could go.
 */
import { RandomStream } from '../kernel/random-stream.ts';
import { digitCeiling } from './digit-ceiling.ts';
import { DIGIT_RANGE, RADIX, radixColumns } from '../library/sort-module.ts';
import { evaluate } from '../library/model-set.ts';
import { logUniform } from './stencil-grids.ts';
import { checkLines, holdsOver, type Check } from './checks.ts';
import { groupBy, pct } from './stats.ts';
import { medianCycles, seedsOf, unmeasured, type Row, type Study, type StudyOptions, type StudyRun, type Summary } from './study.ts';
import { COLORS, f2, legend, Plot, powersOfTen, svgDocument } from '../library/svg.ts';

const MIN_KEYS = 10;
const NEAR = 0.005;

interface Trial {
  platform: string;
  spec: string;
  nodes: number;
  trial: number;
  keyBits: number;
  keys: number;
  /** The platform's combineWords (the model's combine term). */
  combineWords: number;
  chosen: number;
  /** Model cycles by digit width. */
  predicted: Map<number, number>;
  /** The seeds each width runs with (seedsOf). */
  seeds: number[];
}

const widths = (keyBits: number) => Array.from({ length: Math.min(16, keyBits) }, (_, k) => k + 1);
/** A width's runs, one per seed. */
const runs = (t: Trial, digitBits: number): StudyRun[] => t.seeds.map((seed) => ({ platform: t.spec, nodes: t.nodes, app: 'apps/radix-sort', params: { keys: t.keys, keyBits: t.keyBits, digitBits }, seed }));

const cache = new WeakMap<StudyOptions, Trial[]>();
function trialsOf(options: StudyOptions): Trial[] {
  let out = cache.get(options);
  if (out !== undefined) return out;
  out = [];
  for (const nodes of options.nodes) {
    const random = new RandomStream(options.seed, `study/digit-width/n${nodes}`);
    for (let trial = 0; trial < (options.trials ?? 40); trial++) {
      const p = options.platforms[trial % options.platforms.length];
      const keyBits = 8 + random.int(25);
      const keys = logUniform(random, MIN_KEYS, options.maxKeys);
      const ctx = p.context(nodes);
      const chosen = Number(RADIX.tune!({ keys, keyBits }, ctx).params.digitBits);
      const model = ctx.models.get(RADIX.model, 'the digit-width study');
      const predicted = new Map(widths(keyBits).map((b) => [b, evaluate(model, radixColumns(keys, b, keyBits, nodes, ctx.combineWords))]));
      out.push({ platform: p.name, spec: p.spec, nodes, trial, keyBits, keys, combineWords: ctx.combineWords, chosen, predicted, seeds: seedsOf(p) });
    }
  }
  cache.set(options, out);
  return out;
}

interface TrialScore {
  platform: string;
  nodes: number;
  keyBits: number;
  keys: number;
  chosen: number;
  best: number | null;
  loss: number | null;
  verdict: 'optimal' | 'within 0.5%' | 'wrong' | 'failed';
}

export function scoreDigits(rows: readonly Row[]): { trials: TrialScore[]; byPlatform: { platform: string; trials: number; optimal: number; near: number; wrong: number; failed: number }[]; ceiling: ReturnType<typeof digitCeiling>; checks: Check[] } {
  const trials = [...groupBy(rows, (r) => `${r.nodes}|${r.trial}`).values()].map((g): TrialScore => {
    const r0 = g[0];
    const base = { platform: r0.platform as string, nodes: r0.nodes as number, keyBits: r0.keyBits as number, keys: r0.keys as number, chosen: r0.chosenBits as number };
    if (g.some((r) => r.measured === null)) return { ...base, best: null, loss: null, verdict: 'failed' };
    const best = g.reduce((a, b) => ((b.measured as number) < (a.measured as number) ? b : a));
    const at = g.find((r) => r.digitBits === r0.chosenBits)!;
    const loss = (at.measured as number) / (best.measured as number) - 1;
    return { ...base, best: best.digitBits as number, loss, verdict: loss <= 0 ? 'optimal' : loss <= NEAR ? 'within 0.5%' : 'wrong' };
  });
  const byPlatform = [...groupBy(trials, (t) => t.platform).values()].map((g) => ({
    platform: g[0].platform,
    trials: g.length,
    optimal: g.filter((t) => t.verdict === 'optimal').length,
    near: g.filter((t) => t.verdict === 'within 0.5%').length,
    wrong: g.filter((t) => t.verdict === 'wrong').length,
    failed: g.filter((t) => t.verdict === 'failed').length,
  }));
  const n = (v: TrialScore['verdict']) => trials.filter((t) => t.verdict === v).length;
  const checks: Check[] = [{ check: "g(i)'s choice optimal, or within 0.5% (counted apart)", target: `${trials.length} of ${trials.length}`, value: `${n('optimal')} optimal + ${n('within 0.5%')} within 0.5% of ${trials.length}${n('failed') > 0 ? ` (${n('failed')} failed)` : ''}`, pass: holdsOver(trials.length, n('wrong') === 0 && n('failed') === 0) }];
  return { trials, byPlatform, ceiling: digitCeiling(rows), checks };
}

export const DIGIT_COLUMNS = ['platform', 'nodes', 'combineWords', 'trial', 'keyBits', 'keys', 'digitBits', 'measured', 'predicted', 'chosenBits'] as const;

export const DIGIT_WIDTH: Study = {
  name: 'digit-width',
  reproduces: 'Fig. 5-3, 5.3.2',
  usesModel: (name) => name === 'RadixSort',
  about: '40 trials by default (--trials) spread over the platforms, key widths 8..32 bits and keys per node in [10, max-keys] (default 20000), every width run once (on the CM-5, whose nodes take timer interrupts, the median of three seeds, thesis 3.4.1, as its models were calibrated): the digit width g(i) picks (eq. 44) against the measured best over 1..16 bits, and the in-sample ceiling (the RadixSort model\'s terms fitted to these runs, then choosing). Figure: the optimal width against keys per node.',
  defaults: { takes: ['trials', 'max-keys'], trials: 40, minTrials: 1, maxGrid: null, maxKeys: 20000, nodes: [64], inRounds: false, mostRunsPerTrial: (p) => widths(32).length * seedsOf(p).length, trialsOverPlatforms: true },
  columns: DIGIT_COLUMNS,
  next: (options, measured) => unmeasured(trialsOf(options).flatMap((t) => widths(t.keyBits).flatMap((b) => runs(t, b))), measured),
  rows: (options, measured) =>
    trialsOf(options).flatMap((t) => widths(t.keyBits).map((b) => ({ platform: t.platform, nodes: t.nodes, combineWords: t.combineWords, trial: t.trial, keyBits: t.keyBits, keys: t.keys, digitBits: b, measured: medianCycles(measured, runs(t, b)), predicted: t.predicted.get(b)!, chosenBits: t.chosen }))),
  summarize: (rows) => ({ study: 'digit-width', ...scoreDigits(rows) }) as unknown as Summary,
  text(summary) {
    const s = summary as unknown as ReturnType<typeof scoreDigits>;
    const lines = ['digit-width: thesis 5.3.2 and Fig. 5-3 (thesis: "correct in all trials, in this case 40 trials")', ''];
    lines.push(`${'platform'.padEnd(9)} ${'trials'.padStart(6)} ${'optimal'.padStart(7)} ${'within 0.5%'.padStart(11)} ${'wrong'.padStart(5)} ${'failed'.padStart(6)}`);
    for (const p of s.byPlatform) lines.push(`${p.platform.padEnd(9)} ${String(p.trials).padStart(6)} ${String(p.optimal).padStart(7)} ${String(p.near).padStart(11)} ${String(p.wrong).padStart(5)} ${String(p.failed).padStart(6)}`);
    lines.push('', `in sample: the RadixSort model's terms (4.5.5, and the combines' messages) fitted to each platform's runs here (digits ${DIGIT_RANGE.lo}-${DIGIT_RANGE.hi}), then asked for each trial's best viable width:`);
    for (const key of new Set(s.trials.map((t) => `${t.platform} ${t.nodes}`))) {
      const c = s.ceiling.find((x) => `${x.platform} ${x.nodes}` === key);
      lines.push(`  ${key} nodes: ${c === undefined ? 'nothing to fit: every trial has a failed run' : `fit MRE ${c.mrePercent.toFixed(2)}%, optimal ${c.optimal} + ${c.near} within 0.5% of ${c.trials}`}`);
    }
    lines.push('', 'trials: platform, nodes, key bits, keys per node: g(i)\'s width, the measured best, the choice\'s cost over the best');
    for (const t of s.trials) lines.push(`  ${t.platform} ${t.nodes} ${String(t.keyBits).padStart(2)}-bit ${String(t.keys).padStart(6)} keys: chose ${String(t.chosen).padStart(2)}, best ${String(t.best ?? '-').padStart(2)}, ${pct(t.loss)} (${t.verdict})`);
    lines.push('', 'checks (issue 21 acceptance):');
    lines.push(...checkLines(s.checks));
    return `${lines.join('\n')}\n`;
  },
  figure(_rows, summary, options) {
    const s = summary as unknown as ReturnType<typeof scoreDigits>;
    const plot = new Plot({ lo: MIN_KEYS, hi: options.maxKeys, log: true, label: 'keys per node (log)', ticks: powersOfTen(MIN_KEYS, options.maxKeys) }, { lo: 0, hi: 17, log: false, label: 'digit width (bits)', ticks: [1, 4, 7, 10, 14, 16] }).frame();
    const names = [...new Set(s.trials.map((t) => t.platform))];
    for (const t of s.trials) {
      const color = COLORS[names.indexOf(t.platform) % COLORS.length];
      if (t.best !== null) plot.add(`<circle cx="${f2(plot.px(t.keys))}" cy="${f2(plot.py(t.best))}" r="4.5" fill="${color}"><title>${t.platform} ${t.keyBits}-bit keys, ${t.keys} keys: best ${t.best}, chose ${t.chosen}</title></circle>`);
      plot.add(`<circle cx="${f2(plot.px(t.keys))}" cy="${f2(plot.py(t.chosen))}" r="7" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    }
    const keys = legend(620, 60, [...names.map((n, k) => ({ label: `${n}: measured best`, color: COLORS[k % COLORS.length], shape: 'circle' as const })), { label: "ring: g(i)'s choice", color: '#999', shape: 'circle' as const }]);
    return svgDocument(820, 460, 'Radix sort digit width: measured optimum and g(i)\'s choice against keys per node (thesis Fig. 5-3)', [...plot.parts, ...keys]);
  },
};
