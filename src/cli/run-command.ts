/**
 * `sim --platform <p> <app> [options]`: one run of an app. Loads the platform and the
 * app, checks the machine size, runs it with the requested log, trace and repro
 * recording, prints the summary (or JSON) and decides the exit status: 0 when the app
 * verified, 1 when it did not or the program failed (with a repro file to replay).
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { runApp, type RunSummary } from '../runtime/run-app.ts';
import { traceHeader } from '../trace/format.ts';
import { TraceWriter } from '../trace/writer.ts';
import { formatLoglast, reportFailure } from './failure-report.ts';
import type { Io } from './io.ts';
import { loadPlatform } from './load-inputs.ts';
import { simulatorVersion } from './project.ts';
import { LogFile } from './log-file.ts';
import { defaultReproPath, EventDigests, recordRun, saveRepro } from './repro.ts';
import type { RunArgs } from './run-args.ts';
import { loadRun } from './run-setup.ts';
import { formatSummary, summaryJson } from './summary.ts';
import { FileTraceOutput } from './trace-file.ts';

/**
 * Runs the app that `args` names and reports the run on `io`; returns the exit status (0 or 1).
 * @throws InputError for a bad platform, machine size, app or parameter, or an
 *   unwritable output file
 */
export async function runCommand(args: RunArgs, io: Io): Promise<number> {
  const platform = await loadPlatform(args.platform);
  const nodes = args.nodes ?? platform.defaultNodes;
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) {
    const which = args.nodes === undefined ? `defaultNodes ${nodes} of ${platform.source}` : `--nodes ${nodes}`;
    throw new InputError(`${which}: ${problem} (platform ${platform.name})`);
  }
  const config = await loadRun({ platform, app: args.app, params: args.params, nodes, seed: args.seed, network: args.network, perturb: args.perturb });
  const { app, params } = config;

  const logFile = args.log === undefined ? null : new LogFile(args.log);
  const traceFile = args.trace === undefined ? null : new FileTraceOutput(args.trace, '--trace');
  const trace =
    traceFile === null
      ? null
      : new TraceWriter(
          traceHeader({ simulatorVersion: simulatorVersion(), platform, nodes, network: args.network, app, params, seed: args.seed, networkCounters: args.traceNetwork, messages: args.traceMessages }),
          traceFile,
        );
  const digests = args.record === undefined ? null : new EventDigests();
  const start = performance.now();
  let summary: RunSummary | undefined;
  try {
    summary = runApp({
      ...config,
      // With --json, stdout carries only the JSON.
      output: (stream, text) => io.write(args.json ? 'stderr' : stream, text),
      log: logFile?.sink,
      trace: trace ?? undefined,
      observer: digests?.observer,
    });
  } catch (e) {
    if (!(e instanceof RunFailure)) throw e;
    reportFailure(e, io);
    const path = args.record ?? defaultReproPath(app.name, platform.name, args.seed, args.perturb);
    if (digests !== null) saveRepro(path, config, args.app, args.params, digests, { fingerprint: '', events: digests.count, failure: e.message.split('\n')[0] });
    else recordRun(path, config, args.app, args.params);
    io.err(`sim: replay this run with: sim replay ${path}`);
    return 1;
  } finally {
    logFile?.close();
    // A failed run's trace ends where the run stopped, with an all-zero fingerprint.
    trace?.finish(summary?.fingerprint ?? '', summary?.simulatedCycles ?? 0);
    traceFile?.close();
  }
  const wall = { wallMs: performance.now() - start };

  io.out(args.json ? summaryJson(summary, wall, simulatorVersion()) : formatSummary(summary, wall));
  if (args.loglast && summary.lastLog.length > 0) (args.json ? io.err : io.out)(formatLoglast(summary.lastLog));
  const failure = summary.verified ? null : `verification failed: ${summary.verification}`;
  if (digests !== null) {
    saveRepro(args.record!, config, args.app, args.params, digests, { fingerprint: summary.fingerprint, events: summary.events, failure });
  } else if (failure !== null) {
    const path = defaultReproPath(app.name, platform.name, args.seed, args.perturb);
    recordRun(path, config, args.app, args.params);
    io.err(`sim: replay this run with: sim replay ${path}`);
  }
  return failure === null ? 0 : 1;
}
