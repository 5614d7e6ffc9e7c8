/**
 * The `sim` command: the only module that reads arguments, files and the wall
 * clock, and decides exit codes (0 verified, 1 failed run, 2 bad input).
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { parseParams } from '../runtime/app.ts';
import { runApp, type RunConfig, type RunSummary } from '../runtime/run-app.ts';
import { defaultReproPath, exploreCommand, recordRun, replayCommand, saveRepro } from './replay-command.ts';
import { EventDigests } from './repro.ts';
import { writeFileSync } from 'node:fs';
import { traceHeader } from '../trace/format.ts';
import { renderHtml } from '../trace/html-graph.ts';
import { toPerfetto } from '../trace/perfetto.ts';
import { renderCongestionSvg, renderSvg } from '../trace/state-graph.ts';
import { TraceWriter } from '../trace/writer.ts';
import { calibrateCommand } from './calibrate-command.ts';
import { fitCommand } from './fit-command.ts';
import { LogFile } from './log-file.ts';
import { FileTraceOutput, loadTrace } from './trace-file.ts';
import { helpText } from './help.ts';
import { loadApp, loadPlatform, platformNames, simulatorVersion } from './load-inputs.ts';
import { parseArgv, parseExploreArgs, parseExportArgs, parseGraphArgs, parseReplayArgs, toRunArgs } from './run-args.ts';
import { formatSummary, summaryJson } from './summary.ts';
import { nodeCountProblem } from '../network/build-topology.ts';

export interface Io {
  /** Writes a line to stdout. */
  out(text: string): void;
  /** Writes a line to stderr. */
  err(text: string): void;
  /** Writes the simulated program's output as it is, without adding a newline. */
  write(stream: 'stdout' | 'stderr', text: string): void;
}

const processIo: Io = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  write: (stream, t) => (stream === 'stdout' ? process.stdout : process.stderr).write(t),
};

/** Runs the command line `argv` (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (e) {
    if (e instanceof InputError) {
      io.err(`sim: ${e.message}`);
      return 2;
    }
    if (e instanceof RunFailure) {
      reportFailure(e, io);
      return 1;
    }
    io.err(`sim: internal error (a bug in the simulator): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  }
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === 'graph') return graphCommand(argv.slice(1), io);
  if (argv[0] === 'export') return exportCommand(argv.slice(1), io);
  if (argv[0] === 'calibrate') return calibrateCommand(argv.slice(1), io, process.stderr.isTTY === true && process.env.CI === undefined);
  if (argv[0] === 'fit') return fitCommand(argv.slice(1), io);
  if (argv[0] === 'explore') {
    const { run, runs } = parseExploreArgs(argv.slice(1));
    return exploreCommand(run, runs, io, process.stderr.isTTY === true && process.env.CI === undefined);
  }
  if (argv[0] === 'replay') {
    const { file, stopAt } = parseReplayArgs(argv.slice(1));
    return replayCommand(file, stopAt, io);
  }
  const parsed = parseArgv(argv);
  if (parsed.values.help === true) {
    io.out(helpText(platformNames()));
    return 0;
  }
  if (parsed.values.version === true) {
    io.out(`sim ${simulatorVersion()}`);
    return 0;
  }
  const args = toRunArgs(parsed);
  const platform = loadPlatform(args.platform);
  const nodes = args.nodes ?? platform.defaultNodes;
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) {
    const which = args.nodes === undefined ? `defaultNodes ${nodes} of ${platform.source}` : `--nodes ${nodes}`;
    throw new InputError(`${which}: ${problem} (platform ${platform.name})`);
  }
  const app = await loadApp(args.app);
  const params = parseParams(app, args.params);

  const logFile = args.log === undefined ? null : new LogFile(args.log);
  const traceFile = args.trace === undefined ? null : new FileTraceOutput(args.trace, '--trace');
  const trace =
    traceFile === null
      ? null
      : new TraceWriter(
          traceHeader({ simulatorVersion: simulatorVersion(), platform, nodes, network: args.network, app, params, seed: args.seed, networkCounters: args.traceNetwork, messages: args.traceMessages }),
          traceFile,
        );
  const config: RunConfig = { platform, app, params, nodes, seed: args.seed, network: args.network, perturb: args.perturb };
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

/** The failure line, each node's last log entry if any were logged. */
function reportFailure(e: RunFailure, io: Io): void {
  io.err(`sim: run failed: ${e.message}`);
  if (e.lastLogEntries.length > 0) io.err(formatLoglast(e.lastLogEntries));
}

/** `sim graph <trace> -o <file.svg|file.html> [--kind ...]`: draws the trace's state (or congestion) graph. */
function graphCommand(argv: readonly string[], io: Io): number {
  const { trace, out, kind } = parseGraphArgs(argv);
  const html = out.endsWith('.html');
  if (!html && !out.endsWith('.svg')) throw new InputError(`-o ${out}: expected a file name ending in .svg or .html`);
  const loaded = loadTrace(trace);
  if (kind === 'congestion' && !loaded.header.networkCounters) {
    throw new InputError(`${trace}: has no network counters; record them with --trace-network (and the packet network)`);
  }
  const drawing = html ? renderHtml(loaded, kind) : kind === 'congestion' ? renderCongestionSvg(loaded) : renderSvg(loaded);
  try {
    writeFileSync(out, drawing);
  } catch (e) {
    throw new InputError(`-o ${out}: cannot write the file (${(e as { code?: string }).code ?? String(e)})`);
  }
  io.out(`sim graph: wrote ${out}`);
  return 0;
}

/** `sim export --format perfetto <trace> -o <file.json>`: Chrome trace-event JSON. */
function exportCommand(argv: readonly string[], io: Io): number {
  const { trace, out, format } = parseExportArgs(argv);
  const json = JSON.stringify(toPerfetto(loadTrace(trace)));
  try {
    writeFileSync(out, json);
  } catch (e) {
    throw new InputError(`-o ${out}: cannot write the file (${(e as { code?: string }).code ?? String(e)})`);
  }
  io.out(`sim export: wrote ${out} (${format}; open it in ui.perfetto.dev or chrome://tracing)`);
  return 0;
}

function formatLoglast(entries: readonly string[]): string {
  return ['last log entry of each node (loglast):', ...entries.map((e) => `  ${e}`)].join('\n');
}
