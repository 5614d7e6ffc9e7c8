/**
 * Thesis chapter 7 on a 64-node CM-5 with the packet network (issue 4): transpose with
 * and without barriers (Fig. 7-6, and 7.3.2's barrier-free asymptote), bandwidth
 * matching (Fig. 7-8, again on the CM-5 without time slices, and what fills the
 * network in its runs: fig78-queues.ts) and packet
 * interleaving by asynchronous block transfers (Fig. 7-9). The runs are the sweep
 * bench/sweeps/chapter7.ts, run by `sim sweep --workers 2`; every run must verify.
 * Prints MB/s per node and the ratios the thesis reports, with the targets from the
 * issue beside them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultLine } from '../src/sweep/result-line.ts';
import { cm5Variant, printFig78Queues } from './fig78-queues.ts';
import { fmt, fmt2, printRows } from './harness.ts';
import { sdCut, spread, type Spread } from './spread.ts';
import { metric, pick, runSweep } from './sweep-results.ts';
import { NONE_SEEDS, params78, PATTERNS_79, SEEDS_78, SEEDS_79, SHIFTS_732, SIZES, THESIS_732, TOTAL_BYTES, VARIANTS_78 } from './sweeps/chapter7.ts';

const WORKERS = 2;

const show = (s: Spread) => `${fmt2.format(s.mean)} MB/s (sd ${s.sd.toFixed(3)})`;

export async function chapter7Bench(): Promise<void> {
  const lines = runSweep(join(import.meta.dirname, 'sweeps/chapter7.ts'), WORKERS);
  const mbps = (params: Record<string, string | number | boolean>, seed: number) => metric(lines, { seed, params }, 'mbPerSecPerNode');

  // Fig. 7-6: Strata's transpose uses bandwidth matching and polls once (7.3.3: "optimum
  // performance requires both bandwidth matching and limited polling"); poll-until-empty
  // is printed beside it. Optimized barriers (eq. 52) equal a barrier per shift from
  // 512-byte blocks up.
  printRows(
    'Thesis Fig. 7-6: transposes moving 512 KB per node (32 shifts of 16 KB, 64 of 8 KB, ... 512 of 1 KB), 64-node CM-5, MB/s per node',
    SIZES.flatMap((b) => {
      const t = { pattern: 'transpose', blockBytes: b, rounds: TOTAL_BYTES / b };
      const none = spread(NONE_SEEDS.map((seed) => mbps({ ...t, barriers: 'none', poll: 'once' }, seed)));
      const each = mbps({ ...t, barriers: 'each', poll: 'once' }, 1);
      const noneEmpty = mbps({ ...t, barriers: 'none', poll: 'empty' }, 1);
      const eachEmpty = mbps({ ...t, barriers: 'each', poll: 'empty' }, 1);
      return [
        [`${b} B (${TOTAL_BYTES / b} shifts), no barriers (${NONE_SEEDS.length} seeds)`, show(none)],
        [`${b} B, barrier after each shift`, `${fmt2.format(each)} MB/s`],
        [`${b} B, barriers / none`, `${fmt2.format(each / none.mean)}x  (thesis 2-3x; target >= 2x)`],
        [`${b} B, poll until empty: none, each`, `${fmt2.format(noneEmpty)}, ${fmt2.format(eachEmpty)} MB/s = ${fmt2.format(eachEmpty / noneEmpty)}x`],
      ] as [string, string][];
    }),
  );

  // 7.3.2: the barrier-free transpose's asymptote, with each poll policy.
  printRows(
    `Thesis 7.3.2: 16 KB transposes without barriers, 64-node CM-5 (${NONE_SEEDS.length} seeds), MB/s per node`,
    SHIFTS_732.map((rounds, i) => {
      const of = (poll: string) => show(spread(NONE_SEEDS.map((seed) => mbps({ pattern: 'transpose', blockBytes: 16384, rounds, barriers: 'none', poll }, seed))));
      return [`${rounds} shifts (thesis ${THESIS_732[i]})`, `poll once ${of('once')}; until empty ${of('empty')}`] as [string, string];
    }),
  );

  // Fig. 7-8: bandwidth matching on 8 KB transposes of 32 shifts. In this model most of
  // the spread comes from the time slice (3.4.2) that falls into some runs and not
  // others, whose cost grows with the packets then in the network; the thesis explains
  // the drop in spread by self-synchronization (7.3.3).
  printRows(`Thesis Fig. 7-8: bandwidth matching, 8 KB transposes of 32 shifts, 64-node CM-5 (${SEEDS_78.length} seeds)`, [
    ...fig78(lines),
    // Each seed with the cycles its nodes lost to the operating system: about 1,000 per
    // timer interrupt, and a time slice's charge for every packet then in the network.
    [
      'barriers, delay 35, poll once, by seed',
      SEEDS_78.map((seed) => {
        const q = { seed, params: params78(VARIANTS_78[4].params) };
        const lost = pick(lines, q).summary?.interruptCycles.mean ?? NaN;
        return `${fmt2.format(metric(lines, q, 'mbPerSecPerNode'))} (${fmt.format(lost / 1000)}K)`;
      }).join(', ') + ' MB/s (interrupt and time-slice cycles per node)',
    ],
  ]);
  // The same runs on the CM-5 without time slices, as in dedicated mode (Appendix A 9.4:
  // a time slice has "zero chance if the machine is in dedicated mode"); its timer
  // interrupts stay. Not the thesis's figure: what of Fig. 7-8's spread and of the poll-once
  // mean the slices make.
  const dir = mkdtempSync(join(tmpdir(), 'bench-chapter7-'));
  try {
    printRows(`The same without time slices (the shipped CM-5 with "timeSlice": null)`, fig78(runSweep(dedicatedSweep(dir), WORKERS)));
    printFig78Queues(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Fig. 7-9: interleaving (asynchronous transfers, 8 queued at a time) vs one block at
  // a time, with the settings of Fig. 7-6's Strata curves (its synchronous transpose is
  // Fig. 7-6's curve without barriers, 7.4) and, beside them, polling until empty.
  const n = SEEDS_79.length;
  printRows(
    `Thesis Fig. 7-9: packet interleaving, 4 KB blocks, 64 rounds, no barriers, 64-node CM-5 (${n} seeds)`,
    PATTERNS_79.flatMap(({ label, pattern }, i) => {
      const of = (transfer: string, poll: string) => spread(SEEDS_79.map((seed) => mbps({ pattern, blockBytes: 4096, rounds: 64, transfer, poll }, seed)));
      const sync = of('sync', 'once');
      const async = of('async', 'once');
      const syncEmpty = of('sync', 'empty');
      const asyncEmpty = of('async', 'empty');
      const thesis = i === 0 ? '1.8x; target >= 1.5x' : '2.1x; target >= 1.9x';
      return [
        [`${label}, synchronous`, show(sync)],
        [`${label}, asynchronous`, show(async)],
        [`${label}, async / sync`, `${fmt2.format(async.mean / sync.mean)}x  (thesis ${thesis})`],
        [
          `${label}, poll until empty: sync, async`,
          `${fmt2.format(syncEmpty.mean)}, ${fmt2.format(asyncEmpty.mean)} MB/s = ${fmt2.format(asyncEmpty.mean / syncEmpty.mean)}x`,
        ],
      ] as [string, string][];
    }),
  );
}

/** Fig. 7-8's variants over `lines`, each its mean and spread over the seeds, and the gains the thesis reports. */
function fig78(lines: readonly ResultLine[]): [string, string][] {
  const mbps = (params: Record<string, string | number | boolean>, seed: number) => metric(lines, { seed, params }, 'mbPerSecPerNode');
  const runs78 = VARIANTS_78.map((v) => SEEDS_78.map((seed) => mbps(params78(v.params), seed)));
  const s78 = runs78.map((v) => spread(v));
  /** Variant `withDelay` against variant `without`: the gain in mean, and how many times smaller the spread is (90% interval). */
  const gain = (withDelay: number, without: number) => {
    const c = sdCut(runs78[without], runs78[withDelay]);
    return `${fmt2.format((s78[withDelay].mean / s78[without].mean - 1) * 100)}%, sd cut ${fmt2.format(c.cut)}x (90% interval ${fmt2.format(c.low)}-${fmt2.format(c.high)}x)`;
  };
  return [
    ...VARIANTS_78.map((v, i) => [v.label, show(s78[i])] as [string, string]),
    ['gain of the delay, no barriers', gain(1, 0)],
    // Fig. 7-8's curves separate the shifts with barriers; Strata's block transfer polls until empty (6.1.3).
    ['gain of the delay, barriers', `${gain(3, 2)}  (thesis +25%, sd cut 50x; target: cut >= 10x)`],
    // 7.3.3: the thesis's upper curve, "reaching the block-transfer upper bound" (5.33).
    ['gain of the delay, barriers, poll once', `${gain(4, 2)}  (thesis 25-35%, 5.33 MB/s; target: the fastest, >= 5.0 MB/s)`],
  ];
}

/** Writes the CM-5 without time slices and a sweep of Fig. 7-8's runs on it into `dir`; returns the sweep file. */
function dedicatedSweep(dir: string): string {
  const platform = cm5Variant(dir, 'cm5-dedicated', { timeSlice: null });
  const runs = VARIANTS_78.map((v) => ({
    app: 'apps/patterns',
    platform,
    nodes: 64,
    network: 'packet',
    params: params78(v.params),
    seeds: SEEDS_78,
  }));
  const sweep = join(dir, 'fig-7-8-dedicated.json');
  writeFileSync(sweep, JSON.stringify({ name: 'bench-chapter7-dedicated', runs }));
  return sweep;
}
