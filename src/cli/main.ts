/**
 * The `sim` command's dispatcher: picks the subcommand (graph, export, calibrate, fit,
 * select, sweep, worker, explore, replay, or a plain run), answers --help and --version, and turns what
 * escapes a command into its exit code (0 verified, 1 failed run, 2 bad input). Each
 * command lives in its own file (run-command.ts, graph-command.ts, ...).
 */
import { InputError, RunFailure } from '../kernel/errors.ts';
import { reportFailure } from './failure-report.ts';
import { processIo, type Io } from './io.ts';
import { simulatorVersion } from './project.ts';

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
  // Each command is imported only when asked for: a start-up loads what it runs.
  const rest = argv.slice(1);
  switch (argv[0]) {
    case 'graph':
      return (await import('./graph-command.ts')).graphCommand(rest, io);
    case 'export':
      return (await import('./export-command.ts')).exportCommand(rest, io);
    case 'calibrate':
      return (await import('./calibrate-command.ts')).calibrateCommand(rest, io, showsProgress());
    case 'fit':
      return (await import('./fit-command.ts')).fitCommand(rest, io);
    case 'select':
      return (await import('./select-command.ts')).selectCommand(rest, io);
    case 'sweep':
      return (await import('./sweep-command.ts')).sweepCommand(rest, io, showsProgress());
    case 'worker':
      return (await import('./worker-command.ts')).workerCommand(rest, io);
    case 'explore': {
      const { run, runs } = (await import('./run-args.ts')).parseExploreArgs(rest);
      return (await import('./explore-command.ts')).exploreCommand(run, runs, io, showsProgress());
    }
    case 'replay': {
      const { file, stopAt } = (await import('./run-args.ts')).parseReplayArgs(rest);
      return (await import('./replay-command.ts')).replayCommand(file, stopAt, io);
    }
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.out(`sim ${simulatorVersion()}`);
    return 0;
  }
  const { parseArgv, toRunArgs } = await import('./run-args.ts');
  const parsed = parseArgv(argv);
  if (parsed.values.help === true) {
    const { helpText } = await import('./help.ts');
    const { platformNames } = await import('./load-inputs.ts');
    io.out(helpText(platformNames()));
    return 0;
  }
  if (parsed.values.version === true) {
    io.out(`sim ${simulatorVersion()}`);
    return 0;
  }
  return (await import('./run-command.ts')).runCommand(toRunArgs(parsed), io, showsProgress());
}

/** Progress bars go to an interactive stderr only, never in CI. */
function showsProgress(): boolean {
  return process.stderr.isTTY === true && process.env.CI === undefined;
}
