/**
 * Finds and reads what a run needs from disk: the platform file (by name from
 * platforms/ or by path) and the app module (a folder with index.ts, or a file).
 * Every failure is an InputError with one line naming what was wrong.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { InputError, kindOf } from '../kernel/errors.ts';
import type { Platform } from '../platform/schema.ts';
import type { AnyApp } from '../runtime/app.ts';
import { appProblem } from '../runtime/app-check.ts';
import { moduleLoadProblem } from './app-location.ts';
import { markParsed } from '../platform/platform-shape.ts';
import { importModule, IS_COMPILED, PROJECT_ROOT, recordedPath } from './project.ts';

const PLATFORM_DIR = join(PROJECT_ROOT, 'platforms');

/** A path inside the project (e.g. an app folder or the shipped models), whatever the working directory. */
export function projectPath(relative: string): string {
  // Exported: projectPath(null) was a TypeError from node:path.
  if (typeof relative !== 'string') throw new InputError(`projectPath: expected a path inside the project as a string (e.g. apps/stencil), got ${kindOf(relative)}`);
  return join(PROJECT_ROOT, relative);
}

/** Names of the platforms shipped in platforms/. */
export function platformNames(): string[] {
  return readdirSync(PLATFORM_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

const isPlatformPath = (spec: string): boolean => spec.includes('/') || spec.includes('\\') || spec.endsWith('.json');

/**
 * The file `--platform` reads: a bare name's in platforms/, else the path. An input like
 * any other, so no output may be written over it: `sim --platform cm5 ... --log
 * <checkout>/platforms/cm5.json` emptied the shipped platform, and `sim calibrate
 * --platform cm5 ... --fit <checkout>/platforms` wrote the models over it.
 */
function platformFile(spec: string): string {
  return isPlatformPath(spec) ? resolve(spec) : join(PLATFORM_DIR, `${spec}.json`);
}

/** `--platform` as the same-file checks name it: a path as given, a name as its file in platforms/. */
export function platformInput(spec: string): string {
  return isPlatformPath(spec) ? spec : platformFile(spec);
}

/**
 * Loads `--platform`: a bare name is looked up in platforms/, anything with a slash
 * or a .json suffix is a path. A shipped platform whose file is unchanged since the
 * build comes from the build's checked copy (see checkedAtBuild); anything else is
 * parsed and checked here, loading the schema library only then.
 */
export async function loadPlatform(spec: string): Promise<Platform> {
  if (typeof spec !== 'string') throw new InputError(`platform: expected a name or a path to a platform file, got ${kindOf(spec)}`);
  const isPath = isPlatformPath(spec);
  const file = platformFile(spec);
  if (!existsSync(file) || !statSync(file).isFile()) {
    // A folder or a device was "no such file", of a path that exists.
    if (isPath && existsSync(file)) throw new InputError(`--platform ${spec}: is ${statSync(file).isDirectory() ? 'a folder' : 'not a regular file'}; expected a platform .json file`);
    if (isPath) throw new InputError(`--platform ${spec}: no such file`);
    throw new InputError(
      `--platform ${spec}: unknown platform (expected one of: ${platformNames().join(', ')}, or a path to a platform .json file)`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    // A file past V8's longest string (about 512 MB) was an internal error, ERR_STRING_TOO_LONG.
    throw new InputError(`--platform ${spec}: cannot read the platform file (${(e as { code?: string }).code ?? String(e)})`);
  }
  // Messages name the file as it was given (a path that works from here).
  const source = isPath ? spec : `platforms/${spec}.json`;
  const checked = isPath ? null : checkedAtBuild(spec, text, source);
  const platform = checked ?? (await import('../platform/load-platform.ts')).parsePlatform(text, source);
  platformFiles.set(platform, file);
  return platform;
}

/** The file each platform loadPlatform gave was read from. */
const platformFiles = new WeakMap<Platform, string>();

/**
 * How a repro records `platform`'s file (recordedPath: from the project's root inside it,
 * absolute outside): its source as given made the same run's repro differ by how the
 * platform was named and from where. A platform loadPlatform did not read, by its source.
 */
export function recordedPlatformFile(platform: Platform): string {
  const file = platformFiles.get(platform);
  return file === undefined ? platform.source : recordedPath(file);
}

/**
 * The platform `name` as the build parsed and checked it (dist/platforms/<name>.json,
 * written by scripts/build.mjs), if this process runs that build and the file's text
 * is still the one the build read; else null. Spares a run of a shipped platform the
 * schema library's start-up (about a tenth of a second).
 */
function checkedAtBuild(name: string, text: string, source: string): Platform | null {
  if (!IS_COMPILED) return null;
  const file = join(PROJECT_ROOT, 'dist', 'platforms', `${name}.json`);
  if (!existsSync(file)) return null;
  const platform = JSON.parse(readFileSync(file, 'utf8')) as Platform;
  return platform.text === text && platform.source === source ? markParsed(platform) : null;
}

const APP_ENTRIES = ['index.ts', 'index.mts', 'index.js', 'index.mjs'];

/**
 * Where an input path (an app, a calibration spec) points: the working directory's, else
 * (relative and not there) the simulator's shipped one, so the paths the README and the
 * studies name (apps/stencil, apps/calibration/apps.spec) work from any directory.
 */
export function lookupPath(spec: string): string {
  const here = resolve(spec);
  return existsSync(here) || isAbsolute(spec) ? here : projectPath(spec);
}

/**
 * Resolves an app argument to the module file that defines it. A relative path is
 * looked up from the working directory and then from the simulator's own folder, so
 * the shipped apps that `sim apps` lists (apps/stencil, ...) and the sweeps that name
 * them (every study's) run from any directory; one in the working directory comes first.
 */
export function resolveAppFile(spec: string): string {
  const path = lookupPath(spec);
  if (!existsSync(path)) throw new InputError(`app ${spec}: no such file or folder${isAbsolute(spec) ? '' : " (here or among the simulator's apps)"}`);
  if (statSync(path).isDirectory()) {
    const entry = APP_ENTRIES.map((e) => join(path, e)).find((f) => existsSync(f));
    if (entry === undefined) {
      throw new InputError(`app ${spec}: the folder has no ${APP_ENTRIES.join(', ')} (an app folder holds one, whose default export is defineApp({...}))`);
    }
    return entry;
  }
  if (!['.ts', '.mts', '.js', '.mjs'].includes(extname(path))) {
    throw new InputError(`app ${spec}: expected an app folder or a .ts/.js module, got a ${extname(path) || 'file without extension'}`);
  }
  return path;
}

/** Imports an app module and checks that its default export is an app definition. */
export async function loadApp(spec: string): Promise<AnyApp> {
  if (typeof spec !== 'string') throw new InputError(`app: expected a path to an app folder or module, got ${kindOf(spec)}`);
  const file = resolveAppFile(spec);
  let mod: { default?: unknown };
  try {
    mod = (await importModule(file)) as { default?: unknown };
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`app ${spec}: ${e.message}`);
    const problem = moduleLoadProblem(e);
    throw new InputError(`app ${spec}: ${problem.compile ? `cannot be compiled: ${problem.text}` : `cannot be loaded (${problem.text})`}`);
  }
  const problem = appProblem(mod.default);
  if (problem !== null) throw new InputError(`app ${spec}: ${problem}`);
  return mod.default as AnyApp;
}
