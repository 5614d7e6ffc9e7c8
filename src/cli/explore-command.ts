/**
 * `sim explore <app> --runs N [run options]`: runs the app under schedule-perturbation
 * seeds 1..N and lists the failing ones, each with the repro file it wrote and the
 * `sim replay` command for it (thesis 6.2's hunt for timing-dependent bugs).
 */
import { SingleBar, Presets } from 'cli-progress';
import { InputError, RunFailure } from '../kernel/errors.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { runApp } from '../runtime/run-app.ts';
import type { Io } from './io.ts';
import { loadPlatform } from './load-inputs.ts';
import { defaultReproPath, recordRun } from './repro.ts';
import type { RunArgs } from './run-args.ts';
import { loadRun } from './run-setup.ts';

/**
 * Tries perturbation seeds 1..`runs` of the run `run` describes; returns 1 if any
 * failed, else 0. `showProgress` draws a progress bar on stderr.
 * @throws InputError for a bad platform, machine size, app or parameter
 */
export async function exploreCommand(run: RunArgs, runs: number, io: Io, showProgress: boolean): Promise<number> {
  const platform = await loadPlatform(run.platform);
  const nodes = run.nodes ?? platform.defaultNodes;
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) throw new InputError(`--nodes ${nodes}: ${problem} (platform ${platform.name})`);
  const base = await loadRun({ platform, app: run.app, params: run.params, nodes, seed: run.seed, network: run.network, limits: { maxCycles: run.maxCycles, maxEvents: run.maxEvents } });
  const { app } = base;
  const bar = showProgress ? new SingleBar({ format: 'sim explore [{bar}] {value}/{total} runs, {failed} failed', hideCursor: true }, Presets.shades_classic) : null;
  bar?.start(runs, 0, { failed: 0 });
  const failures: string[] = [];
  const failed: { perturb: number; failure: string; repro: string }[] = [];
  for (let perturb = 1; perturb <= runs; perturb++) {
    const config = { ...base, perturb };
    let failure: string | null = null;
    try {
      const s = runApp(config);
      if (!s.verified) failure = `verification failed: ${s.verification}`;
    } catch (e) {
      if (!(e instanceof RunFailure)) throw e;
      failure = e.message.split('\n')[0];
    }
    if (failure !== null) {
      const path = defaultReproPath(app.name, platform.name, run.seed, perturb);
      recordRun(path, config, run.app, run.params);
      failures.push(`  --perturb ${perturb}: ${failure}\n    replay: sim replay ${path}`);
      failed.push({ perturb, failure, repro: path });
    }
    bar?.update(perturb, { failed: failures.length });
  }
  bar?.stop();
  if (run.json) {
    io.out(JSON.stringify({ app: app.name, platform: platform.name, nodes, seed: run.seed, runs, failed }));
    return failed.length > 0 ? 1 : 0;
  }
  io.out(`sim explore: ${runs} perturbed runs of ${app.name} on ${platform.name}, ${failures.length} failed${failures.length > 0 ? ':' : ''}`);
  for (const f of failures) io.out(f);
  return failures.length > 0 ? 1 : 0;
}
