/**
 * The `sim` command: the only module that reads arguments, files and the wall
 * clock, and decides exit codes (0 verified, 1 failed run, 2 bad input).
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { parseParams } from '../runtime/app.ts';
import { runApp, type RunSummary } from '../runtime/run-app.ts';
import { LogFile } from './log-file.ts';
import { helpText } from './help.ts';
import { loadApp, loadPlatform, platformNames, simulatorVersion } from './load-inputs.ts';
import { parseArgv, toRunArgs } from './run-args.ts';
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
      io.err(`sim: run failed: ${e.message}`);
      if (e.lastLogEntries.length > 0) io.err(formatLoglast(e.lastLogEntries));
      return 1;
    }
    io.err(`sim: internal error (a bug in the simulator): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  }
}

async function run(argv: readonly string[], io: Io): Promise<number> {
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
  const start = performance.now();
  let summary: RunSummary;
  try {
    summary = runApp({
      platform,
      app,
      params,
      nodes,
      seed: args.seed,
      network: args.network,
      // With --json, stdout carries only the JSON.
      output: (stream, text) => io.write(args.json ? 'stderr' : stream, text),
      log: logFile?.sink,
    });
  } finally {
    logFile?.close();
  }
  const wall = { wallMs: performance.now() - start };

  io.out(args.json ? summaryJson(summary, wall, simulatorVersion()) : formatSummary(summary, wall));
  if (args.loglast && summary.lastLog.length > 0) (args.json ? io.err : io.out)(formatLoglast(summary.lastLog));
  return summary.verified ? 0 : 1;
}

function formatLoglast(entries: readonly string[]): string {
  return ['last log entry of each node (loglast):', ...entries.map((e) => `  ${e}`)].join('\n');
}
