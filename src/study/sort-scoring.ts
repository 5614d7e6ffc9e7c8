/**
 * Scoring the sort-selection study from its raw rows alone (thesis Table 4-4, Fig.
 * 4-14): the predicted intervals, the measured crossovers (the bisection replayed on
 * the probe rows), each row's error ratio and the mean accuracy, each crossover's two
 * models against their probes (which one put it where it is), and the penalty at
 * the wrong-side points with its 95% t-interval, beside the thesis's table.
 */
import { searchCrossover } from './crossover-search.ts';
import { checkLines, holdsOver, type Check } from './checks.ts';
import { median } from '../calibrate/app-tasks.ts';
import { groupBy, mean, meanInterval, pct } from './stats.ts';
import type { Row } from './study.ts';
import { COLORS, esc, f2, legend, powersOfTen, svgDocument } from '../library/svg.ts';
import { TABLE_4_4, TABLE_4_4_ACCURACY } from './thesis.ts';

interface ScoredCrossover {
  left: string;
  right: string;
  predicted: number;
  /** Last key with the left algorithm measured faster; null if a probe failed. */
  actual: number | null;
  error: number | null;
  /** Each side's model over its probes: mean of predicted / measured - 1 (null if none measured). */
  modelError: { left: number | null; right: number | null };
}

interface ScoredTable {
  platform: string;
  nodes: number;
  keyBits: number;
  segments: { variant: string; from: number; to: number }[];
  crossovers: ScoredCrossover[];
  /**
   * Sum of |actual - predicted| / maxKeys; null if a probe failed, or if the row has no
   * predicted crossover in [1, maxKeys]: the study measures near predicted crossovers, so
   * such a row is not measured (it read "0/242", perfect, where the measured crossover was 241).
   */
  errorRatio: number | null;
}

interface PenaltyPoint {
  platform: string;
  keyBits: number;
  keys: number;
  pick: string;
  other: string;
  mean: number | null;
  halfWidth: number | null;
}

/**
 * A probe's measurement over its seeds' runs: sample sort's the mean (its time varies
 * with the random splitters), radix sort's the median (one seed, or on the CM-5 three,
 * whose timer interrupts' phases come from the seed: the thesis's robust timing, 3.4.1,
 * and the one its models were calibrated with).
 */
export function probeCycles(variant: string, cycles: readonly number[]): number {
  return variant === 'sample' ? (mean(cycles) as number) : median(cycles);
}

/** Each probe's measurement by variant and keys (probeCycles; null if a run failed). */
function means(rows: readonly Row[]): Map<string, number | null> {
  const m = new Map<string, number | null>();
  for (const [k, g] of groupBy(rows, (r) => `${r.variant}|${r.keys}`)) m.set(k, g.some((r) => r.measured === null) ? null : probeCycles(g[0].variant as string, g.map((r) => r.measured as number)));
  return m;
}

export function scoreSort(rows: readonly Row[], maxKeys: number) {
  const tables: ScoredTable[] = [...groupBy(rows, (r) => `${r.platform}|${r.nodes}|${r.keyBits}`).values()].map((g) => {
    const segments = g.filter((r) => r.kind === 'interval').map((r) => ({ variant: r.variant as string, from: r.keys as number, to: r.predictedLast as number }));
    const probes = g.filter((r) => r.kind === 'probe');
    const crossovers = segments.slice(1).map((s, i): ScoredCrossover => {
      const left = segments[i].variant;
      const predicted = segments[i].to;
      const m = means(probes.filter((r) => r.crossover === i));
      const state = searchCrossover(predicted, maxKeys, (k) => {
        const l = m.get(`${left}|${k}`);
        const r = m.get(`${s.variant}|${k}`);
        if (l === undefined || r === undefined) return undefined;
        if (l === null || r === null) return null;
        return l < r;
      });
      const actual = state.status === 'done' ? state.actual : null;
      const errorOf = (variant: string) => mean(probes.filter((r) => r.crossover === i && r.variant === variant && typeof r.measured === 'number' && typeof r.predicted === 'number').map((r) => (r.predicted as number) / (r.measured as number) - 1));
      return { left, right: s.variant, predicted, actual, error: actual === null ? null : Math.abs(actual - predicted), modelError: { left: errorOf(left), right: errorOf(s.variant) } };
    });
    const errors = crossovers.map((c) => c.error);
    return {
      platform: g[0].platform as string,
      nodes: g[0].nodes as number,
      keyBits: g[0].keyBits as number,
      segments,
      crossovers,
      errorRatio: crossovers.length === 0 || errors.some((e) => e === null) ? null : errors.reduce((a: number, b) => a + (b as number), 0) / maxKeys,
    };
  });
  // Rows with a predicted crossover: those the study measured.
  const measured = tables.filter((t) => t.crossovers.length > 0);
  const unmeasured = tables.length - measured.length;
  const ratios = measured.flatMap((t) => (t.errorRatio === null ? [] : [t.errorRatio]));
  const m = mean(ratios);
  const meanAccuracy = m === null ? null : 1 - m;
  const points: PenaltyPoint[] = [...groupBy(rows.filter((r) => r.kind === 'penalty'), (r) => `${r.platform}|${r.nodes}|${r.keyBits}|${r.crossover}|${r.keys}`).values()].map((g) => {
    const r0 = g[0];
    const pick = (r0.keys as number) <= (r0.predictedLast as number) ? (r0.left as string) : (r0.right as string);
    const other = pick === r0.left ? (r0.right as string) : (r0.left as string);
    const bySeed = groupBy(g, (r) => String(r.seed));
    const ratios = [...bySeed.values()].flatMap((s) => {
      const a = s.find((r) => r.variant === pick)?.measured;
      const b = s.find((r) => r.variant === other)?.measured;
      return typeof a === 'number' && typeof b === 'number' ? [a / b - 1] : [];
    });
    return { platform: r0.platform as string, keyBits: r0.keyBits as number, keys: r0.keys as number, pick, other, ...meanInterval(ratios) };
  });
  const penalties = points.flatMap((p) => (p.mean === null ? [] : [p.mean]));
  const penalty = { points: points.length, mean: mean(penalties), worstUpper: points.reduce<number | null>((w, p) => (p.mean === null ? w : Math.max(w ?? -Infinity, p.mean + (p.halfWidth ?? 0))), null), perPoint: points };
  const checks: Check[] = [
    { check: 'mean accuracy', target: '>= 99.5%', value: pct(meanAccuracy), pass: holdsOver(measured.length, meanAccuracy !== null && meanAccuracy >= 0.995) },
    {
      check: 'every row\'s error ratio at most 100/10000',
      target: `${measured.length} of ${measured.length}`,
      value: `${measured.filter((t) => t.errorRatio !== null && t.errorRatio <= 0.01).length} of ${measured.length}${unmeasured === 0 ? '' : ` (${unmeasured} more with no predicted crossover, not measured)`}`,
      pass: holdsOver(measured.length, measured.every((t) => t.errorRatio !== null && t.errorRatio <= 0.01)),
    },
    { check: `mean penalty at the ${points.length} wrong-side points`, target: '< 1%', value: pct(penalty.mean), pass: holdsOver(measured.length, penalty.mean === null || penalty.mean < 0.01) },
  ];
  return { study: 'sort-selection', maxKeys, tables, meanAccuracy, penalty, checks };
}

const interval = (s: { from: number; to: number }) => `${s.from}-${s.to}`;
const signed = (x: number | null) => (x === null ? '-' : `${x >= 0 ? '+' : ''}${pct(x)}`);

export function sortText(s: ReturnType<typeof scoreSort>): string {
  const lines = ['sort-selection: thesis Table 4-4 (predicted intervals, measured crossovers; the thesis\'s row in [brackets])', ''];
  for (const t of s.tables) {
    const th = TABLE_4_4[t.platform]?.find((r) => r.keyBits === t.keyBits);
    lines.push(`${t.platform} ${t.nodes} nodes, ${t.keyBits}-bit keys: predicted ${t.segments.map((x) => `${x.variant} ${interval(x)}`).join(', ')}`);
    for (const c of t.crossovers) {
      const tc = th?.crossovers.find((x) => x.from === c.left && x.to === c.right);
      lines.push(`  ${c.left} -> ${c.right}: predicted last ${c.predicted}, measured ${c.actual ?? 'failed'}, off by ${c.error ?? '-'}${tc === undefined ? '' : `  [${tc.predicted} / ${tc.actual}]`}`);
      lines.push(`    models at the probes (predicted / measured - 1): ${c.left} ${signed(c.modelError.left)}, ${c.right} ${signed(c.modelError.right)}`);
    }
    const ratio = t.crossovers.length === 0 ? `not measured (no predicted crossover in 1-${s.maxKeys})` : t.errorRatio === null ? '-' : `${Math.round(t.errorRatio * s.maxKeys)}/${s.maxKeys}`;
    lines.push(`  error ratio ${ratio}${th === undefined ? '' : `  [${th.errors}/10000]`}`);
  }
  lines.push('', `mean accuracy ${pct(s.meanAccuracy)}  [${TABLE_4_4_ACCURACY}%]`);
  const p = s.penalty;
  lines.push(`penalty at ${p.points} wrong-side points (the model's pick against the other, seeds 1-12): mean ${pct(p.mean)}, worst upper 95% bound ${pct(p.worstUpper)}  [< 0.5% at 32 points, 12 samples each]`);
  for (const x of p.perPoint) lines.push(`  ${x.platform} ${x.keyBits}-bit, ${x.keys} keys: ${x.pick} over ${x.other}: ${pct(x.mean)} +- ${pct(x.halfWidth)}`);
  lines.push('', 'checks (issue 21 acceptance):');
  lines.push(...checkLines(s.checks));
  return `${lines.join('\n')}\n`;
}

/** Fig. 4-14: per platform and key width, the predicted intervals as bands over log keys, measured crossovers as black bars. */
export function sortFigure(s: ReturnType<typeof scoreSort>): string {
  const names = ['radix4', 'radix10', 'radix14', 'sample'];
  const left = 170;
  const width = 560;
  const band = 18;
  const x = (k: number) => left + (Math.log(k) / Math.log(s.maxKeys)) * width;
  const parts: string[] = [];
  s.tables.forEach((t, i) => {
    const y = 50 + i * (band + 10);
    parts.push(`<text x="${left - 8}" y="${y + 13}" text-anchor="end">${esc(`${t.platform} ${t.keyBits}-bit`)}</text>`);
    for (const seg of t.segments) parts.push(`<rect x="${f2(x(Math.max(1, seg.from - 0.5)))}" y="${y}" width="${f2(x(seg.to + 0.5) - x(Math.max(1, seg.from - 0.5)))}" height="${band}" fill="${COLORS[names.indexOf(seg.variant) % COLORS.length]}" fill-opacity="0.6"><title>${seg.variant} predicted ${interval(seg)}</title></rect>`);
    for (const c of t.crossovers) if (c.actual !== null && c.actual >= 1) parts.push(`<rect x="${f2(x(c.actual + 0.5) - 1.5)}" y="${y - 2}" width="3" height="${band + 4}" fill="black"><title>measured ${c.left} -> ${c.right} after ${c.actual} (predicted ${c.predicted})</title></rect>`);
  });
  const bottom = 50 + s.tables.length * (band + 10);
  for (const k of powersOfTen(1, s.maxKeys)) parts.push(`<text x="${f2(x(k))}" y="${bottom + 14}" text-anchor="middle">${k}</text>`);
  parts.push(`<text x="${left + width / 2}" y="${bottom + 32}" text-anchor="middle">keys per node (log)</text>`);
  parts.push(...legend(left, bottom + 46, [...names.map((n, k) => ({ label: `${n} predicted best`, color: COLORS[k] })), { label: 'measured crossover', color: 'black' }]));
  return svgDocument(left + width + 40, bottom + 46 + 5 * 20 + 20, 'Sort selection: predicted intervals and measured crossovers (thesis Table 4-4, Fig. 4-14)', parts);
}
