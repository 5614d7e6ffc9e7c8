/**
 * The `sim` command's dispatcher: picks the subcommand (graph, export, calibrate, fit,
 * sweep, worker, explore, replay, or a plain run), answers --help and --version, and turns what
 * escapes a command into its exit code (0 verified, 1 failed run, 2 bad input). Each
 * command lives in its own file (run-command.ts, graph-command.ts, ...).
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { calibrateCommand } from './calibrate-command.ts';
import { exploreCommand } from './explore-command.ts';
import { exportCommand } from './export-command.ts';
import { reportFailure } from './failure-report.ts';
import { fitCommand } from './fit-command.ts';
import { graphCommand } from './graph-command.ts';
import { helpText } from './help.ts';
import { processIo, type Io } from './io.ts';
import { platformNames, simulatorVersion } from './load-inputs.ts';
import { replayCommand } from './replay-command.ts';
import { parseArgv, parseExploreArgs, parseReplayArgs, toRunArgs } from './run-args.ts';
import { runCommand } from './run-command.ts';
import { sweepCommand } from './sweep-command.ts';
import { workerCommand } from './worker-command.ts';

/** Runs the command line `argv` (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    return await dispatch(argv, io);
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

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === 'graph') return graphCommand(argv.slice(1), io);
  if (argv[0] === 'export') return exportCommand(argv.slice(1), io);
  if (argv[0] === 'calibrate') return calibrateCommand(argv.slice(1), io, showsProgress());
  if (argv[0] === 'fit') return fitCommand(argv.slice(1), io);
  if (argv[0] === 'sweep') return sweepCommand(argv.slice(1), io, showsProgress());
  if (argv[0] === 'worker') return workerCommand(argv.slice(1), io);
  if (argv[0] === 'explore') {
    const { run, runs } = parseExploreArgs(argv.slice(1));
    return exploreCommand(run, runs, io, showsProgress());
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
  return runCommand(toRunArgs(parsed), io);
}

/** Progress bars go to an interactive stderr only, never in CI. */
function showsProgress(): boolean {
  return process.stderr.isTTY === true && process.env.CI === undefined;
}
