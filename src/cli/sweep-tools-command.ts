/**
 * The tools around a sweep's results: `sim sweep merge <results.jsonl> [--missing]`
 * (parts → final file, or what is missing and the Slurm `--array=` to redo it),
 * `sim sweep status <sweep-file> --out <results.jsonl> [--queue URL]`, `sim sweep slurm
 * <sweep-file> --out <results.jsonl> --tasks N ...` (prints an sbatch array script) and
 * `sim sweep export <results.jsonl> --format csv [--columns ...] [-o file]`.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../kernel/errors.ts';
import { resultsCsv } from '../sweep/export-csv.ts';
import { collectParts, finalPieces, ranges, shardsWithGaps, type Collected } from '../sweep/merge.ts';
import { checkResultsOwner, listParts, nodeVersions } from '../sweep/parts.ts';
import { checkSlurmOptions, shellQuote, slurmScript } from '../sweep/slurm.ts';
import type { Io } from './io.ts';
import { checkOutputFile, checkSeekableOutput, checkSeparateFiles, RESULTS_READ_BACK, writeFileAtomic } from './output-file.ts';
import { commaEntries, intOption, MAX_WORKERS } from './parse-options.ts';
import { PROJECT_ROOT } from './project.ts';
import { parseCommand, queueOption, required } from './sweep-args.ts';
import { expandFile, recordedFor, tally, tallyText } from './sweep-setup.ts';

export const SWEEP_TOOLS = ['merge', 'status', 'slurm', 'export'];

const BIN_SIM = join(PROJECT_ROOT, 'bin', 'sim.mjs');

export async function sweepToolCommand(tool: string, argv: readonly string[], io: Io): Promise<number> {
  switch (tool) {
    case 'merge':
      return mergeCommand(argv, io);
    case 'status':
      return statusCommand(argv, io);
    case 'slurm':
      return slurmCommand(argv, io);
    default:
      return exportCommand(argv, io);
  }
}

/** The shard counts the parts of `out` were written with. */
const shardCounts = (out: string): number[] => [...new Set(listParts(out).flatMap((p) => (p.shards === null || p.shards === 1 ? [] : [p.shards])))].sort((a, b) => a - b);

function missingLines(out: string, c: Collected): string[] {
  const lines = [`missing runs: ${ranges(c.missing)}`];
  for (const n of shardCounts(out)) lines.push(`shards of ${n} with gaps: --array=${shardsWithGaps(c.missing, n).join(',')}`);
  return lines;
}

function mergeCommand(argv: readonly string[], io: Io): number {
  const { values, positionals } = parseCommand('sim sweep merge', argv, 1);
  const out = positionals[0];
  const c = collectParts(out);
  const t = tally(c);
  const versions = nodeVersions(out);
  if (new Set(versions.map((v) => v.split('.')[0])).size > 1) io.err(`sim sweep merge: warning: the runs ran on different Node majors (${versions.join(', ')}); results agree only as far as their floats do`);
  if (values.json === true) {
    const n = shardCounts(out);
    io.out(JSON.stringify({ sweep: c.header.sweep, runs: c.header.runs, ...t, missingRuns: c.missing, shardsWithGaps: Object.fromEntries(n.map((k) => [k, shardsWithGaps(c.missing, k)])), wrote: c.missing.length === 0 ? out : null }));
  }
  if (c.missing.length > 0) {
    if (values.json !== true) {
      io.out(`sim sweep merge: ${out}: ${c.header.runs} runs: ${tallyText(t)}; not written`);
      if (values.missing === true) for (const line of missingLines(out, c)) io.out(line);
    }
    return 1;
  }
  // As sim sweep does: merge wrote its parts over whatever the file held (another sweep's
  // finished results, or a file of the user's), exit 0.
  checkResultsOwner(out, c.header, `sim sweep merge ${out}`);
  writeFileAtomic('sim sweep merge', out, finalPieces(c, out));
  if (values.json !== true) io.out(`sim sweep merge: wrote ${out}: ${c.header.runs} runs: ${tallyText(t)}`);
  return 0;
}

async function statusCommand(argv: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('sim sweep status', argv, 1);
  const out = required('sim sweep status', 'out', values.out, 'results.jsonl');
  const queue = queueOption(values.queue);
  // A typo's folder, or a file that is no results file, was "every run missing", exit 0: as sim sweep refuses them.
  const folder = dirname(resolve(out));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new InputError(`--out ${out}: no such folder ${folder}; expected the folder of the sweep's results`);
  const sweep = await expandFile(positionals[0]);
  checkResultsOwner(out, sweep.header);
  const c = recordedFor(out, sweep);
  const t = tally(c);
  let jobs: Record<string, number> | null = null;
  if (queue !== undefined) {
    const { queueCounts } = await import('./sweep-queue-command.ts');
    jobs = await queueCounts(queue, sweep.runs.filter((r) => c.byIndex[r.i] === undefined));
  }
  if (values.json === true) {
    io.out(JSON.stringify({ sweep: sweep.header.sweep, runs: sweep.runs.length, ...t, missingRuns: c.missing, queue: jobs }));
    return 0;
  }
  io.out(`sim sweep status: ${sweep.header.sweep}: ${sweep.runs.length} runs: ${tallyText(t)}`);
  if (c.missing.length > 0) for (const line of missingLines(out, c)) io.out(line);
  if (jobs !== null) io.out(`queue: ${c.missing.length === 0 ? 'nothing missing' : `of the missing runs, ${Object.entries(jobs).map(([k, v]) => `${v} ${k}`).join(', ')}`}`);
  return 0;
}

async function slurmCommand(argv: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('sim sweep slurm', argv, 1);
  const out = required('sim sweep slurm', 'out', values.out, 'results.jsonl');
  const tasks = intOption('tasks', required('sim sweep slurm', 'tasks', values.tasks, 'N'), 1, 1, 1000);
  // Each task runs --workers $SLURM_CPUS_PER_TASK: 300 made a script every task of which failed.
  const cpus = intOption('cpus', values.cpus, 1, 1, MAX_WORKERS);
  const maxRunning = values['max-running'] === undefined ? undefined : intOption('max-running', values['max-running'], 1, 1, 1000);
  const time = values.time as string | undefined;
  const partition = values.partition as string | undefined;
  // What every task's sim sweep checks first, checked here: a script with --out the sweep file,
  // a folder or a part printed, exit 0, and each array task then failed on it.
  checkSeparateFiles([['sweep', positionals[0]], ['--out', out]]);
  checkOutputFile('--out', out);
  checkSeekableOutput('--out', out, RESULTS_READ_BACK);
  const sweep = await expandFile(positionals[0]);
  // ... and so are an --out or parts that another sweep's results hold.
  checkResultsOwner(out, sweep.header);
  recordedFor(out, sweep);
  checkSlurmOptions({ tasks, runs: sweep.runs.length, time, partition, maxRunning });
  const sim = `node ${shellQuote(BIN_SIM)}`;
  io.out(slurmScript({ name: sweep.header.sweep, runs: sweep.runs.length, sweepFile: positionals[0], out, tasks, cpus, time, partition, maxRunning, cwd: resolve('.'), sim }).trimEnd());
  return 0;
}

function exportCommand(argv: readonly string[], io: Io): number {
  const { values, positionals } = parseCommand('sim sweep export', argv, 1);
  if (values.format !== 'csv') throw new InputError(`sim sweep export: --format ${String(values.format ?? '(missing)')}: expected --format csv`);
  const columns = typeof values.columns === 'string' ? commaEntries('--columns', values.columns, 'column names separated by commas').map((c) => c.trim()) : undefined;
  const out = typeof values.out === 'string' ? values.out : undefined;
  checkSeparateFiles([['results', positionals[0]], ['-o', out]]);
  if (out !== undefined) checkOutputFile('-o', out);
  const csv = resultsCsv(positionals[0], columns);
  if (out !== undefined) {
    writeFileAtomic('-o', out, csv);
    io.out(`sim sweep export: wrote ${out}`);
  } else for (const piece of csv) io.write('stdout', piece);
  return 0;
}

