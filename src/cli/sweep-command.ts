/**
 * `sim sweep <sweep-file> --out results.jsonl [--workers K] [--shard i/n] [--queue URL]
 * [--dry-run] [--progress s] [--json]`: expands the sweep (checking every run's app, parameters and
 * machine size before anything starts), skips the runs any part already records, runs
 * the rest locally or through a BullMQ queue, and writes the final results file in
 * sweep order once nothing is missing (a shard leaves that to `sim sweep merge`).
 * `sim sweep merge|status|slurm|export` are in sweep-tools-command.ts.
 */
import { partPath } from '../sweep/part-names.ts';
import type { Io } from './io.ts';
import { intOption, MAX_WORKERS } from './parse-options.ts';
import { parseCommand, queueOption, required, shardOption } from './sweep-args.ts';
import { checkOutputFile, checkSeekableOutput, checkSeparateFiles, RESULTS_READ_BACK } from './output-file.ts';
import { parseProgressSeconds, progressStyle } from './progress.ts';
import { signalExitCode } from './run-driver.ts';
import { checkExecutor, executeSweep, pendingRuns } from './sweep-execute.ts';
import { expandFile, tally, tallyText } from './sweep-setup.ts';
import { sweepToolCommand, SWEEP_TOOLS } from './sweep-tools-command.ts';

export async function sweepCommand(argv: readonly string[], io: Io, showProgress: boolean): Promise<number> {
  if (SWEEP_TOOLS.includes(argv[0])) return sweepToolCommand(argv[0], argv.slice(1), io);
  const { values, positionals } = parseCommand('sim sweep', argv, 1);
  const out = required('sim sweep', 'out', values.out, 'results.jsonl');
  const workers = intOption('workers', values.workers, 1, 1, MAX_WORKERS);
  const shard = shardOption(values.shard);
  const queue = queueOption(values.queue);
  const progressSeconds = parseProgressSeconds(typeof values.progress === 'string' ? values.progress : undefined, 'sim sweep: ');
  checkExecutor({ workers, shard, queue }, values.workers !== undefined, 'sim sweep');
  checkSeparateFiles([['sweep', positionals[0]], ['--out', out]]);
  // Not a part's name either: `sim sweep s.json -o r.jsonl.part-2-of-2` wrote over that part.
  checkOutputFile('--out', out);
  // A FIFO was opened to read its header back, and the sweep waited on it for ever.
  checkSeekableOutput('--out', out, RESULTS_READ_BACK);
  const sweep = await expandFile(positionals[0]);
  const label = `sim sweep ${sweep.header.sweep}${shard.count > 1 ? ` (shard ${shard.index}/${shard.count})` : ''}`;
  if (values['dry-run'] === true) {
    const { todo, mine } = pendingRuns(sweep, out, shard);
    const summary = { sweep: sweep.header.sweep, runs: sweep.runs.length, shard: `${shard.index}/${shard.count}`, inShard: mine, recorded: mine - todo.length, toRun: todo.length };
    io.out(values.json === true ? JSON.stringify(summary) : `${label}: ${sweep.runs.length} runs; ${mine - todo.length} of ${mine} already recorded; would run ${todo.length}`);
    return 0;
  }

  const style = progressStyle(progressSeconds, showProgress && values.json !== true, io);
  const x = await executeSweep(sweep, out, { workers, shard, queue }, io, style, label);
  const { after, wrote, shardMissing } = x;
  const outcome = { ran: x.ran, refused: x.refused };
  const t = tally(after);
  if (values.json === true) {
    io.out(JSON.stringify({ sweep: sweep.header.sweep, runs: sweep.runs.length, shard: `${shard.index}/${shard.count}`, ran: outcome.ran, ...t, wrote: wrote ? out : null, refused: outcome.refused, ...(x.interrupted === null ? {} : { interrupted: x.interrupted }) }));
  } else {
    const where = wrote ? `wrote ${out}` : shard.count > 1 ? `part ${partPath(out, shard)}${after.missing.length === 0 ? `; all runs recorded: sim sweep merge ${out}` : ''}` : `not all runs recorded yet`;
    io.out(`${label}: ${sweep.runs.length} runs: ${tallyText(t)}; ran ${outcome.ran}, ${x.recordedBefore} already recorded; ${where}`);
  }
  for (const r of outcome.refused) io.err(`sim sweep: refused: ${r}`);
  if (x.interrupted !== null) io.err(`sim sweep: stopped by ${x.interrupted}; what finished is recorded: run the same command again to run the ${shardMissing} missing runs`);
  // Stopped by Ctrl-C or SIGTERM: the signal's status, as a local sweep's (it said 1, "runs missing").
  if (x.interrupted !== null) return signalExitCode(x.interrupted);
  return shardMissing === 0 ? 0 : 1;
}
