/**
 * The `sim` command's dispatcher: picks the subcommand (graph, export, calibrate, fit,
 * select, sweep, study, worker, explore, replay, or a plain run), answers --help and --version, and turns what
 * escapes a command into its exit code (0 verified, 1 failed run, 2 bad input). Each
 * command lives in its own file (run-command.ts, graph-command.ts, ...).
 */
import { InputError, RunFailure, SimError } from '../kernel/errors.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { reportFailure } from './failure-report.ts';
import { processIo, type Io } from './io.ts';
import { simulatorVersion } from './project.ts';

/** Runs the command line `argv` (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (e) {
    if (e instanceof InputError) {
      // A command's own messages name it already ("sim graph: ..."); others get "sim: ".
      // On its one line: a file name with a newline (--log $'a\nb/x.log') split it in two.
      const line = escapeLineBreaking(e.message);
      io.err(line.startsWith('sim ') ? line : `sim: ${line}`);
      return 2;
    }
    if (e instanceof RunFailure) {
      reportFailure(e, io);
      return 1;
    }
    // Raised on purpose, neither bad input nor a failed run: results that disagree (KeyConflict).
    if (e instanceof SimError) {
      io.err(`sim: ${e.message}`);
      return 1;
    }
    io.err(`sim: internal error (a bug in the simulator): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return 1;
  }
}

async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  // Nothing at all: say what sim takes (it said "missing --platform", as if a run had been asked for).
  if (argv.length === 0) throw new InputError('expected a run, sim --platform <name|file> <app> (e.g. sim --platform alewife apps/stencil), or a command (sim --help lists them)');
  // Each command is imported only when asked for: a start-up loads what it runs.
  const sub = argv[0] === 'sweep' && ['merge', 'status', 'slurm', 'export'].includes(argv[1]) ? `sweep ${argv[1]}` : argv[0];
  const rest = argv.slice(sub === undefined ? 1 : sub.split(' ').length);
  const asksHelp = rest.includes('--help') || rest.includes('-h');
  // sim help --help: help's own help (it said "unknown command --help").
  if (sub === 'help') return help(asksHelp && rest.length === 1 ? ['help'] : rest, io);
  // sim run --help is the run command's help, as every command's (it printed the whole help).
  const known = sub !== undefined && (await import('./commands.ts')).COMMANDS[sub] !== undefined;
  if (known && asksHelp) return help([sub], io);
  switch (sub) {
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
    case 'sweep merge':
    case 'sweep status':
    case 'sweep slurm':
    case 'sweep export':
      return (await import('./sweep-command.ts')).sweepCommand(argv.slice(1), io, showsProgress());
    case 'study':
      return (await import('./study-command.ts')).studyCommand(rest, io, showsProgress());
    case 'worker':
      return (await import('./worker-command.ts')).workerCommand(rest, io);
    case 'apps':
    case 'params':
      return (await import('./apps-command.ts')).appsCommand(sub, rest, io);
    case 'explore': {
      const { run, runs, repros } = (await import('./run-args.ts')).parseExploreArgs(rest);
      return (await import('./explore-command.ts')).exploreCommand(run, runs, repros, io, showsProgress());
    }
    case 'replay': {
      const { file, stopAt, json } = (await import('./run-args.ts')).parseReplayArgs(rest);
      return (await import('./replay-command.ts')).replayCommand(file, stopAt, io, json);
    }
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.out(`sim ${simulatorVersion()}`);
    return 0;
  }
  // `sim run ...` is a run, like `sim --platform ...`.
  const runArgv = sub === 'run' ? rest : argv;
  const { parseArgv, toRunArgs } = await import('./run-args.ts');
  const parsed = parseArgv(runArgv);
  if (parsed.values.help === true) return help([], io);
  if (parsed.values.version === true) {
    // `sim --version foo` printed the version, its argument passed over, where any other word is refused.
    const others = runArgv.filter((a) => a !== '--version' && a !== '-v');
    if (others.length > 0) throw new InputError(`--version takes nothing else; got ${others.join(' ')}`);
    io.out(`sim ${simulatorVersion()}`);
    return 0;
  }
  if (sub !== 'run' && sub !== undefined && !sub.startsWith('-') && parsed.values.platform === undefined && parsed.positionals.length > 0 && parsed.positionals[0] === sub) {
    // The first word is neither a command nor an option: say so rather than blame a missing --platform.
    const { COMMAND_NAMES } = await import('./commands.ts');
    if (!/[/.]/.test(sub)) throw new InputError(`unknown command ${sub} (expected one of: ${COMMAND_NAMES.filter((n) => !n.includes(' ')).join(', ')}, or --platform <p> <app> for a run)`);
  }
  return (await import('./run-command.ts')).runCommand(toRunArgs(parsed), io, showsProgress());
}

/** `sim help [<command>]`, `sim <command> --help`. */
async function help(args: readonly string[], io: Io): Promise<number> {
  const { COMMANDS, COMMAND_NAMES } = await import('./commands.ts');
  const { commandHelp, helpText } = await import('./help.ts');
  const name = args.join(' ');
  if (name === '') {
    const { platformNames } = await import('./load-inputs.ts');
    io.out(helpText(platformNames()));
    return 0;
  }
  if (COMMANDS[name] === undefined) throw new InputError(`sim help: unknown command ${name} (expected one of: ${COMMAND_NAMES.join(', ')})`);
  io.out(commandHelp(name));
  return 0;
}

/** Progress bars go to an interactive stderr only, never in CI. */
function showsProgress(): boolean {
  return process.stderr.isTTY === true && process.env.CI === undefined;
}
