/**
 * `sim --platform <p> <app> [options]`: one run of an app. Loads the platform and the
 * app, checks the machine size, runs it with the requested log, trace and repro
 * recording, prints the summary (or JSON) and decides the exit status: 0 when the app
 * verified, 1 when it did not or the program failed or reached a limit (with a repro
 * file to replay), 130 / 143 when SIGINT / SIGTERM stopped it (files still complete).
 */
import { statSync } from 'node:fs';
import { InputError, RunFailure, RunInterrupted, RunLimitError } from '../kernel/errors.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { AppRun, type RunConfig, type RunLimits, type RunSummary } from '../runtime/run-app.ts';
import { traceHeader, type CutReason } from '../trace/format.ts';
import { TraceWriter } from '../trace/writer.ts';
import { formatLoglast, reportFailure } from './failure-report.ts';
import type { Io } from './io.ts';
import { loadPlatform, platformInput, recordedPlatformFile, resolveAppFile } from './load-inputs.ts';
import { simulatorVersion } from './project.ts';
import { LogFile } from './log-file.ts';
import { VERIFICATION_FAILED } from './repro-format.ts';
// Loaded when a repro is to be written (--record, a failed run): it brings node:crypto,
// about 7 ms of every run's start-up otherwise.
import type { EventDigests } from './repro.ts';
import type { RunArgs } from './run-args.ts';
import { loadRun } from './run-setup.ts';
import { formatSummary, summaryJson } from './summary.ts';
import { FileTraceOutput } from './trace-file.ts';
import { checkNotAppSource, checkOutputFile, checkSeekableOutput, checkSeparateFiles } from './output-file.ts';
import { driveRun, limitAdvice, reproLimits, signalExitCode, SignalWatch } from './run-driver.ts';
import { resolveAutoParams } from './auto-params.ts';
import { progressStyle, runStatus } from './progress.ts';
import { refuseOverridden, unusedOptionsNote } from './unused-options.ts';

/**
 * Runs the app that `args` names and reports the run on `io`; returns the exit status
 * (0, 1, or 130 / 143 after a signal). `showProgress`: a terminal's progress line on
 * `io.status` (with --progress, lines on stderr instead; progress.ts).
 * @throws InputError for a bad platform, machine size, app or parameter, or an
 *   unwritable output file
 */
export async function runCommand(runArgs: RunArgs, io: Io, showProgress = false): Promise<number> {
  const signals = new SignalWatch().start();
  try {
    return await runWatched(runArgs, io, showProgress, signals);
  } finally {
    signals.stop();
  }
}

async function runWatched(runArgs: RunArgs, io: Io, showProgress: boolean, signals: SignalWatch): Promise<number> {
  let args = runArgs;
  // Every file the run will write is checked before anything is loaded or run.
  const outputs = [['--record', args.record], ['--trace', args.trace], ['--log', args.log]] as const;
  // The platform named by name is a file too (platforms/<name>.json), which --log could empty.
  const platformRead = platformInput(args.platform);
  checkSeparateFiles([['--platform', platformRead], ...outputs]);
  /** The files the run reads or writes besides a repro: the automatic repro of a failed run may not be one of them. */
  const taken = [['--platform', platformRead], ['--trace', args.trace], ['--log', args.log]] as const;
  const appFile = appModule(args.app);
  if (appFile !== null) checkNotAppSource(outputs, args.app, appFile);
  for (const [option, path] of outputs) {
    if (path !== undefined) checkOutputFile(option, path);
  }
  if (args.trace !== undefined) checkSeekableOutput('--trace', args.trace);
  const platform = await loadPlatform(args.platform);
  const nodes = args.nodes ?? platform.defaultNodes;
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) {
    const which = args.nodes === undefined ? `defaultNodes ${nodes} of ${platform.source}` : `--nodes ${nodes}`;
    throw new InputError(`${which}: ${problem} (platform ${platform.name})`);
  }
  // `auto` values become concrete ones from the platform's models before anything runs: those files are inputs too.
  if (args.params.some((a) => a.endsWith('=auto'))) {
    const { modelFilesRead } = await import('./model-files.ts');
    checkSeparateFiles([...modelFilesRead(platform, nodes, args.models, args.communication).map((f) => ['the models', f] as const), ...outputs]);
  }
  const auto = await resolveAutoParams(args.app, args.params, platform, nodes, args.models, args.communication);
  refuseOverridden(args.params, auto.resolution);
  const note = unusedOptionsNote(args, auto.resolution);
  args = { ...args, params: auto.params };
  const limits = { maxCycles: args.maxCycles, maxEvents: args.maxEvents };
  const config = await loadRun({ platform, app: args.app, params: args.params, nodes, seed: args.seed, network: args.network, perturb: args.perturb, limits });
  const { app, params } = config;

  const header = args.trace === undefined ? null : traceHeader({ simulatorVersion: simulatorVersion(), platform, nodes, network: args.network, app, params, seed: args.seed, networkCounters: args.traceNetwork, messages: args.traceMessages });
  // Before any file is made: a header too long for a reader leaves nothing behind.
  if (header !== null) (await import('../trace/header-check.ts')).checkTraceHeader(header);
  const logFile = args.log === undefined ? null : new LogFile(args.log);
  const traceFile = args.trace === undefined ? null : new FileTraceOutput(args.trace, '--trace');
  const trace = header === null || traceFile === null ? null : new TraceWriter(header, traceFile);
  const digests = args.record === undefined ? null : new (await import('./repro.ts')).EventDigests();
  const start = performance.now();
  let summary: RunSummary | undefined;
  let cut: CutReason | null = null;
  /** Where a failed run stopped, when known: its trace ends there. */
  let stoppedAt: number | null = null;
  let settled = false;
  // How the run goes, and the run made again to record a failed one's repro: in chunks, taking signals, showing progress.
  const status = runStatus(progressStyle(args.progress, showProgress, io), io);
  const drive = (run: AppRun): Promise<void> => driveRun(run, signals, status);
  try {
    const run = new AppRun({
      ...config,
      // With --json, stdout carries only the JSON.
      output: (stream, text) => io.write(args.json ? 'stderr' : stream, text),
      // --loglast alone logs too (global operations are logged only into a log): their entries were missing from its report.
      log: logFile?.sink ?? (args.loglast ? () => {} : undefined),
      trace: trace ?? undefined,
      observer: digests?.observer,
    });
    await drive(run);
    summary = run.summary();
    settled = true;
  } catch (e) {
    if (!(e instanceof RunFailure)) throw e;
    settled = true;
    if (note !== null) io.err(note);
    if (e instanceof RunInterrupted || e instanceof RunLimitError) {
      cut = e instanceof RunInterrupted ? 'interrupted' : 'limit';
      stoppedAt = e.cycle;
    } else {
      // Where it failed, not its last state change (the trace's END said that).
      stoppedAt = e.stoppedAtCycle;
    }
    reportFailure(e, io);
    if (e instanceof RunLimitError) io.err(`sim: ${limitAdvice(e)}`);
    const repro = await writeFailureRepro(e, { config, args, digests, limits, taken, drive }, io);
    // --json's one object, for a failed run too (stdout had nothing; the report is on stderr).
    if (args.json) io.out(JSON.stringify({ verified: false, failure: e.message.split('\n')[0], error: e.name, stoppedAtCycle: stoppedAt, repro: repro instanceof RunInterrupted ? null : repro }));
    if (repro instanceof RunInterrupted) return signalExitCode(repro.signal);
    return e instanceof RunInterrupted ? signalExitCode(e.signal) : 1;
  } finally {
    if (settled) {
      logFile?.close();
      // A failed run's trace ends where the run stopped, with an all-zero fingerprint.
      trace?.finish(summary?.fingerprint ?? '', summary?.simulatedCycles ?? stoppedAt ?? 0, cut);
      traceFile?.close();
    } else {
      // Bad input found on the way (an app's check, a main that is no generator): no files.
      logFile?.abandon();
      traceFile?.abandon();
    }
  }
  const wall = { wallMs: performance.now() - start };

  if (note !== null) io.err(note);
  const failure = summary.verified ? null : `${VERIFICATION_FAILED}${summary.verification}`;
  // The repro is written before the summary, which names it under --json (it had no repro); what
  // writing it says follows the summary, as before.
  const said: string[] = [];
  let repro: string | null | undefined;
  let stopped: RunInterrupted | null = null;
  if (digests !== null) {
    const { saveRepro } = await import('./repro.ts');
    saveRepro(args.record!, config, args.app, args.params, digests, { fingerprint: summary.fingerprint, events: summary.events, failure });
    if (failure !== null) repro = args.record!;
  } else if (failure !== null) {
    const { defaultReproPath, recordRun } = await import('./repro.ts');
    const path = defaultReproPath(config);
    const written = await tryRepro({ ...io, err: (text) => said.push(text) }, path, () => recordRun(path, config, args.app, args.params, drive), taken);
    if (written instanceof RunInterrupted) stopped = written;
    repro = written instanceof RunInterrupted ? null : written;
  }
  // A platform file named by its path says so: a copy of a shipped one, edited, keeps its name.
  // Whatever path named it (absolute, or cm5.json from inside platforms/): it said "from /work/.../platforms/cm5.json" of the shipped file.
  const shipped = recordedPlatformFile(platform) === `platforms/${platform.name}.json`;
  const extra = { ...(auto.resolution === null ? {} : { auto: auto.resolution }), ...(repro === undefined ? {} : { repro }), ...(shipped ? {} : { platformFile: escapeLineBreaking(platform.source) }) };
  io.out(args.json ? summaryJson(summary, wall, simulatorVersion(), extra) : formatSummary(summary, wall, extra));
  if (args.loglast && summary.lastLog.length > 0) (args.json ? io.err : io.out)(formatLoglast(summary.lastLog));
  for (const text of said) io.err(text);
  if (stopped !== null) return signalExitCode(stopped.signal);
  return failure === null ? 0 : 1;
}

interface FailedRun {
  config: RunConfig;
  args: RunArgs;
  digests: EventDigests | null;
  limits: RunLimits;
  taken: Files;
  /** Runs a run as the command does (for the one made again to record its repro). */
  drive: (run: AppRun) => Promise<void>;
}

type Files = readonly (readonly [what: string, path: string | undefined])[];

/**
 * Writes the repro of a run that failed: with the digests collected during the run
 * (--record), else by running it again to record them; a run stopped part-way (a
 * limit, a signal) is not run again: its repro records where it stopped instead.
 */
/** Returns the repro file written, or null when it could not be, or what stopped the run made again for it. */
async function writeFailureRepro(e: RunFailure, run: FailedRun, io: Io): Promise<string | null | RunInterrupted> {
  const { defaultReproPath, recordRun, saveRepro } = await import('./repro.ts');
  const { config, args, digests } = run;
  const path = args.record ?? defaultReproPath(config);
  const failure = e.message.split('\n')[0];
  const stopped = e instanceof RunLimitError || e instanceof RunInterrupted;
  const stop = stopped ? reproLimits(e, run.limits) : undefined;
  const outcome = { fingerprint: stopped ? e.fingerprint : '', events: stopped ? e.events : (digests?.count ?? 0), failure };
  return tryRepro(io, path, async () => {
    if (digests !== null || stopped) saveRepro(path, config, args.app, args.params, digests, outcome, stop);
    else await recordRun(path, config, args.app, args.params, run.drive);
  }, args.record === undefined ? run.taken : []);
}

/**
 * Writes a failed run's repro and returns its path; one that cannot be written is a
 * warning (null; the run's status stays 1). The automatic repro's name (not --record's,
 * checked before the run) may not be a file in `taken`: `--log sim-repro-race-cm5-n4-s1-p2.json`
 * had the repro written there, then the log renamed over it ("cannot write the file (ENOENT)", exit 2).
 */
async function tryRepro(io: Io, path: string, write: () => Promise<void> | void, taken: Files): Promise<string | null | RunInterrupted> {
  try {
    checkSeparateFiles([...taken, ['the repro of the failed run', path]]);
    await write();
    // A device (--record /dev/null) keeps nothing to replay: it said "replay this run with: sim replay /dev/null".
    if (isFileThere(path)) io.err(`sim: replay this run with: sim replay ${path}`);
    else io.err(`sim: the repro went to ${path}, which keeps no file for sim replay to read back`);
    return path;
  } catch (w) {
    // Ctrl-C or SIGTERM while the run was made again to record it.
    if (w instanceof RunInterrupted) {
      io.err(`sim: stopped by ${w.signal} while running the failed run again to record its repro; no repro written (sim --record <file> records one as the run goes)`);
      return w;
    }
    if (!(w instanceof InputError)) throw w;
    io.err(`sim: warning: no repro file: ${w.message}`);
    return null;
  }
}

/** Whether `path` is a regular file now (a written repro), not a device or FIFO. */
function isFileThere(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The app's module file, or null when there is none (loading the app says so, after the platform is checked). */
function appModule(app: string): string | null {
  try {
    return resolveAppFile(app);
  } catch (e) {
    if (e instanceof InputError) return null;
    throw e;
  }
}
