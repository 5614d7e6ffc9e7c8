/**
 * The runs of `npm run bench chapter7` as a sweep (thesis chapter 7 on a 64-node CM-5,
 * packet network): the Fig. 7-6 transposes, the Fig. 7-8 bandwidth-matching variants
 * and the Fig. 7-9 interleaving runs. bench/chapter7.ts runs it with `sim sweep` and
 * reports over the results; `npx sim sweep bench/sweeps/chapter7.ts --out r.jsonl`
 * runs the same sweep anywhere (`--shard`, `--queue`).
 */

/** Fig. 7-6 (thesis 7.3): every block size moves the same 512 KB per node (32 shifts of 16 KB ... 512 of 1 KB). */
export const SIZES = [1024, 2048, 4096, 8192, 16384];
export const TOTAL_BYTES = 32 * 16384;
/** Without barriers a run's fate turns on where the first hot spots start (7.3.1): six seeds give its mean. */
export const NONE_SEEDS = [1, 2, 3, 4, 5, 6];
/**
 * Fig. 7-8: twenty seeds per variant, since its claim is about the spread across runs:
 * with six, the ratio of two variants' deviations was known only to within a factor of
 * two or so either way (bench/spread.ts).
 */
export const SEEDS_78 = Array.from({ length: 20 }, (_, i) => i + 1);
export const VARIANTS_78: { label: string; params: Record<string, string | number | boolean> }[] = [
  { label: 'no barriers, no delay', params: { barriers: 'none', bwMatch: false } },
  { label: 'no barriers, delay 28', params: { barriers: 'none', bwMatch: true } },
  { label: 'barriers, no delay', params: { barriers: 'each', bwMatch: false } },
  { label: 'barriers, delay 28', params: { barriers: 'each', bwMatch: true } },
  // 7.3.3: "For the limited polling case, it was slightly beneficial to increase the
  // delay to 35 cycles to allow late processors to catch up more quickly."
  { label: 'barriers, delay 35, poll once', params: { barriers: 'each', bwMatch: true, poll: 'once', delay: 35 } },
];
/** A Fig. 7-8 variant's run parameters, poll's default written out (the results hold every parameter). */
export const params78 = (p: Record<string, string | number | boolean>) => ({ pattern: 'transpose', blockBytes: 8192, rounds: 32, poll: 'empty', ...p });
/**
 * 7.3.2: Strata's transpose of 16 KB blocks without barriers, 32 shifts (Fig. 7-6's
 * point) and 100, which the thesis ran to show the asymptote: 2.22 +- 0.122 and
 * 1.67 +- 0.040 MB/s. Both poll policies, six seeds each.
 */
export const SHIFTS_732 = [32, 100];
export const THESIS_732 = ['2.22', '1.67'];
/**
 * Fig. 7-9: interleaving (asynchronous transfers) against one block at a time, three
 * seeds. Its synchronous transpose is Fig. 7-6's curve without barriers (7.4: random
 * targets reach "the same asymptote as the 'No Barriers' curve, which is the transpose
 * pattern without barriers"), so it runs with Fig. 7-6's settings, Strata's bandwidth
 * matching and one poll per packet; poll-until-empty runs beside it.
 */
export const SEEDS_79 = [1, 2, 3];
export const POLLS_79 = ['once', 'empty'];
export const PATTERNS_79 = [
  { label: 'random targets', pattern: 'random' },
  { label: 'transpose', pattern: 'transpose' },
];

const base = { app: 'apps/patterns', platform: 'cm5', nodes: 64, network: 'packet' } as const;
const transpose = (b: number) => ({ pattern: 'transpose', blockBytes: b, rounds: TOTAL_BYTES / b });

export default {
  name: 'bench-chapter7',
  runs: [
    ...SIZES.flatMap((b) => [
      // Strata's transpose: bandwidth matching and one poll per packet (7.3.3).
      { ...base, params: { ...transpose(b), barriers: 'none', poll: 'once' }, seeds: NONE_SEEDS },
      { ...base, params: { ...transpose(b), barriers: 'each', poll: 'once' }, seeds: [1] },
      { ...base, params: { ...transpose(b), barriers: ['none', 'each'], poll: 'empty' }, seeds: [1] },
    ]),
    // 7.3.2's runs that Fig. 7-6's above do not already hold (its 32 shifts polling once, all seeds; polling until empty, seed 1).
    { ...base, params: { ...transpose(16384), barriers: 'none', poll: 'empty' }, seeds: NONE_SEEDS.slice(1) },
    { ...base, params: { pattern: 'transpose', blockBytes: 16384, rounds: 100, barriers: 'none', poll: ['once', 'empty'] }, seeds: NONE_SEEDS },
    ...VARIANTS_78.map((v) => ({ ...base, params: { pattern: 'transpose', blockBytes: 8192, rounds: 32, ...v.params }, seeds: SEEDS_78 })),
    ...PATTERNS_79.map((p) => ({ ...base, params: { pattern: p.pattern, blockBytes: 4096, rounds: 64, transfer: ['sync', 'async'], poll: POLLS_79 }, seeds: SEEDS_79 })),
  ],
};
