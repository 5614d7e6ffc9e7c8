/**
 * `sim calibrate --platform <p|all> <spec-file> -o <samples> [--nodes N[,N...]] [--seed S]
 * [--vcount 20] [--workers K] [--shard i/n] [--noise] [--fit <dir>]` (thesis 3.3-3.5): the samples of every
 * (platform, machine size, model) unit, in unit order, after a header naming the spec's hash, seed,
 * node count, verification count and simulator version (each unit names its platform
 * and hash). The file is the same for any number of workers; `--shard i/n` writes the
 * i-th of n contiguous ranges of units, the header only in the first, so concatenating
 * the shards in order gives the unsharded file. Nothing is written unless every unit succeeds.
 * `--fit <dir>` then fits the written samples with relative error (3.6) and writes each
 * platform's models to <dir>/<platform>.json and .ts, and the comparison with thesis
 * Fig. 6-6 to <dir>/fig-6-6.txt (platforms/models/ holds the Strata suite's).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { checkOutputFile, checkOutputFolder, checkSeparateFiles, writeFileAtomic } from './output-file.ts';
import { commaEntries, parseOptions } from './parse-options.ts';
import { SignalStop } from './signal-stop.ts';
import { join } from 'node:path';
import { counter, parseProgressSeconds, progressStyle } from './progress.ts';
import { fig66Report } from '../calibrate/fig-6-6.ts';
import { ZeroTimesError } from '../calibrate/fit-checks.ts';
import { modelsJson, modelsModule, type FittedModel, type Provenance } from '../calibrate/models.ts';
import { appTask } from '../calibrate/app-tasks.ts';
import { checkAppUnit } from '../calibrate/app-units.ts';
import { planUnit } from '../calibrate/samples.ts';
import { RunStopped, stopPoint } from '../runtime/index.ts';
import { samplesEndLine, samplesHeaderLine } from '../calibrate/samples-file.ts';
import { InputError } from '../kernel/errors.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { mapInPool } from '../sweep/pool.ts';
import { parseShard, WHOLE } from '../sweep/shard.ts';
import runUnitRequest, { loadSpecs, unitText, type UnitOutcome, type UnitRequest } from './calibrate-unit.ts';
import { fitWithProvenance, modelJson, printModels } from './fit-command.ts';
import { signalExitCode } from './run-driver.ts';
import { loadApp, loadPlatform, lookupPath, platformInput, platformNames, projectPath } from './load-inputs.ts';
import { strataSubmodels } from './model-files.ts';
import { recordedPath, simulatorVersion } from './project.ts';
import type { Io } from './io.ts';

interface CalibrateArgs {
  platforms: string[];
  /** The spec file as given, its line-breaking characters escaped (the samples' header names it), and where it is read from. */
  specFile: string;
  specPath: string;
  out: string;
  /** Machine sizes to sample on (several make log P terms identifiable); undefined: each platform's default. */
  nodes: number[] | undefined;
  seed: number;
  vcount: number;
  workers: number;
  shard: { index: number; count: number };
  noise: boolean;
  /** Where to write the fitted models, or undefined not to fit. */
  fitDir: string | undefined;
  /** Print one JSON object instead of text. */
  json: boolean;
  /** `--progress`: seconds between two progress lines, or null. */
  progress: number | null;
  /** The files read (the spec, the platforms), for the same-file check once the platforms' names are known. */
  inputs: Named[];
}

function integer(option: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new InputError(`${option} ${value}: expected an integer from ${min} to ${max}`);
  return n;
}

/** --nodes N[,N...], each once: 16,16 sampled every unit twice and doubled the samples. */
function nodeList(value: string): number[] {
  const nodes = commaEntries('--nodes', value, 'machine sizes from 1 to 4096 separated by commas (e.g. 16,32,64)').map((n) => integer('--nodes', n, 1, 4096));
  const twice = nodes.find((n, k) => nodes.indexOf(n) !== k);
  if (twice !== undefined) throw new InputError(`--nodes ${value}: ${twice} is given twice; expected each machine size once`);
  return nodes;
}

type Named = readonly [what: string, path: string];

/** The files calibrate reads and writes, which must all be different; `names`: the platforms' names, which name the models --fit writes. */
function separateFiles(inputs: readonly Named[], out: string, fit: string | undefined, names: readonly string[]): Named[] {
  return [...inputs, ['-o', out], ...(fit === undefined ? [] : [['--fit', fit] as const, ...modelFiles(fit, names).map((f) => ['--fit', f] as const)])];
}

function parseCalibrateArgs(argv: readonly string[]): CalibrateArgs {
  const parsed = parseOptions('calibrate', argv);
  const v = parsed.values as Record<string, string | undefined> & { noise?: boolean; json?: boolean };
  if (v.platform === undefined) throw new InputError('sim calibrate: missing --platform <name|all>');
  if (parsed.positionals.length !== 1) throw new InputError('sim calibrate: expected one spec file: sim calibrate --platform <p|all> <spec-file> -o <samples>');
  if (v.out === undefined) throw new InputError('sim calibrate: missing -o <samples>: where to write the samples');
  const shard = v.shard === undefined ? WHOLE : parseShard(v.shard);
  if (v.fit !== undefined && shard.count > 1) throw new InputError(`--fit ${v.fit}: fit the merged shards instead (sim fit), not one shard`);
  if (v.fit !== undefined && existsSync(v.fit) && !statSync(v.fit).isDirectory()) {
    throw new InputError(`--fit ${v.fit}: expected a directory for the models (one <platform>.json each), found a file`);
  }
  // Where the samples and models go is checked before any sampling: -o inside --fit's folder under a
  // model file's name lost the samples to the models.
  const platforms = v.platform === 'all' ? platformNames() : [v.platform];
  const specPath = lookupPath(parsed.positionals[0]);
  // The folder itself too: -o x --fit x wrote the samples as x, then could not make the folder (EEXIST).
  // The platform files are inputs too, by name in platforms/ (--fit <checkout>/platforms wrote the models over them).
  const inputs = [['spec', specPath] as const, ...platforms.map((p) => ['--platform', platformInput(p)] as const)];
  checkSeparateFiles(separateFiles(inputs, v.out, v.fit, platforms));
  checkOutputFile('-o', v.out);
  if (v.fit !== undefined) checkOutputFolder('--fit', v.fit);
  return {
    platforms,
    // As the header and messages show it, on one line: a spec named "x\nClearMemory 5 5.spec" put a
    // sample line of its name into the header, and sim fit refused the file it had just written.
    specFile: escapeLineBreaking(parsed.positionals[0]),
    specPath,
    out: v.out,
    nodes: v.nodes === undefined ? undefined : nodeList(v.nodes),
    seed: v.seed === undefined ? 1 : integer('--seed', v.seed, 0, MAX_SEED),
    vcount: v.vcount === undefined ? 20 : integer('--vcount', v.vcount, 0, 100000),
    workers: v.workers === undefined ? 1 : integer('--workers', v.workers, 1, 64),
    shard,
    noise: v.noise === true,
    fitDir: v.fit,
    json: v.json === true,
    progress: parseProgressSeconds(v.progress, 'sim calibrate: '),
    inputs,
  };
}

export async function calibrateCommand(argv: readonly string[], io: Io, showProgress: boolean): Promise<number> {
  const args = parseCalibrateArgs(argv);
  const specs = await loadSpecs(args.specFile, args.specPath);
  const requests: UnitRequest[] = [];
  const platformsRun: string[] = [];
  let plannedSamples = 0;
  /** The Strata models a spec's inputs or terms call (apps/calibration/hybrid.spec): read, so not to be written over. */
  const submodelFiles = new Set<string>();
  for (const name of args.platforms) {
    const platform = await loadPlatform(name);
    platformsRun.push(platform.name);
    for (const nodes of args.nodes ?? [platform.defaultNodes]) {
      const problem = nodeCountProblem(platform.network, nodes);
      if (problem !== null) throw new InputError(`--nodes ${nodes}: ${problem} (platform ${platform.name})`);
      for (const [specIndex, spec] of specs.entries()) {
        // Check every spec before anything runs: names, arities, expressions, loops, every sample's arguments.
        const unit = { platform, spec, source: args.specFile, nodes, seed: args.seed, vcount: args.vcount, submodels: strataSubmodels(platform, spec) };
        if (unit.submodels !== undefined) submodelFiles.add(projectPath(`platforms/models/${platform.name}.json`));
        const task = appTask(spec.task.name);
        plannedSamples += (task === undefined ? planUnit(unit) : checkAppUnit(unit, await loadApp(projectPath(task.app)))).length;
        requests.push({ platform: name, specFile: args.specFile, specPath: args.specPath, specIndex, nodes, seed: args.seed, vcount: args.vcount, noise: args.noise });
      }
    }
  }
  // Once the platforms' own names and the Strata models the specs read are known, before any sampling:
  // --fit writes <dir>/<name>.json by the name inside the platform file (--platform ./my.json, name
  // cm5, with -o d/cm5.json --fit d wrote the models over the samples), and --fit platforms/models
  // with hybrid.spec wrote its models over the Strata models it evaluated.
  checkSeparateFiles(separateFiles([...args.inputs, ...[...submodelFiles].map((f) => ['the Strata models', f] as const)], args.out, args.fitDir, platformsRun));
  // Each file --fit writes: a folder named d/cm5.ts was found when the models were written, after
  // the samples and d/cm5.json (exit 2, half the outputs written). A folder yet to make holds none.
  if (args.fitDir !== undefined && existsSync(args.fitDir)) for (const f of modelFiles(args.fitDir, platformsRun)) checkOutputFile('--fit', f);
  const { index, count } = args.shard;
  const mine = requests.slice(Math.floor(((index - 1) * requests.length) / count), Math.floor((index * requests.length) / count));

  const bar = counter(progressStyle(args.progress, showProgress, io), 'sim calibrate', 'models', mine.length, 0);
  let done = 0;
  const tick = <T>(x: T): T => {
    bar.update(++done);
    return x;
  };
  // Ctrl-C or SIGTERM stops the sampling cleanly: the units under way are given up (the
  // threads ended; a unit in the main thread, --workers 1, between two chunks of events),
  // the bar is stopped and the command says so and exits 130 / 143.
  const stop = new SignalStop();
  let texts: string[] = [];
  try {
    if (args.workers > 1 && mine.length > 1) {
      // The sweep executor's pool (src/sweep/pool.ts), the project's only one.
      const outcomes = new Array<string>(mine.length);
      const worker = { filename: new URL('./calibrate-worker.mjs', import.meta.url).href, name: 'runUnitInWorker' };
      await mapInPool<UnitRequest, UnitOutcome>(
        worker,
        mine,
        Math.min(args.workers, mine.length),
        (o, k) => {
          outcomes[k] = tick(unitText(o));
        },
        stop.signal,
      );
      texts = outcomes;
    } else {
      texts = [];
      for (const r of mine) {
        // A turn of the event loop before each unit, so that a signal's handler runs between small units too.
        await stopPoint(stop.signal);
        texts.push(tick(await runUnitRequest(r, stop.signal)));
      }
    }
  } catch (e) {
    if (!(e instanceof RunStopped)) throw e;
  } finally {
    stop.release();
    bar.stop();
  }
  // The samples are written only once every unit is sampled: a stop leaves no file (and any earlier one as it was).
  const interrupted = stop.interrupted;
  if (interrupted !== null && done < mine.length) {
    io.err(`sim calibrate: stopped by ${interrupted} after ${done} of ${mine.length} models; no samples written (they are written only once every model is sampled): run the same command again`);
    return signalExitCode(interrupted);
  }

  const specHash = createHash('sha256').update(readFileSync(args.specPath)).digest('hex');
  const header =
    index === 1
      ? [
          samplesHeaderLine(),
          `# simulator ${simulatorVersion()}`,
          // Where the spec is, not how it was named: from another directory the same samples differed.
          `# spec ${escapeLineBreaking(recordedPath(args.specPath))} sha256 ${specHash}`,
          `# seed ${args.seed} nodes ${args.nodes?.join(',') ?? 'default'} vcount ${args.vcount}${args.noise ? ' noise: timer interrupts and time slices, median of three' : ''}`,
          '# lines: Model cycles inputs... terms...; @Model marks verification samples',
        ].join('\n') + '\n'
      : '';
  // The end line, in the last shard, lets sim fit tell a whole file from one cut short.
  const text = header + texts.join('') + (index === count ? `${samplesEndLine(requests.length, plannedSamples)}\n` : '');
  // The samples are written first: a fit that fails (a spec whose models cannot be fitted) keeps them.
  writeFileAtomic('-o', args.out, text);
  // Models, not units: one model at two machine sizes said "2 model(s)".
  const models = new Set(mine.map((r) => r.specIndex)).size;
  const sizes = new Set(mine.map((r) => r.nodes)).size;
  const what = `${models} model${models === 1 ? '' : 's'}${sizes > 1 ? ` at ${sizes} machine sizes` : ''}`;
  if (!args.json) io.out(`sim calibrate: wrote ${args.out}: ${what} on ${args.platforms.join(', ')}${count > 1 ? ` (shard ${index}/${count} of ${requests.length} units)` : ''}`);
  const fitted = args.fitDir === undefined ? null : { dir: args.fitDir, ...fitKeepingSamples(text, args.out) };
  if (fitted !== null) writeModels(fitted.dir, platformsRun, fitted, io, args.json);
  if (args.json) {
    io.out(JSON.stringify({ wrote: args.out, models, units: mine.length, platforms: platformsRun, shard: { index, count, of: requests.length }, fit: args.fitDir ?? null, fitted: fitted === null ? null : fitted.models.map(modelJson) }));
  }
  return 0;
}

/** The files --fit writes in `dir` for `platforms`. */
function modelFiles(dir: string, platforms: readonly string[]): string[] {
  return [...platforms.flatMap((p) => [join(dir, `${p}.json`), join(dir, `${p}.ts`)]), join(dir, 'fig-6-6.txt')];
}

/** --fit's fit of the samples just written to `out`; a failure says they are kept and how to fit them again. */
function fitKeepingSamples(text: string, file: string): ReturnType<typeof fitWithProvenance> {
  // On one line, as sim fit names it.
  const out = escapeLineBreaking(file);
  try {
    return fitWithProvenance(text, out, true);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    // Samples of 0 cycles can be fitted, of absolute error only: it advised --relative, the fit just refused.
    const fitThem = e instanceof ZeroTimesError ? `sim fit ${out} -o <models.json>` : `sim fit ${out} --relative -o <models.json>`;
    throw new InputError(`${e.message}; the samples are kept in ${out} (no models written): fix the spec and run again, or fit them with ${fitThem}`);
  }
}

/** --fit: each platform's models as <dir>/<platform>.json and .ts, and the Fig. 6-6 report; prints them. */
function writeModels(dir: string, platforms: readonly string[], fitted: { models: FittedModel[]; provenance: Provenance }, io: Io, json: boolean): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new InputError(`--fit ${dir}: cannot create the models directory (${(e as { code?: string }).code ?? String(e)})`);
  }
  const { models, provenance } = fitted;
  for (const platform of platforms) {
    const own = models.filter((m) => m.platform === platform);
    const ownProvenance = { ...provenance, platformHashes: { [platform]: provenance.platformHashes[platform] }, machineSizes: { [platform]: provenance.machineSizes?.[platform] ?? [] } };
    writeFileAtomic('--fit', join(dir, `${platform}.json`), modelsJson(own, ownProvenance));
    writeFileAtomic('--fit', join(dir, `${platform}.ts`), modelsModule(own, ownProvenance));
  }
  const report = fig66Report(models);
  if (report.length > 0) writeFileAtomic('--fit', join(dir, 'fig-6-6.txt'), `${report.join('\n')}\n`);
  printModels(models, report, io, 'sim calibrate', json);
  if (!json) io.out(`sim calibrate: wrote the models of ${platforms.join(', ')} to ${dir}/${report.length > 0 ? ' with fig-6-6.txt' : ''}`);
}
