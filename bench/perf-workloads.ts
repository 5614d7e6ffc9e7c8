/**
 * The workloads of the perf bench (performance issue 3) as `sim` arguments, with
 * the targets: the minimum speed-up over the baseline and the memory cap.
 * Pure data: knows nothing of how the runs are made or printed.
 */

export interface Workload {
  /** W1..W5, or W5/64 for W5's small companion. */
  id: string;
  /** One line for the table's legend. */
  title: string;
  /** `sim` arguments (the bench appends --json). */
  simArgs: readonly string[];
  /** The minimum speed-up (baseline wall / this wall); null: none. */
  minSpeedup: number | null;
  /** The cap on peak resident memory in MB; null: none. */
  maxRssMB: number | null;
  /**
   * A tiny run of the same app on the same platform, made untimed in each checkout
   * before the measured runs: tsx caches its compiled modules keyed by file path, so
   * a fresh baseline worktree would otherwise pay for compiling in its first run only.
   */
  warmupArgs: readonly string[];
}

const WARM_PATTERNS = ['--platform', 'cm5', 'apps/patterns', '--nodes', '4', '--param', 'blockBytes=64', '--param', 'barriers=each', '--param', 'rounds=2'];

/**
 * W5, "a 4096-node CM-5 barrier, cyclic shift of 1 KB blocks, barrier", in
 * apps/patterns terms: `pattern=cshift shift=1` sends node i's block to i+1 mod P;
 * `blockBytes=1024` makes it a 1 KB block (one Strata block transfer); `rounds=1`
 * makes it one shift. The two barriers are the app's own: every patterns run opens
 * with `rt.barrier()` before its first round and closes with one after the last
 * block has arrived. `barriers=each` only adds barriers *between* rounds, so with
 * one round it adds none; it is given so the run stays "barrier, shift, barrier"
 * should the app's round structure change. Defaults kept: bwMatch=true, poll=empty,
 * transfer=sync.
 */
const W5_SHIFT = ['--param', 'pattern=cshift', '--param', 'blockBytes=1024', '--param', 'rounds=1', '--param', 'barriers=each', '--param', 'shift=1'];

/**
 * W5's companion for the "cost per event at 4096 nodes at most 2x the cost at
 * 64 nodes on the same cyclic-shift workload": the same 4096 blocks of 1 KB shifted by
 * one, as 64 rounds on 64 nodes (no barriers between them), so that both runs dispatch
 * about as many events (2.16 M against W5's 2.24 M) and neither is dominated by fixed
 * costs. A single 64-node round (34,526 events) was mostly start-up and cold code.
 */
const W5_SMALL_SHIFTS = ['--param', 'pattern=cshift', '--param', 'blockBytes=1024', '--param', 'rounds=64', '--param', 'barriers=none', '--param', 'shift=1'];

export const WORKLOADS: readonly Workload[] = [
  {
    id: 'W1',
    title: '64-node CM-5 transpose of 4 KB blocks, no barriers, poll once',
    simArgs: ['--platform', 'cm5', 'apps/patterns', '--nodes', '64', '--param', 'pattern=transpose', '--param', 'blockBytes=4096', '--param', 'barriers=none', '--param', 'poll=once'],
    minSpeedup: 3,
    maxRssMB: null,
    warmupArgs: WARM_PATTERNS,
  },
  {
    id: 'W2',
    title: "the README's first command: 64-node Alewife stencil (whole process)",
    simArgs: ['--platform', 'alewife', 'apps/stencil'],
    minSpeedup: 2,
    maxRssMB: null,
    warmupArgs: ['--platform', 'alewife', 'apps/stencil', '--nodes', '4', '--param', 'width=16', '--param', 'height=16', '--param', 'iters=2'],
  },
  {
    id: 'W3',
    title: '1024-node CM-5 cyclic shift by 1 of 4 KB blocks',
    simArgs: ['--platform', 'cm5', 'apps/patterns', '--nodes', '1024', '--param', 'pattern=cshift', '--param', 'blockBytes=4096', '--param', 'shift=1'],
    minSpeedup: 3,
    maxRssMB: null,
    warmupArgs: WARM_PATTERNS,
  },
  {
    id: 'W4',
    title: '64-node Paragon radix sort of 1000 keys per node',
    simArgs: ['--platform', 'paragon', 'apps/radix-sort', '--param', 'keys=1000'],
    minSpeedup: 2,
    maxRssMB: null,
    warmupArgs: ['--platform', 'paragon', 'apps/radix-sort', '--nodes', '4', '--param', 'keys=16'],
  },
  {
    id: 'W5',
    title: '4096-node CM-5: barrier, cyclic shift by 1 of 1 KB blocks, barrier',
    simArgs: ['--platform', 'cm5', 'apps/patterns', '--nodes', '4096', ...W5_SHIFT],
    minSpeedup: 3,
    maxRssMB: 200,
    warmupArgs: WARM_PATTERNS,
  },
  {
    id: 'W5/64',
    title: "W5's 4096 blocks at 64 nodes: 64 shifts back to back (cost per event at 4096 vs 64 nodes)",
    simArgs: ['--platform', 'cm5', 'apps/patterns', '--nodes', '64', ...W5_SMALL_SHIFTS],
    minSpeedup: null,
    maxRssMB: null,
    warmupArgs: WARM_PATTERNS,
  },
];

/** Ids `--only` accepts: W5/64 comes with W5. */
export const SELECTABLE_IDS: readonly string[] = ['W1', 'W2', 'W3', 'W4', 'W5'];

/** The cap on cost per event at 4096 nodes over the cost at 64 nodes. */
export const MAX_COST_PER_EVENT_RATIO = 2;
/** The issue's floor on W1's events/s over the PHOLD kernel rate of the same run. */
export const MIN_W1_OVER_PHOLD = 0.6;
/** The cap on `sim --version` time over a bare `node -e 0`. */
export const MAX_VERSION_OVER_NODE = 3;

/** The workloads for `--only` ids (all when empty), in table order; W5 brings W5/64. */
export function selectWorkloads(only: readonly string[]): Workload[] {
  if (only.length === 0) return [...WORKLOADS];
  return WORKLOADS.filter((w) => only.includes(w.id) || (w.id === 'W5/64' && only.includes('W5')));
}
