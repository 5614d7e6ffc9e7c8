/**
 * `sim study <name> --platform <p|all> [--nodes N[,N...]] --out <dir> [--trials N]
 * [--max-grid N] [--max-keys N] [--seed S] [--models <dir>] [--workers K] [--shard
 * i/n] [--queue URL] [--dry-run] [--json]` (issue 21): runs a validation study
 * (src/study) round by round, each round a sweep (`<out>/runs/round-<k>.sweep.json`,
 * results `<out>/runs/round-<k>.jsonl`), so the sweep executors and resuming work as
 * for `sim sweep`: a study rerun with the same inputs reuses every recorded run and
 * asks for the same rounds. Once complete it writes the raw rows (`<name>.jsonl`,
 * `<name>.csv`), the summary (`<name>.summary.txt`, `.summary.json`) and the figure
 * (`<name>.svg`), all the same bytes on every rerun.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../kernel/errors.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { selectContext, type SelectContext } from '../library/module.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { STRATA_MAX_XFER_OFFSET } from '../runtime/ports.ts';
import { MAX_SWEEP_RUNS } from '../sweep/expand.ts';
import { canonicalJson, sha256 } from '../sweep/canonical.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { finalPieces } from '../sweep/merge.ts';
import { readParts, resultsHeaderOf } from '../sweep/parts.ts';
import { WINDOW_BYTES } from '../sweep/part-scan.ts';
import type { ResultsHeader } from '../sweep/result-line.ts';
import { openResults, resultLines } from '../sweep/results-file.ts';
import { inShard } from '../sweep/shard.ts';
import { STUDIES, STUDY_NAMES, runId, type Measured, type Study, type StudyOptions, type StudyPlatform, type StudyRun } from '../study/index.ts';
import type { Io } from './io.ts';
import { loadPlatform, platformNames, projectPath } from './load-inputs.ts';
import { loadModelSet } from './model-files.ts';
import { checkOutputFolder, writeFileAtomic } from './output-file.ts';
import { simulatorVersion } from './project.ts';
import { signalExitCode } from './run-driver.ts';
import { commaEntries, intOption, MAX_WORKERS, parseOptions } from './parse-options.ts';
import { queueOption, shardOption } from './sweep-args.ts';
import { checkExecutor, executeSweep, type Executor } from './sweep-execute.ts';
import { expandFile } from './sweep-setup.ts';
import { parseProgressSeconds, planningProgress, progressStyle, type ProgressStyle } from './progress.ts';
import { modelHashes, studyFiles, type ModelHash, type StudyInputs } from './study-files.ts';

/** The study, its options, its command (no --out or executor options: they do not change the results) and models; and how to run it. */
interface StudyArgs extends StudyInputs {
  out: string;
  executor: Executor;
  dryRun: boolean;
  json: boolean;
  /** `--progress`: seconds between two progress lines, or null. */
  progress: number | null;
}

/**
 * Refuses, before planning, a --trials whose round cannot fit one sweep even at the
 * most runs a trial makes: planning 100,000 stencil-selection trials on all platforms
 * took hours before the round's size was known and refused.
 */
function refuseUnplannable(study: Study, options: StudyOptions): void {
  const { mostRunsPerTrial, trialsOverPlatforms } = study.defaults;
  if (mostRunsPerTrial === undefined || options.trials === null) return;
  const perPlatform = options.platforms.map(mostRunsPerTrial);
  // A trial on each platform (and size), or (digit-width) one on one platform of them.
  const perTrial = (trialsOverPlatforms === true ? Math.max(...perPlatform) : perPlatform.reduce((a, b) => a + b, 0)) * options.nodes.length;
  const most = Math.floor(MAX_SWEEP_RUNS / perTrial);
  if (options.trials <= most) return;
  const sizes = `${options.platforms.length} platform${options.platforms.length === 1 ? '' : 's'} and ${options.nodes.length} machine size${options.nodes.length === 1 ? '' : 's'}`;
  const each = new Set(perPlatform).size === 1 ? `${perPlatform[0]} runs` : options.platforms.map((p, k) => `${perPlatform[k]} runs on ${p.name}`).join(', ');
  throw new InputError(`--trials ${options.trials}: expected at most ${most} for ${study.name} on ${sizes} (a trial makes up to ${each}, and a round is one sweep of at most ${MAX_SWEEP_RUNS})`);
}

export async function studyCommand(argv: readonly string[], io: Io, showProgress: boolean): Promise<number> {
  const args = await parseStudyArgs(argv);
  const { study } = args;
  const style = progressStyle(args.progress, showProgress && !args.json, io);
  // Planning a stencil study's trials takes minutes for 100,000 of them: a bar on a terminal (or lines) says how far it is.
  const planning = planningProgress(style, `sim study ${study.name}: planning`);
  const options: StudyOptions = { ...args.options, onPlanned: planning.onPlanned };
  try {
    return await runStudy(args, options, io, style);
  } finally {
    planning.stop();
  }
}

async function runStudy(args: StudyArgs, options: StudyOptions, io: Io, style: ProgressStyle): Promise<number> {
  const { study, out } = args;
  const runsDir = join(out, 'runs');
  const measured = new Map<string, Measured>();
  refuseUnplannable(study, options);
  // An unreachable queue is refused before anything is written (it left the round's sweep file in --out).
  const { queue } = args.executor;
  if (queue !== undefined && !args.dryRun) (await (await import('../sweep/queue-connection.ts')).connectRedis(queue)).disconnect();
  for (let round = 1; ; round++) {
    const runs = study.next(options, measured);
    if (runs.length === 0) break;
    if (runs.length > MAX_SWEEP_RUNS) {
      throw new InputError(`sim study ${study.name}: round ${round} has ${runs.length} runs, more than a sweep takes (${MAX_SWEEP_RUNS}); expected fewer --trials (or --platform, --nodes)`);
    }
    const sweepText = `${JSON.stringify({ name: `${study.name}-round-${round}`, runs: runs.map(sweepEntry) }, null, 1)}\n`;
    const results = join(runsDir, `round-${round}.jsonl`);
    refuseOtherStudy(args, round, results, sha256(sweepText));
    if (args.dryRun) {
      // What --out holds already counts: a finished study's dry run said its round 1 would run.
      // With --shard, the shard's runs (it counted the whole round's, as if --shard were not given).
      const { shard } = args.executor;
      const recorded = recordedOfRound(results, sha256(sweepText), (i) => inShard(i, shard));
      if (recorded === 'merged') {
        readRound(results, runs, measured);
        continue;
      }
      const mine = runs.filter((_, i) => inShard(i, shard)).length;
      const whose = shard.count === 1 ? `its ${runs.length} runs` : `the ${mine} of its ${runs.length} runs in shard ${shard.index}/${shard.count}`;
      const text = `sim study ${study.name}: round ${round} would run ${mine - recorded} of ${whose} (${recorded} recorded)${study.defaults.inRounds ? '; later rounds depend on its results' : ''}`;
      const shardJson = shard.count === 1 ? {} : { shard: `${shard.index}/${shard.count}`, inShard: mine };
      io.out(args.json ? JSON.stringify({ study: study.name, round, runs: runs.length, ...shardJson, recorded, complete: false }) : text);
      return 0;
    }
    mkdirSync(runsDir, { recursive: true });
    const sweepFile = join(runsDir, `round-${round}.sweep.json`);
    writeFileAtomic('--out', sweepFile, sweepText);
    const sweep = await expandFile(sweepFile);
    const label = `sim study ${study.name} round ${round}${args.executor.shard.count > 1 ? ` (shard ${args.executor.shard.index}/${args.executor.shard.count})` : ''}`;
    const done = await executeSweep(sweep, results, args.executor, io, style, label);
    for (const r of done.refused) io.err(`sim study: refused: ${r}`);
    // Under --shard the last shard to finish a round (or any rerun after) merges it, so the study can go on.
    if (!done.wrote && done.after.missing.length === 0) writeFileAtomic('--out', results, finalPieces(done.after, results));
    else if (!done.wrote) {
      const why = args.executor.shard.count > 1 && done.shardMissing === 0 ? `this shard's ${done.mine} runs are recorded; the round completes when every shard's are (then rerun any shard, or the study without --shard, to go on)` : `${done.after.missing.length} runs still missing`;
      io.out(args.json ? JSON.stringify({ study: study.name, round, runs: runs.length, ran: done.ran, complete: false }) : `sim study ${study.name}: round ${round} (${runs.length} runs): ran ${done.ran}; ${why}`);
      if (done.interrupted !== null) {
        io.err(`sim study: stopped by ${done.interrupted}; what finished is recorded: run the same command again to go on`);
        return signalExitCode(done.interrupted);
      }
      return done.shardMissing === 0 && args.executor.shard.count > 1 ? 0 : 1;
    }
    readRound(results, runs, measured);
    if (done.ran > 0 && !args.json) io.err(`sim study ${study.name}: round ${round}: ran ${done.ran} of ${runs.length} runs`);
  }
  // Other options that asked for these very runs (the rounds' check cannot see them) have made the summary there.
  refuseOtherSummary(args);
  if (args.dryRun) {
    const none = measured.size === 0 ? 'the study has no runs at these settings' : 'every run is recorded';
    io.out(args.json ? JSON.stringify({ study: study.name, complete: true }) : `sim study ${study.name}: ${none}; nothing would run`);
    return 0;
  }
  const rows = study.rows(options, measured);
  // The header names only the models the study declares; asking for another is a bug in the study.
  for (const p of options.platforms) {
    for (const n of options.nodes) {
      const stray = p.context(n).models.used().filter((name) => !study.usesModel(name));
      if (stray.length > 0) throw new Error(`sim study ${study.name} used ${stray.join(', ')}, which its usesModel does not declare`);
    }
  }
  // Settings that draw no trial (a --max-grid with no grid near a boundary) made a summary of "0 of 0" that passed.
  if (measured.size === 0) io.err(`sim study ${study.name}: the study has no runs at these settings; its summary measures nothing (its checks say n/a)`);
  const { files, summary } = studyFiles(args, rows, measured.size);
  // A study with no runs at these settings made no round, and so no folder (its files were "ENOENT").
  mkdirSync(out, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileAtomic('--out', join(out, file), text);
  // As the dry run and an unfinished round say whether it is: jq .complete read null of a finished one.
  if (args.json) io.out(JSON.stringify({ complete: true, ...summary }));
  else io.out(files[`${study.name}.summary.txt`].trimEnd());
  return 0;
}

/**
 * How much of a round `results` holds for the round's sweep of hash `sha`: 'merged' when
 * its results file is written, else the runs its parts record that `counts` takes (the
 * shard's, by index; 0 for another sweep's).
 */
function recordedOfRound(results: string, sha: string, counts: (i: number) => boolean): number | 'merged' {
  if (existsSync(results) && isRound(resultsHeaderOf(results), sha)) return 'merged';
  const parts = readParts(results);
  return isRound(parts.header, sha) ? [...parts.byKey.values()].filter((line) => counts(line.i)).length : 0;
}

/** Whether results of header `h` are those of the round's sweep of hash `sha`, by this simulator. */
function isRound(h: ResultsHeader | null, sha: string): boolean {
  return h !== null && h.sweepSha256 === sha && h.simulator === simulatorVersion();
}

/**
 * Refuses an --out whose round `round` holds another sweep's results (merged or in parts):
 * the study was made there with other options. Checked before the round's sweep file is
 * written: a rerun with another --trials rewrote it, then the sweep refused the round's
 * results ("holds the results of sweep s-round-1 ..., not s-round-1"), leaving the sweep
 * file and the results at odds; and a dry run said the round would run.
 * @throws InputError naming --out
 */
function refuseOtherStudy(args: StudyArgs, round: number, results: string, sha: string): void {
  let header: ResultsHeader | null;
  try {
    header = existsSync(results) ? resultsHeaderOf(results) : readParts(results).header;
  } catch {
    return; // not a results file or parts of one: the sweep says so in its own words
  }
  if (header === null || isRound(header, sha)) return;
  // Another study's folder was said to hold this study "made with other options".
  const own = `${args.study.name}-round-${round}`;
  if (header.sweep !== own) throw new InputError(`--out ${args.out}: holds the runs of another study (its round ${round} is sweep "${header.sweep}"), not a ${args.study.name} study; use another --out`);
  const made = header.simulator === simulatorVersion() ? 'made with other options (--trials, --seed, --platform, --nodes or the study\'s own)' : `made by simulator ${header.simulator} (this is ${simulatorVersion()})`;
  throw new InputError(`--out ${args.out}: holds a ${args.study.name} study ${made}: its round ${round} has other runs; use another --out, or remove it to start again`);
}

/**
 * Refuses an --out whose finished summary was made with other options that asked for the
 * same runs (--max-keys 400 and 401, other --models): the rounds' check cannot see them,
 * and the summary, rows and figure were replaced without a word. The command as typed may
 * differ (another spelling of a path); what it asked for may not.
 * @throws InputError naming --out and the summary's command
 */
function refuseOtherSummary(args: StudyArgs): void {
  const file = join(args.out, `${args.study.name}.summary.json`);
  if (!existsSync(file)) return;
  let recorded: Record<string, unknown>;
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return; // not a summary: the study's write replaces it, as it does any file of its names
  }
  if (recorded === null || typeof recorded !== 'object') return;
  if (asked(args.study, recorded.command, recorded.models) === asked(args.study, args.command, args.models)) return;
  const command = typeof recorded.command === 'string' ? `: ${escapeLineBreaking(recorded.command)}` : '';
  throw new InputError(`--out ${args.out}: holds a ${String(recorded.study)} study made with other options or models${command}; use another --out, or remove it to start again`);
}

/**
 * What a study's command (as parseStudyArgs writes it: the options given, --models last)
 * and models ask for, as one string: each option's value or the study's default (a
 * command without --trials asks what one with the default --trials does), the models by
 * their hashes, not the folder as it was typed. Not the summary's header fields: a
 * study's own summary may use their names (digit-width's trials).
 */
function asked(study: Study, command: unknown, models: unknown): string {
  const text = typeof command === 'string' ? command.replace(/ --models .*$/, '') : '';
  const option = (name: string, fallback: unknown) => new RegExp(`(?:^| )--${name} (.*?)(?= --|$)`).exec(text)?.[1] ?? fallback;
  const d = study.defaults;
  return canonicalJson({
    study: text.split(' ')[2] ?? null,
    platform: option('platform', null),
    nodes: option('nodes', d.nodes.join(',')),
    // A study whose trials depend on the machine size (stencil-selection: 100 at 16 and 32
    // nodes, 300 at 64) has no one default to fill in: --trials 100 at 16 nodes was refused
    // as another request. Its trials change its runs, which the rounds' check compares.
    trials: d.trials === null ? null : Number(option('trials', d.trials)),
    maxGrid: Number(option('max-grid', d.maxGrid)),
    maxKeys: Number(option('max-keys', d.maxKeys)),
    seed: Number(option('seed', 1)),
    models: Array.isArray(models) ? models.map((m: Partial<ModelHash> | null) => ({ platform: m?.platform, model: m?.model, sha256: m?.sha256 })) : null,
  });
}

/** A study run as a sweep entry: one run, one seed. */
function sweepEntry(r: StudyRun) {
  return { app: r.app, platform: r.platform, nodes: r.nodes, params: r.params, seeds: [r.seed] };
}

/**
 * Reads a complete round's results into `measured`: line i is the round's run i (one
 * entry, one seed each). Read a window of lines at a time (results-file.ts), as a round
 * of a million runs is more than one string holds, each line parsed once.
 */
export function readRound(file: string, runs: readonly StudyRun[], measured: Map<string, Measured>, window = WINDOW_BYTES): void {
  // A dry run reads a merged round's file as it is (a rerun merges it again from the
  // parts first): a line cut short was "internal error: SyntaxError", a null line a
  // TypeError, and a line at another's place was read as this run's measurement.
  for (const { i, where, line } of resultLines(openResults(file, "remove the round's files to run it again", runs.length), window)) {
    const { status, summary, error } = line as { status: string; summary: { metrics?: Record<string, unknown> } | null; error: { message: string } | null };
    const cycles = summary?.metrics?.cycles;
    let m: Measured;
    if (status === 'failed') m = { cycles: null, failure: error?.message ?? 'failed' };
    else if (status !== 'verified') m = { cycles: null, failure: 'the run did not verify' };
    else if (typeof cycles !== 'number' || !Number.isFinite(cycles)) m = { cycles: null, failure: 'the app reported no cycles metric' };
    // A run takes a positive whole number of cycles: an edited 0 stopped the study in its
    // fit ("fitModel: a sample of 0 cycles"), and -5 was scored "-839260.00% (optimal)".
    else if (!Number.isSafeInteger(cycles) || cycles < 1) throw new InputError(`${where}: run ${i} took ${cycles} cycles; expected a positive whole number, as a run records; remove the round's files to run it again`);
    else m = { cycles, failure: null };
    measured.set(runId(runs[i]), m);
  }
}

/** The largest --max-grid: 8192 x 8192 is 2^26 points, the most apps/stencil takes. */
const MAX_GRID = 8192;

const int = (option: string, v: string | boolean | undefined, min: number, max: number): number | undefined => (v === undefined ? undefined : intOption(option, v, 0, min, max));

export async function parseStudyArgs(argv: readonly string[]): Promise<StudyArgs> {
  const parsed = parseOptions('study', argv);
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (parsed.positionals.length !== 1) throw new InputError(`sim study: expected one study name (${STUDY_NAMES.join(', ')}), got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.join(' ')}`);
  const name = parsed.positionals[0];
  const study = STUDIES.find((s) => s.name === name);
  if (study === undefined) throw new InputError(`sim study: unknown study ${name} (expected one of: ${STUDY_NAMES.join(', ')})`);
  if (typeof v.platform !== 'string') throw new InputError('sim study: missing --platform <name|file|all>');
  if (typeof v.out !== 'string' || v.out === '') throw new InputError('sim study: missing --out <dir>: the folder for the runs, rows, summary and figure');
  // A dry run writes nothing: a read-only --out holding a finished study was refused (EROFS).
  if (v['dry-run'] !== true) checkOutputFolder('--out', v.out);
  // The rounds' folder as a file was an internal error with a stack (EEXIST at mkdir; ENOTDIR in a dry run).
  for (const [dir, what] of [[v.out, 'is a file'], [join(v.out, 'runs'), "holds a file named runs, where the study keeps its rounds' sweeps"]]) {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InputError(`--out ${v.out}: ${what}; expected a folder`);
  }
  const d = study.defaults;
  for (const option of ['trials', 'max-grid', 'max-keys'] as const) {
    if (v[option] !== undefined && !d.takes.includes(option)) throw new InputError(`sim study ${study.name}: takes no --${option} (it takes ${d.takes.map((o) => `--${o}`).join(', ')})`);
  }
  // At most 100,000 (help and README say so): planning that many stencil trials takes minutes.
  const trials = int('trials', v.trials, d.minTrials, 100_000) ?? d.trials;
  // At most 8192: a grid of both sides past it can pass the stencil's 2^26 points (apps/stencil), and the
  // study stopped on a drawn 5042 x 13497 grid with a message that named no option.
  const maxGrid = int('max-grid', v['max-grid'], 16, MAX_GRID) ?? d.maxGrid ?? 0;
  // Sample sort's runs have room for 2 x keys (its default memory), addressed by block transfer offsets.
  const maxKeys = int('max-keys', v['max-keys'], 16, Math.floor(STRATA_MAX_XFER_OFFSET / 2)) ?? d.maxKeys ?? 0;
  const seed = int('seed', v.seed, 0, MAX_SEED) ?? 1;
  const nodes = v.nodes === undefined ? [...d.nodes] : nodeList(String(v.nodes));
  const specs = v.platform === 'all' ? platformNames() : [v.platform];
  const models = typeof v.models === 'string' ? v.models : undefined;
  const platforms: StudyPlatform[] = [];
  const hashes: ModelHash[] = [];
  // Each models file read and hashed once, however many of its models the study depends on.
  const fileHashes = new Map<string, Map<string, string>>();
  const hashOf = (source: string, platform: string, name: string): string => {
    let byModel = fileHashes.get(source);
    if (byModel === undefined) {
      byModel = modelHashes(readFileSync(existsSync(resolve(source)) ? resolve(source) : projectPath(source), 'utf8'));
      fileHashes.set(source, byModel);
    }
    return byModel.get(`${platform}/${name}`)!;
  };
  for (const spec of specs) {
    const platform = await loadPlatform(spec);
    const contexts = new Map<number, SelectContext>();
    for (const n of nodes) {
      const problem = nodeCountProblem(platform.network, n);
      if (problem !== null) throw new InputError(`--nodes ${n}: ${problem} (platform ${platform.name})`);
      // Every model set is read now, so a missing model file is one line before anything runs.
      // A study records every prediction: a negative one is refused while planning, before anything runs.
      const set = loadModelSet(platform, n, models).refuseNegative();
      contexts.set(n, selectContext(platform, n, set));
      // The models the study depends on, each by its own hash: recalibrating another leaves the summary true.
      for (const name of set.names()) {
        const source = set.sourceOf(name)!;
        if (!study.usesModel(name) || hashes.some((h) => h.file === source && h.platform === platform.name && h.model === name)) continue;
        hashes.push({ file: source, platform: platform.name, model: name, sha256: hashOf(source, platform.name, name) });
      }
    }
    platforms.push({ spec, name: platform.name, clockMHz: platform.clockMHz, timerInterrupts: platform.timerInterrupt !== null, context: (n) => contexts.get(n)! });
  }
  const workers = intOption('workers', v.workers, 1, 1, MAX_WORKERS);
  const executor: Executor = { workers, shard: shardOption(v.shard), queue: queueOption(v.queue) };
  checkExecutor(executor, v.workers !== undefined, 'sim study');
  const command = [
    `sim study ${study.name} --platform ${v.platform}`,
    v.nodes === undefined ? '' : `--nodes ${nodes.join(',')}`,
    v.trials === undefined ? '' : `--trials ${trials}`,
    v['max-grid'] === undefined ? '' : `--max-grid ${maxGrid}`,
    v['max-keys'] === undefined ? '' : `--max-keys ${maxKeys}`,
    v.seed === undefined ? '' : `--seed ${seed}`,
    models === undefined ? '' : `--models ${models}`,
  ].filter((s) => s !== '').join(' ');
  return {
    study,
    options: { platforms, nodes, trials, maxGrid, maxKeys, seed },
    out: v.out,
    executor,
    dryRun: v['dry-run'] === true,
    json: v.json === true,
    progress: parseProgressSeconds(typeof v.progress === 'string' ? v.progress : undefined, 'sim study: '),
    command,
    models: hashes,
  };
}

/** `--nodes 16,32,64`: distinct machine sizes, ascending. */
function nodeList(text: string): number[] {
  const expected = 'machine sizes separated by commas (e.g. 16,32,64)';
  const out = commaEntries('--nodes', text, expected).map((p) => {
    const n = /^\d{1,7}$/.test(p) ? Number(p) : NaN;
    if (!(n >= 1)) throw new InputError(`--nodes ${text}: ${p} is not a machine size; expected ${expected}`);
    return n;
  });
  return [...new Set(out)].sort((a, b) => a - b);
}
