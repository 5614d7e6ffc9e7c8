/**
 * `sim explore <app> --runs N [--repros K] [run options]`: runs the app under
 * schedule-perturbation seeds 1..N and lists the failing ones, the first K (10 by
 * default) with the repro file it wrote and the `sim replay` command for it (thesis
 * 6.2's hunt for timing-dependent bugs). A racy app can fail under most seeds, and
 * every repro is a file in the working directory and a second run of its seed: the
 * rest are listed by seed, which `sim --perturb <S> --record <file>` records. SIGINT
 * or SIGTERM ends it early with the seeds tried so far (exit 130 / 143).
 */
import { InputError, RunFailure, RunInterrupted, RunLimitError } from '../kernel/errors.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { AppRun } from '../runtime/run-app.ts';
import { formatResolution, resolveAutoParams } from './auto-params.ts';
import { refuseOverridden, unusedOptionsNote } from './unused-options.ts';
import type { Io } from './io.ts';
import { loadPlatform } from './load-inputs.ts';
import { VERIFICATION_FAILED } from './repro-format.ts';
import { defaultReproPath, recordRun, saveRepro } from './repro.ts';
import type { RunArgs } from './run-args.ts';
import { loadRun } from './run-setup.ts';
import { counter, progressStyle } from './progress.ts';
import { driveRun, reproLimits, signalExitCode, SignalWatch } from './run-driver.ts';

interface Failed {
  perturb: number;
  failure: string;
  /** Null past the first `repros` failing seeds, or when it could not be written (a folder that takes no files: said in a warning). */
  repro: string | null;
}

/**
 * Tries perturbation seeds 1..`runs` of the run `run` describes, writing a repro for
 * the first `repros` that fail; returns 1 if any failed, else 0 (130 / 143 if a signal
 * stopped it). `showProgress` draws a progress bar on stderr (with --progress, lines
 * instead; progress.ts).
 * @throws InputError for a bad platform, machine size, app or parameter
 */
export async function exploreCommand(run: RunArgs, runs: number, repros: number, io: Io, showProgress: boolean): Promise<number> {
  const platform = await loadPlatform(run.platform);
  const nodes = run.nodes ?? platform.defaultNodes;
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) throw new InputError(`--nodes ${nodes}: ${problem} (platform ${platform.name})`);
  // `auto` values are resolved once, as a run does (run-command.ts): every seed runs the same concrete app.
  const { params, resolution } = await resolveAutoParams(run.app, run.params, platform, nodes, run.models, run.communication);
  // --models or --communication that did nothing: said at the end, as a run says it (they were taken silently).
  refuseOverridden(run.params, resolution);
  const note = unusedOptionsNote(run, resolution);
  const base = await loadRun({ platform, app: run.app, params, nodes, seed: run.seed, network: run.network, limits: { maxCycles: run.maxCycles, maxEvents: run.maxEvents } });
  const { app } = base;
  const bar = counter(progressStyle(run.progress, showProgress, io), 'sim explore', 'runs', runs, 0);
  const failed: Failed[] = [];
  // Ctrl-C (or SIGTERM) ends the exploration between chunks of a run or between runs, reporting the seeds tried so far.
  const signals = new SignalWatch().start();
  let tried = 0;
  let interrupted: 'SIGINT' | 'SIGTERM' | null = null;
  try {
    for (let perturb = 1; perturb <= runs && interrupted === null; perturb++) {
      const config = { ...base, perturb };
      let failure: string | null = null;
      let limited: RunLimitError | null = null;
      try {
        const appRun = new AppRun(config);
        await driveRun(appRun, signals, null);
        const s = appRun.summary();
        if (!s.verified) failure = `${VERIFICATION_FAILED}${s.verification}`;
      } catch (e) {
        if (e instanceof RunInterrupted) {
          interrupted = e.signal;
          break;
        }
        if (!(e instanceof RunFailure)) throw e;
        failure = e.message.split('\n')[0];
        if (e instanceof RunLimitError) limited = e;
      }
      tried = perturb;
      if (failure !== null && failed.length >= repros) {
        failed.push({ perturb, failure, repro: null });
      } else if (failure !== null) {
        const repro = defaultReproPath(config);
        // A seed stopped at --max-cycles / --max-events gets the repro sim gives such a
        // run: where it stopped, not run again. Run again for its event digests, every
        // such seed took twice as long and left a file of 2.7 bytes an event (53 MB a
        // seed at --max-events 2e7; 358 MB at the default 1e9).
        // One that cannot be written is a warning, as a failed run's is (it ended the exploration, exit 2, the seeds found unsaid).
        let written: string | null = repro;
        try {
          if (limited !== null) saveRepro(repro, config, run.app, params, null, { fingerprint: limited.fingerprint, events: limited.events, failure }, reproLimits(limited, config.limits));
          else await recordRun(repro, config, run.app, params, (again) => driveRun(again, signals, null));
        } catch (w) {
          // Ctrl-C or SIGTERM while the seed ran again to record it: the seed is counted, without a file.
          if (w instanceof RunInterrupted) {
            failed.push({ perturb, failure, repro: null });
            interrupted = w.signal;
            break;
          }
          if (!(w instanceof InputError)) throw w;
          io.err(`sim explore: warning: no repro file for --perturb ${perturb}: ${w.message}`);
          written = null;
        }
        failed.push({ perturb, failure, repro: written });
      }
      bar.update(perturb, `, ${failed.length} failed`);
      // A run of one chunk never yields: look for a signal between runs too.
      await new Promise<void>((resolve) => setImmediate(resolve));
      interrupted = signals.caught;
    }
  } finally {
    signals.stop();
    bar.stop();
  }
  const code = interrupted !== null ? signalExitCode(interrupted) : failed.length > 0 ? 1 : 0;
  const cut = interrupted === null ? null : `stopped by ${interrupted} after ${tried} of ${runs} seeds`;
  if (note !== null) io.err(note);
  if (run.json) {
    // What `auto` values ran, as a run's JSON says it: explore said nothing of them, and a layout=auto exploration did not say which layout it tried.
    io.out(JSON.stringify({ app: app.name, platform: platform.name, nodes, seed: run.seed, ...(resolution === null ? {} : { auto: resolution }), runs, tried, repros, failed, ...(cut === null ? {} : { interrupted: cut }) }));
    return code;
  }
  if (cut !== null) io.err(`sim explore: ${cut}`);
  if (resolution !== null) io.out(`sim explore: auto ${formatResolution(resolution)}`);
  io.out(`sim explore: ${tried} perturbed run${tried === 1 ? '' : 's'} of ${app.name} on ${platform.name}, ${failed.length} failed${failed.length > 0 ? ':' : ''}`);
  // Within the first `repros`, a seed without a file is one whose file could not be written.
  const again = (perturb: number) => `no repro file; run it again with sim --perturb ${perturb} --record <file> and the same options`;
  failed.forEach((f, k) => io.out(`  --perturb ${f.perturb}: ${f.failure}${f.repro !== null ? `\n    replay: sim replay ${f.repro}` : k < repros ? `\n    ${again(f.perturb)}` : ''}`));
  const unrecorded = failed.length - Math.min(failed.length, repros);
  if (unrecorded > 0) {
    io.out(`sim explore: repro files for the first ${repros} failing seeds only (--repros ${repros}); sim with the same options and --perturb <S> --record <file> records any of the other ${unrecorded}`);
  }
  return code;
}
