/**
 * How long each `sim study` takes on this machine, estimated from a sample (issue
 * 21): for every study and platform, the first round's runs (with the study's
 * defaults: for stencil-selection 16, 32 and 64 nodes, for the others 64), ordered by
 * a measure of their work (grid points x iterations, keys x passes), and a stratified
 * sample of SAMPLE of them, one at the middle of each of SAMPLE equal slices of that
 * order (run times are heavy-tailed: a 4096 x 4096 grid takes a hundred times a small
 * one, so a plain random sample of a few would mostly miss them), each run once in
 * this process; the estimate is the sample's mean wall time times the round's run
 * count, for one worker. Sort-selection goes on in rounds (one per
 * bisection step, each probe runs the two algorithms again, then 32 penalty points of
 * 24 runs): its line gives the first round and a range for the whole study. Wall
 * times depend on the machine's load; the figures are for one worker.
 *
 *   npm run bench study-estimate            (SAMPLE=8 by default; STUDY_SAMPLE=n to change)
 */
import { loadPlatform, platformNames, projectPath } from '../src/cli/load-inputs.ts';
import { loadModelSet } from '../src/cli/model-files.ts';
import { loadRun } from '../src/cli/run-setup.ts';
import { selectContext, type SelectContext } from '../src/library/module.ts';
import { DEFAULT_RUN_LIMITS, runApp } from '../src/runtime/run-app.ts';
import { STUDIES, type StudyOptions, type StudyPlatform } from '../src/study/index.ts';
import { printRows } from './harness.ts';

const SAMPLE = Number(process.env.STUDY_SAMPLE ?? 8);

/** A run's work, to order runs by: grid points x iterations, or keys x radix passes. */
function work(p: Record<string, number | string>): number {
  if (typeof p.width === 'number') return p.width * (p.height as number) * (p.iters as number);
  const keys = Number(p.keys);
  return p.digitBits === undefined ? keys * 4 : keys * Math.ceil(Number(p.keyBits) / Number(p.digitBits));
}

const hours = (ms: number) => (ms / 3_600_000 >= 1 ? `${(ms / 3_600_000).toFixed(1)} h` : `${(ms / 60_000).toFixed(0)} min`);

export async function studyEstimateBench(): Promise<void> {
  const rows: [string, string][] = [];
  for (const study of STUDIES) {
    for (const name of platformNames()) {
      const platform = await loadPlatform(name);
      const contexts = new Map<number, SelectContext>();
      for (const n of study.defaults.nodes) contexts.set(n, selectContext(platform, n, loadModelSet(platform, n)));
      const p: StudyPlatform = { spec: name, name, clockMHz: platform.clockMHz, timerInterrupts: platform.timerInterrupt !== null, context: (n) => contexts.get(n)! };
      const options: StudyOptions = { platforms: [p], nodes: study.defaults.nodes, trials: study.name === 'digit-width' ? 10 : study.defaults.trials, maxGrid: study.defaults.maxGrid ?? 0, maxKeys: study.defaults.maxKeys ?? 0, seed: 1 };
      const runs = study.next(options, new Map());
      const order = runs.map((_, k) => k).sort((a, b) => work(runs[a].params) - work(runs[b].params) || a - b);
      const picked = [...new Set(Array.from({ length: Math.min(SAMPLE, runs.length) }, (_, k) => order[Math.floor(((k + 0.5) / Math.min(SAMPLE, runs.length)) * runs.length)]))];
      let total = 0;
      for (const k of picked) {
        const r = runs[k];
        const config = await loadRun({ platform, app: projectPath(r.app), params: Object.entries(r.params).map(([a, b]) => `${a}=${b}`), nodes: r.nodes, seed: r.seed });
        const start = performance.now();
        runApp({ ...config, limits: DEFAULT_RUN_LIMITS });
        total += performance.now() - start;
      }
      const mean = total / picked.length;
      const first = mean * runs.length;
      let line = `round 1: ${runs.length} runs, ${(mean / 1000).toFixed(1)} s a run (sample of ${picked.length}): ${hours(first)}`;
      if (study.name === 'sort-selection') {
        // Each later round probes one key per unresolved crossover (half a first round), 2 to 14 of them, then the penalty points.
        const penalty = 32 * 24 * mean;
        line += `; whole study ${hours(first + first / 2 + penalty)} to ${hours(first + 7 * first + penalty)} (2-14 probes a crossover, 768 penalty runs)`;
      }
      if (study.name === 'digit-width') line += ' (10 trials on this platform: its share of 40 over four)';
      rows.push([`${study.name} ${name}`, line]);
      console.error(`${study.name} ${name}: ${line}`);
    }
  }
  printRows(`sim study runtime estimates with one worker (sample of ${SAMPLE} runs per study and platform)`, rows);
}
