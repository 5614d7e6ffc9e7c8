/**
 * `npm run bench perf -- [--baseline <git-ref> [--same-apps]] [--runs N] [--only W1,W4]`: the
 * yardstick of performance issue 3. Runs the workloads as whole `sim` processes on
 * this checkout and, with a baseline, on that ref in a temporary worktree, pair by
 * pair (W5 and W5/64 also twice in one process, this checkout only), then prints the
 * table and the issue's checks. Owns the order of the runs
 * and the baseline's lifetime (removed at the end, on failure and on Ctrl-C).
 */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { printRows } from './harness.ts';
import { parsePerfArgs, PerfUsageError, type PerfOptions } from './perf-args.ts';
import { BaselineCheckout, describeCheckout, resolveCommit } from './perf-baseline.ts';
import { buildIfAble, killChildren, pageFaultMicros, RSS_SOURCE, runPholdKernel, runSim, runSimKinds, runSimPhases, runSimTwice, timeBareNode, timeSimVersion, type SimRun } from './perf-process.ts';
import { printChecks, printWorkloadTable, type PerfMeasurements } from './perf-report.ts';
import { SELECTABLE_IDS, selectWorkloads, type Workload } from './perf-workloads.ts';

/** `sim --version` / `node -e 0` samples per repetition (each side, alternating). */
const VERSION_SAMPLES_PER_RUN = 3;
const REPO_DIR = join(import.meta.dirname, '..');

const progress = (line: string): void => void process.stderr.write(`${line}\n`);

/** Runs `a` and `b` one after the other, `a` first when `isAFirst`; returns [a, b]. */
async function pair<T>(isAFirst: boolean, a: () => Promise<T>, b: () => Promise<T>): Promise<[T, T]> {
  if (isAFirst) {
    const x = await a();
    return [x, await b()];
  }
  const y = await b();
  return [await a(), y];
}

/**
 * Makes each checkout's build current where it has one, then one untimed run of each
 * distinct warm-up command in every checkout, so that both start measuring with
 * their caches filled (see Workload.warmupArgs).
 */
async function warmUp(workloads: readonly Workload[], base: BaselineCheckout | null): Promise<void> {
  const commands = new Map(workloads.map((w) => [w.warmupArgs.join(' '), w.warmupArgs]));
  const checkouts = base === null ? [REPO_DIR] : [base.dir, REPO_DIR];
  for (const dir of checkouts) {
    if (await buildIfAble(dir)) progress(`build: made the JavaScript build of ${dir === REPO_DIR ? 'this checkout' : 'the baseline'} current`);
    for (const args of commands.values()) await runSim(dir, args);
  }
  progress(`warm-up: ${commands.size} tiny run${commands.size === 1 ? '' : 's'} in each checkout (untimed)`);
}

/**
 * Measures everything `options` asks for. Within a repetition the workloads run in
 * table order, each as a baseline/this pair whose order alternates from pair to pair
 * and from repetition to repetition, so neither side always runs second. The PHOLD
 * kernel pair runs right after W1's pair (or at the end without W1).
 */
async function measure(options: PerfOptions, base: BaselineCheckout | null): Promise<PerfMeasurements> {
  const workloads = selectWorkloads(options.only).map((workload) => ({ workload, mine: [] as SimRun[], base: [] as SimRun[] }));
  const m: PerfMeasurements = { workloads, pholdMine: [], pholdBase: [], w1OverPhold: [], w1ProcessOverPhold: [], versionMs: { node: [], mine: [], base: [] }, twiceMs: {}, phases: {}, kinds: {}, faultMicros: null };
  const hasW1 = workloads.some((w) => w.workload.id === 'W1');
  if (workloads.some((w) => WARM_DIAGNOSTIC_IDS.includes(w.workload.id))) m.faultMicros = pageFaultMicros();
  await warmUp(workloads.map((w) => w.workload), base);
  for (let rep = 0; rep < options.runs; rep++) {
    const tag = `[run ${rep + 1}/${options.runs}]`;
    for (let k = 0; k < VERSION_SAMPLES_PER_RUN; k++) {
      m.versionMs.node.push(await timeBareNode(REPO_DIR));
      const [mine, baseMs] = await pair((rep + k) % 2 === 1, () => timeSimVersion(REPO_DIR), () => (base === null ? Promise.resolve(Number.NaN) : timeSimVersion(base.dir)));
      m.versionMs.mine.push(mine);
      if (base !== null) m.versionMs.base.push(baseMs);
    }
    progress(`${tag} sim --version ${m.versionMs.mine.at(-1)?.toFixed(0)} ms, node -e 0 ${m.versionMs.node.at(-1)?.toFixed(0)} ms`);
    let order = rep;
    for (const w of workloads) {
      const isBaseFirst = order++ % 2 === 0;
      if (base === null) {
        w.mine.push(await runSim(REPO_DIR, w.workload.simArgs));
      } else {
        const [b, mine] = await pair(isBaseFirst, () => runSim(base.dir, w.workload.simArgs), () => runSim(REPO_DIR, w.workload.simArgs));
        w.base.push(b);
        w.mine.push(mine);
      }
      const mine = w.mine.at(-1)!;
      const b = w.base.at(-1);
      progress(`${tag} ${w.workload.id}: ${(mine.wallMs / 1000).toFixed(2)} s, ${mine.events} events` + (b === undefined ? '' : `; baseline ${(b.wallMs / 1000).toFixed(2)} s`));
      if (w.workload.id === 'W1') await measurePhold(m, base, rep, mine, tag);
      if (WARM_DIAGNOSTIC_IDS.includes(w.workload.id)) await measureCostDiagnostics(m, w.workload, tag);
    }
    if (!hasW1) await measurePhold(m, base, rep, null, tag);
  }
  return m;
}

/** The workloads whose runs are also made twice in one process and split (the cost-per-event diagnostics). */
const WARM_DIAGNOSTIC_IDS = ['W5', 'W5/64'];

/** This checkout's in-run times of `w` made twice in one process (bench/warm-child.mjs), split after its first events and timed by event kind (bench/phase-child.mjs). */
async function measureCostDiagnostics(m: PerfMeasurements, w: Workload, tag: string): Promise<void> {
  const times = await runSimTwice(REPO_DIR, w.simArgs);
  (m.twiceMs[w.id] ??= []).push(times);
  progress(`${tag} ${w.id} twice in one process: ${(times[0] / 1000).toFixed(2)} s, then ${(times[1] / 1000).toFixed(2)} s`);
  const split = await runSimPhases(REPO_DIR, w.simArgs);
  (m.phases[w.id] ??= []).push(split);
  progress(`${tag} ${w.id} split: build ${split.buildMs.toFixed(0)} ms, first ${split.firstEvents} events ${split.firstMs.toFixed(0)} ms, the other ${split.restEvents} ${split.restMs.toFixed(0)} ms`);
  const kinds = await runSimKinds(REPO_DIR, w.simArgs);
  (m.kinds[w.id] ??= []).push(kinds);
  progress(`${tag} ${w.id} by event kind: ${kinds.map((k) => `${k.kind} ${k.events} events ${k.ms.toFixed(0)} ms`).join(', ')}`);
}

async function measurePhold(m: PerfMeasurements, base: BaselineCheckout | null, rep: number, w1: SimRun | null, tag: string): Promise<void> {
  const [mine, b] = await pair(rep % 2 === 1, () => runPholdKernel(REPO_DIR), () => (base === null ? Promise.resolve(null) : runPholdKernel(base.dir)));
  if (mine === null) throw new Error('this checkout has no bench/phold-child.ts');
  m.pholdMine.push(mine);
  if (base !== null) m.pholdBase.push(b);
  if (w1 !== null) {
    m.w1OverPhold.push(w1.events / (w1.runWallMs / 1000) / mine);
    m.w1ProcessOverPhold.push(w1.events / (w1.wallMs / 1000) / mine);
  }
  progress(`${tag} PHOLD kernel ${mine.toFixed(0)} events/s` + (b === null ? '' : `; baseline ${b.toFixed(0)}`));
}

/**
 * perf's options and the baseline's commit, or one line on stderr and exit 2. bench/run.ts
 * asks before any suite runs: `npm run bench kernel perf -- --runs 0` ran the kernel
 * suite for minutes, then refused.
 */
export function checkPerfArgs(argv: readonly string[]): { options: PerfOptions; commit: string | null } {
  try {
    const options = parsePerfArgs(argv, SELECTABLE_IDS, process.env);
    return { options, commit: options.baseline === null ? null : resolveCommit(REPO_DIR, options.baseline) };
  } catch (e) {
    if (!(e instanceof PerfUsageError)) throw e;
    console.error(e.message);
    process.exit(2);
  }
}

/**
 * The suite's entry point; `argv` is everything after `perf`, `checked` what checkPerfArgs
 * made of it when bench/run.ts asked first. Exits 2 on bad input, 1 on a failed run.
 */
export async function perfBench(argv: readonly string[] = [], checked = checkPerfArgs(argv)): Promise<void> {
  const { options, commit } = checked;
  let base: BaselineCheckout | null = null;
  // A signal ends the children and lets the run unwind: each part removes what it made
  // (the baseline worktree, a run's scratch folder), once its children have exited.
  let stopped: NodeJS.Signals | null = null;
  let childrenGone: Promise<void> = Promise.resolve();
  const onSignal = (signal: NodeJS.Signals): void => {
    // A second one stops at once, whatever is left behind.
    if (stopped !== null) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopped = signal;
    childrenGone = killChildren();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (commit !== null) {
      base = BaselineCheckout.add(REPO_DIR, commit);
      if (options.sameApps) base.useAppsOf(resolveCommit(REPO_DIR, 'HEAD'));
      await base.install(progress);
    }
    printRows('Perf bench (issue 3)', [
      ['this checkout', `${describeCheckout(REPO_DIR)} (${REPO_DIR})`],
      ['baseline', base === null ? 'none (no --baseline)' : `${options.baseline} = ${base.commit.slice(0, 12)}, a temporary worktree installed with npm ci`],
      ...(options.sameApps ? [['baseline apps', "this checkout's committed apps/ (--same-apps): the same programs on the baseline's engine"] as [string, string]] : []),
      ['runs', `${options.runs} per workload${base === null ? '' : ', each a baseline/this pair, the order alternating'}; figures are medians`],
      ['warm-up', "one untimed tiny run per app in each checkout first (tsx's compile cache is per file path)"],
      ['node', `${process.version} (${process.execPath}) on ${cpus().length} cores, load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`],
      ['peak RSS', RSS_SOURCE],
    ]);
    const m = await measure(options, base);
    const missed = printWorkloadTable(m, base !== null);
    const failed = printChecks(m, base !== null);
    const speedupText = base === null ? 'speed-ups not measured (no --baseline)' : `${missed} speed-up${missed === 1 ? '' : 's'}`;
    console.log(`\nTargets missed: ${speedupText}; ${failed} other check${failed === 1 ? '' : 's'}.`);
  } catch (e) {
    if (stopped === null) {
      await killChildren();
      console.error(`bench perf: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
  } finally {
    await childrenGone;
    base?.remove();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (stopped !== null) {
    console.error(`bench perf: stopped by ${stopped}${base === null ? '' : '; the baseline worktree is removed'}`);
    process.exit(stopped === 'SIGINT' ? 130 : 143);
  }
}
