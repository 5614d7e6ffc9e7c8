/**
 * `npm run bench [suite ...] [perf [perf options]]`: runs the benchmark suites and prints their figures.
 * Suites: kernel (PHOLD vs native C++), network (thesis Fig. 7-5, a 1024-node shift),
 * pacing (bandwidth matching's loop on two exchanging CM-5 nodes, thesis 6.1.3),
 * chapter7 (Figs. 7-6, 7-8, 7-9 on a 64-node CM-5), microbench (Fig. 6-6 on every
 * platform), chapter4 (Fig. 4-7 and Table 4-4 shapes), trace (recording overhead),
 * calibrate (the Strata suite with 1 and 2 workers), apps (the apps at 64 nodes),
 * selection (the stencil module's choices against every layout run at 64 nodes),
 * extra-lines (the square layout's extra rows and columns, factored and hybrid, against the measured optimum),
 * small-blocks (the stencil models' errors on blocks of a few lines, Alewife, 64 nodes),
 * queues (the packet FIFO and the pending-event list against what they replaced),
 * sweep (expanding and resuming 100,000-run sweeps), study-estimate (how long each
 * `sim study` takes, from a sample of its runs), perf (issue 3's workloads as
 * whole `sim` processes, against a baseline ref).
 * Default: all. Everything after `perf` is perf's own arguments (bench/perf-args.ts).
 */
import { appsBench } from './apps.ts';
import { calibrateBench } from './calibrate.ts';
import { chapter4Bench } from './chapter4.ts';
import { chapter7Bench } from './chapter7.ts';
import { kernelBench } from './kernel.ts';
import { microBench } from './microbench.ts';
import { networkBench } from './network.ts';
import { pacingBench } from './pacing.ts';
import { checkPerfArgs, perfBench } from './perf.ts';
import { queuesBench } from './queues.ts';
import { selectionBench } from './selection.ts';
import { smallBlocksBench } from './small-blocks.ts';
import { extraLinesBench } from './extra-lines.ts';
import { studyEstimateBench } from './study-estimate.ts';
import { sweepBench } from './sweep.ts';
import { traceBench } from './trace.ts';

const SUITES: Record<string, () => Promise<void>> = { kernel: kernelBench, network: networkBench, pacing: pacingBench, chapter7: chapter7Bench, microbench: microBench, chapter4: chapter4Bench, trace: traceBench, calibrate: calibrateBench, apps: appsBench, selection: selectionBench, 'extra-lines': extraLinesBench, 'small-blocks': smallBlocksBench, queues: queuesBench, sweep: sweepBench, 'study-estimate': studyEstimateBench, perf: () => perfBench() };

const argv = process.argv.slice(2);
const perfAt = argv.indexOf('perf');
const requested = perfAt < 0 ? argv : argv.slice(0, perfAt + 1);
const perfArgs = perfAt < 0 ? [] : argv.slice(perfAt + 1);
const unknown = requested.filter((s) => !(s in SUITES));
if (unknown.length > 0) {
  const hint = unknown.some((s) => s.startsWith('-')) ? '; options go after perf, e.g. npm run bench perf -- --baseline <ref>' : '';
  console.error(`bench: unknown suite ${unknown.join(', ')} (expected: ${Object.keys(SUITES).join(', ')})${hint}`);
  process.exit(2);
}
const suites = requested.length > 0 ? requested : Object.keys(SUITES);
// perf's options are checked before any suite runs (they were checked at perf's turn, after the others).
const perfChecked = suites.includes('perf') ? checkPerfArgs(perfArgs) : null;
for (const name of suites) {
  if (name === 'perf') await perfBench(perfArgs, perfChecked ?? undefined);
  else await SUITES[name]();
}
