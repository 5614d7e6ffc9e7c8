/**
 * Finds and reads the models a library selection needs: the platform's Strata models
 * (platforms/models/<platform>.json, for the factored extra-lines model of eq. 38)
 * and its app models for one machine size (platforms/models/apps/n<nodes>/<platform>.json,
 * or `<dir>/<platform>.json` with `--models <dir>`, e.g. a directory `sim calibrate
 * --fit` just wrote), and maps an app folder or module name to its library module.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InputError } from '../kernel/errors.ts';
import { AUTO_APP_FOLDERS, moduleOfApp } from '../library/auto.ts';
import type { ExpressionFunctions, ModelSpec } from '../calibrate/spec.ts';
import { HYBRID_MODELS } from '../library/extra-lines.ts';
import type { CommunicationChoice } from './communication-option.ts';
import { evaluate, ModelSet, NEGATIVE_TIME } from '../library/model-set.ts';
import type { LibraryModule } from '../library/module.ts';
import { SORT_MODULE } from '../library/sort-module.ts';
import { STENCIL_MODULE } from '../library/stencil-module.ts';
import type { Platform } from '../platform/schema.ts';
import { platformIdentity, type PlatformIdentity } from '../platform/platform-identity.ts';
import { shellQuote } from '../sweep/slurm.ts';
import { appSpecSizeProblem } from './app-spec-sizes.ts';
import { lookupPath, projectPath } from './load-inputs.ts';

export const MODULES: readonly LibraryModule[] = [STENCIL_MODULE, SORT_MODULE];

/** The shipped app models' directory for a machine size, relative to the project root. */
export function shippedModelsDir(nodes: number): string {
  return `platforms/models/apps/n${nodes}`;
}

/** A models file, read once: its text, and what its provenance says of `platformName` (the platform file's hash it was fitted on, the machine sizes sampled). */
function readModelsFile(file: string, shown: string, platformName: string): { text: string; fittedOn: string | undefined; sizes: number[] | undefined } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${shown}: cannot read the models (${(e as { code?: string }).code ?? String(e)})`);
  }
  let provenance: unknown;
  try {
    provenance = (JSON.parse(text) as { provenance?: unknown }).provenance;
  } catch {
    provenance = undefined; // ModelSet.addFile says what is wrong with it
  }
  // Checked here, as the models' own schema leaves provenance free: a size list of null was
  // an internal error ("Cannot read properties of null"), a hash with a newline two lines.
  // '' is what sim fit records of samples whose "# platform" line gives no hash: none recorded.
  const recorded = ownEntry(provenance, 'platformHashes', platformName);
  const fittedOn = recorded === '' ? undefined : recorded;
  if (fittedOn !== undefined && (typeof fittedOn !== 'string' || !/^[0-9a-f]{64}$/.test(fittedOn))) {
    throw new InputError(`${shown}: provenance.platformHashes.${platformName}: expected the sha256 of the platform file the models were fitted on (64 hex digits, as sim fit writes it), got ${shortJson(fittedOn)}`);
  }
  const sizes = ownEntry(provenance, 'machineSizes', platformName);
  if (sizes !== undefined && !(Array.isArray(sizes) && sizes.every((n) => Number.isInteger(n) && (n as number) >= 1))) {
    throw new InputError(`${shown}: provenance.machineSizes.${platformName}: expected a list of the machine sizes sampled (positive integers, as sim fit writes it), got ${shortJson(sizes)}`);
  }
  return { text, fittedOn, sizes: sizes as number[] | undefined };
}

/** provenance[group][key] when both are own properties of objects (a platform named constructor found Object's function), else undefined. */
function ownEntry(provenance: unknown, group: string, key: string): unknown {
  if (provenance === null || typeof provenance !== 'object' || !Object.hasOwn(provenance, group)) return undefined;
  const entries = (provenance as Record<string, unknown>)[group];
  if (entries === null || typeof entries !== 'object' || !Object.hasOwn(entries, key)) return undefined;
  return (entries as Record<string, unknown>)[key];
}

/** A value as JSON, cut to 40 characters, for a message. */
function shortJson(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/**
 * What `--platform` takes to name `platform` again in a suggested command: its name when
 * it is the shipped file of that name, else its file (`--platform mycm` of a file named
 * mycm.json said "unknown platform"), quoted for the shell (a file under "my platforms/"
 * was named unquoted, which a shell splits at the blank).
 */
function platformOption(platform: Platform): string {
  return platform.source === `platforms/${platform.name}.json` ? platform.name : shellQuote(platform.source);
}

/**
 * Refuses a models file with no model of the platform (as ModelSet.addFile has read it): one of
 * another platform's models saved as <platform>.json was said to be "fitted on platform X with
 * content hash (none recorded)".
 */
function checkHoldsPlatform(text: string, what: string, platformName: string, calibrate: string): void {
  const platforms = (JSON.parse(text) as { models: { platform: string }[] }).models.map((m) => m.platform);
  if (platforms.includes(platformName)) return;
  const others = [...new Set(platforms)];
  throw new InputError(`${what} holds no models of platform ${platformName} (${others.length === 0 ? 'it holds none' : `its models are of ${others.join(', ')}`}); calibrate ${calibrate}`);
}

/** Refuses models fitted on another platform file of this name: they predict that machine's times. */
function checkFittedOn(fittedOn: string | undefined, platform: Platform, what: string, calibrate: string): void {
  const own = platformIdentity(platform);
  if (fittedOn !== own.contentHash) {
    throw new InputError(`${what} was fitted on platform ${platform.name} with content hash ${fittedOn ?? '(none recorded)'}, ${thisPlatform(platform, own)} has ${own.contentHash}; calibrate ${calibrate}`);
  }
}

/** The platform a message names: its file, or a copy of it a program edited (platform-identity.ts). */
function thisPlatform(platform: Platform, own: PlatformIdentity): string {
  return own.edited ? `this platform (${platform.source} as a program edited it)` : 'this platform file';
}

/** The shipped hybrid extra-lines models' directory for a machine size (apps/calibration/hybrid.spec, eq. 54). */
export function shippedHybridDir(nodes: number): string {
  return `platforms/models/hybrid/n${nodes}`;
}

/**
 * The models for `platform` on `nodes` processors: the Strata suite first, then the app
 * models (from `dir` when given), whose models replace any of the same name, then with
 * `--communication hybrid` the hybrid extra-lines models (eq. 54), which must have been
 * fitted on this very platform file (its content hash).
 */
export function loadModelSet(platform: Platform, nodes: number, dir?: string, comm?: CommunicationChoice): ModelSet {
  const set = new ModelSet(platform.name);
  // The shipped Strata models describe the platform file they were fitted on: another
  // file of the same name (other costs) gets none, and a selection that needs one says so.
  const strataShown = `platforms/models/${platform.name}.json`;
  const strata = projectPath(strataShown);
  if (existsSync(strata)) {
    const read = readModelsFile(strata, strataShown, platform.name);
    if (read.fittedOn === platformIdentity(platform).contentHash) set.addFile(read.text, strataShown);
  }
  const appDir = dir ?? projectPath(shippedModelsDir(nodes));
  const shownDir = dir ?? shippedModelsDir(nodes);
  const file = join(appDir, `${platform.name}.json`);
  const calibrate = `sim calibrate --platform ${platformOption(platform)} apps/calibration/apps.spec -o <samples> --nodes ${nodes} --fit <dir>`;
  if (!existsSync(file)) {
    if (dir !== undefined) throw new InputError(`--models ${dir}: no ${platform.name}.json there (expected the directory sim calibrate --fit writes, with one <platform>.json per platform)`);
    const missing = `no app models for ${platform.name} on ${nodes} nodes (expected ${shownDir}/${platform.name}.json; shipped sizes are 16, 32 and 64 nodes)`;
    // At a size the shipped spec cannot sample (128 nodes, or 7), the command suggested failed in its turn.
    const cannot = appSpecSizeProblem(platform, nodes);
    if (cannot !== null) throw new InputError(`${missing}, and apps/calibration/apps.spec, which makes the models of every library module, cannot sample this size (${cannot}); calibrate a spec of your own whose grids ${nodes} nodes can split, then pass --models <dir>`);
    throw new InputError(`${missing}; calibrate them with ${calibrate}, then pass --models <dir>`);
  }
  const shown = join(shownDir, `${platform.name}.json`);
  const { text, fittedOn, sizes } = readModelsFile(file, shown, platform.name);
  set.addFile(text, shown);
  checkHoldsPlatform(text, shown, platform.name, `the app models for it with ${calibrate}, then pass --models <dir>`);
  // Fitted on another platform file of this name, they predicted that machine's times, silently.
  checkFittedOn(fittedOn, platform, shown, `the app models for it with ${calibrate}, then pass --models <dir>`);
  checkFittedSize(sizes, nodes, shown, `the app models at ${nodes} nodes (${calibrate}) and pass --models <dir>`);
  if (comm?.communication === 'hybrid') readHybrid(set, platform, nodes, comm.hybridDir);
  return set;
}

/**
 * Refuses models fitted on one machine size only, another than `nodes`: they know
 * nothing of it (--models fitted at 16 nodes chose for 64 as if they were 16). Models
 * fitted over several sizes, and files that record none (written before sizes were
 * recorded), are taken as they are.
 */
function checkFittedSize(sizes: number[] | undefined, nodes: number, shown: string, calibrate: string): void {
  if (sizes !== undefined && sizes.length === 1 && sizes[0] !== nodes) {
    throw new InputError(`${shown} was fitted on ${sizes[0]} nodes only, and this is ${nodes}; calibrate ${calibrate}`);
  }
}

/** Adds the hybrid extra-lines models (--communication hybrid) to `set`. */
function readHybrid(set: ModelSet, platform: Platform, nodes: number, dir: string | undefined): void {
  const shownDir = dir ?? shippedHybridDir(nodes);
  const shown = join(shownDir, `${platform.name}.json`);
  const file = join(dir ?? projectPath(shownDir), `${platform.name}.json`);
  const calibrate = `sim calibrate --platform ${platformOption(platform)} apps/calibration/hybrid.spec -o <samples> --nodes ${nodes} --fit <dir>, then pass --hybrid-models <dir>`;
  if (!existsSync(file)) {
    throw new InputError(
      dir === undefined
        ? `--communication hybrid: no hybrid models for ${platform.name} on ${nodes} nodes (expected ${shown}; shipped sizes are 16, 32 and 64 nodes); calibrate them with ${calibrate}`
        : `--hybrid-models ${dir}: no ${platform.name}.json there (expected the directory sim calibrate --fit writes for apps/calibration/hybrid.spec)`,
    );
  }
  const { text, fittedOn, sizes } = readModelsFile(file, shown, platform.name);
  // Eq. 54's Communication is a time per iteration: a fit that makes it negative was
  // shown as advice ("hybrid Communication -3375 cycles per iteration", no extra lines).
  set.addFile(text, shown, { refuseNegative: true });
  const what = `--communication hybrid: ${shown}`;
  checkHoldsPlatform(text, what, platform.name, `the hybrid models for it with ${calibrate}`);
  checkFittedOn(fittedOn, platform, what, `the hybrid models for it with ${calibrate}`);
  checkFittedSize(sizes, nodes, what, `the hybrid models at ${nodes} nodes with ${calibrate}`);
  for (const name of Object.values(HYBRID_MODELS)) {
    if (!set.has(name)) throw new InputError(`--communication hybrid: ${shown} has no model ${name} (expected ${Object.values(HYBRID_MODELS).join(' and ')}, the models of apps/calibration/hybrid.spec)`);
  }
}

/**
 * Refuses a choice predicted to take less than no time: models whose coefficients make
 * one (a hand edit, or a fit far outside its samples) were chosen by it, and the time
 * printed ("square *  -29,864.4  -985,527"). The library's select() itself takes such
 * models, as the thesis's printed ones draw its derived maps (selection.md 2.2); the
 * choice is the minimum, so a negative prediction anywhere makes the choice's negative.
 */
export function refuseNegativeChoice(module: string, variant: string, cycles: number, inputs: Readonly<Record<string, number | string | boolean>>, sources: readonly string[]): void {
  if (cycles >= 0) return;
  // The module's inputs (a run's values hold every parameter of the app).
  const names = MODULES.find((m) => m.name === module)?.inputs.map((i) => i.name) ?? Object.keys(inputs);
  const shown = names.filter((k) => Object.hasOwn(inputs, k)).map((k) => `${k}=${inputs[k]}`).join(' ');
  throw new InputError(`module ${module}: variant ${variant} is predicted ${Math.round(cycles)} cycles for ${shown} by the models in ${sources.join(', ')}; ${NEGATIVE_TIME}`);
}

/** The module a `sim select` argument names: a module name (stencil, sort) or one of its app folders. */
export function moduleNamed(arg: string): LibraryModule {
  const byName = MODULES.find((m) => m.name === arg);
  if (byName !== undefined) return byName;
  const folder = appFolder(arg);
  const mod = folder === undefined ? undefined : moduleOfApp(folder);
  if (mod === undefined) {
    throw new InputError(`unknown module ${arg}: expected ${MODULES.map((m) => m.name).join(' or ')}, or an app folder of one (${AUTO_APP_FOLDERS.join(', ')})`);
  }
  return mod;
}

/** The project-relative app folder (apps/stencil) that a path names, or undefined outside apps/. */
export function appFolder(path: string): string | undefined {
  // Found as a run finds it: sim select apps/stencil from another directory said "unknown module".
  const rel = relative(projectPath('.'), lookupPath(path)).split('\\').join('/').replace(/\/(index\.[mc]?[tj]s)?$/, '').replace(/\/index\.[mc]?[tj]s$/, '');
  return rel.startsWith('apps/') ? rel : undefined;
}

/**
 * The platform's Strata models as functions a calibration spec's inputs and terms may
 * call (thesis 8.1.3, "treating the submodels as terms"; apps/calibration/hybrid.spec):
 * each model of one explanatory variable, e.g. BlockTransfer(words), from
 * platforms/models/<platform>.json. Models fitted on another version of the platform
 * file (its content hash differs) are refused when called: their values would describe
 * another machine. Undefined when the spec calls no function with a capital initial (the
 * Strata models' names) or the platform has no shipped Strata models.
 */
export function strataSubmodels(platform: Platform, spec: ModelSpec): { functions: ExpressionFunctions; source: string } | undefined {
  // Only a spec that calls one reads the file (the Strata suite's own spec must run without it).
  if (![...spec.inputs, ...spec.terms].some((v) => /\b[A-Z]\w*\(/.test(v.value))) return undefined;
  const shown = `platforms/models/${platform.name}.json`;
  const file = projectPath(shown);
  if (!existsSync(file)) return undefined;
  const { text, fittedOn } = readModelsFile(file, shown, platform.name);
  const set = new ModelSet(platform.name).addFile(text, shown);
  const functions: Record<string, (x: number) => number> = {};
  for (const name of set.names()) {
    const model = set.get(name, 'a calibration spec');
    const variables = model.terms.filter((t) => t !== '1');
    if (variables.length !== 1) continue;
    functions[name] = (x: number) => {
      const own = platformIdentity(platform);
      if (fittedOn !== own.contentHash) {
        // Another file of a shipped platform's name was told to calibrate with --fit platforms/models,
        // which wrote its models over the shipped platform's (which its selections then lacked).
        const calibrate =
          platform.source === `platforms/${platform.name}.json`
            ? `calibrate its Strata models first (sim calibrate --platform ${platform.name} apps/calibration/strata.spec -o <samples> --fit platforms/models)`
            : `${shown} is for the file platforms/${platform.name}.json: give this platform file a name of its own (its "name") and calibrate its Strata models under it (sim calibrate --platform ${platformOption(platform)} apps/calibration/strata.spec -o <samples> --fit platforms/models writes platforms/models/<its name>.json)`;
        throw new InputError(`${name}(...) in a spec: the Strata models in ${shown} were fitted on platform ${platform.name} with content hash ${fittedOn ?? '(none recorded)'}, ${thisPlatform(platform, own)} has ${own.contentHash}; ${calibrate}`);
      }
      return evaluate(model, { [variables[0]]: x });
    };
  }
  return { functions, source: `${shown} sha256 ${createHash('sha256').update(text).digest('hex')}` };
}

/**
 * The models files a selection for `platform` on `nodes` reads (loadModelSet), those
 * that exist: a run's outputs are checked against them, as against its other inputs
 * (`--log m/cm5.json` with `--models m` wrote the log over the models it had just read).
 */
export function modelFilesRead(platform: Platform, nodes: number, dir?: string, comm?: CommunicationChoice): string[] {
  const files = [projectPath(`platforms/models/${platform.name}.json`), join(dir ?? projectPath(shippedModelsDir(nodes)), `${platform.name}.json`)];
  if (comm?.communication === 'hybrid') files.push(join(comm.hybridDir ?? projectPath(shippedHybridDir(nodes)), `${platform.name}.json`));
  return files.filter((f) => existsSync(f));
}
