/**
 * The two ways `sim` runs, and what differs between them: from the TypeScript
 * sources through tsx (a development checkout whose build is missing or stale), or
 * from the JavaScript build in dist/ (made by `npm run build` at install; bin/sim.mjs
 * picks it when it is current). This file owns the project root and version, the
 * import of a user's module (an app or a calibration spec) in either mode (worker
 * threads start through load-sibling.mjs). It loads nothing heavy: `sim --version`
 * needs only it.
 *
 * In the compiled mode, a module that ships with the project (apps/, src/) is
 * imported from its build in dist/. Any other TypeScript module gets tsx, loaded
 * only then, plus a resolve hook that sends its imports of the project's own sources
 * to their builds, so one process never holds two copies of the runtime; a JavaScript
 * module gets the hook alone (its imports of src/runtime/index.ts go to the build).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError } from '../kernel/errors.ts';

/** Whether this module is the compiled build (dist/src/cli/project.js). */
export const IS_COMPILED = import.meta.url.endsWith('.js');

/** The project root (where package.json, platforms/ and apps/ live). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), IS_COMPILED ? '../../..' : '../..');

const DIST = join(PROJECT_ROOT, 'dist');

/** The simulator's version from package.json. */
export function simulatorVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** A path with its links followed, or as it is where nothing is there yet. */
function followed(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

let realRoot: string | null = null;

/**
 * `file`'s path inside the project (with this system's separators), or null outside it.
 * Links are followed on both sides: a path through a link to the checkout (or a root
 * read through one, as vitest does in scripts/vitest.mjs's link) is the project's too.
 */
export function projectRelative(file: string): string | null {
  realRoot ??= followed(PROJECT_ROOT);
  const rel = relative(realRoot, followed(file));
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? null : rel;
}

/**
 * How the simulator records a file it read (a repro's app and platform, a samples file's
 * spec): its path from the project's root inside it, however it was named (relative,
 * absolute, through a link), else its absolute path with links followed. As typed, the
 * same run wrote different bytes from another directory.
 */
export function recordedPath(file: string): string {
  const rel = projectRelative(file);
  return rel === null ? followed(file) : rel.split(sep).join('/');
}

/** The build of a project source file (`apps/x/index.ts` -> `dist/apps/x/index.js`), or null. */
export function builtCounterpart(file: string): string | null {
  const rel = projectRelative(file);
  if (rel === null || !(rel.startsWith(`apps${sep}`) || rel.startsWith(`src${sep}`))) return null;
  const js = join(DIST, rel.replace(/\.m?ts$/, (ext) => (ext === '.mts' ? '.mjs' : '.js')));
  return existsSync(js) ? js : null;
}

let typeScriptReady = false;
let redirectReady = false;

/** Sends imports of the project's TypeScript sources to their builds (redirect-hooks.ts). */
function enableRedirect(): void {
  if (redirectReady) return;
  redirectReady = true;
  register(new URL('./redirect-hooks.js', import.meta.url));
}

/** Lets this (compiled) process import TypeScript: tsx, then the redirect to dist/. */
async function enableTypeScript(): Promise<void> {
  if (typeScriptReady) return;
  typeScriptReady = true;
  // Plain JavaScript beside this file in the sources and in dist/ alike (the build copies it).
  const { registerTsx } = (await import(new URL('./register-tsx.mjs', import.meta.url).href)) as { registerTsx: () => Promise<void> };
  await registerTsx();
  // Hooks registered later run first: the redirect sees each import before tsx (again,
  // if a JavaScript module had it registered before tsx).
  redirectReady = true;
  register(new URL('./redirect-hooks.js', import.meta.url));
}

let esmTypeScript = false;

/** Loads `.ts` files as ES modules wherever they are (esm-typescript-hooks.mjs); once per thread. */
function enableEsmTypeScript(): void {
  if (esmTypeScript) return;
  esmTypeScript = true;
  register(new URL('./esm-typescript-hooks.mjs', import.meta.url));
}

/**
 * Imports a user's module by path, in whichever mode this process runs.
 * @throws InputError if the module never finishes loading (a top-level await that
 *   never settles: Node would otherwise exit with status 13 and say nothing), or is
 *   TypeScript in a path with a '?'
 */
export async function importModule(path: string): Promise<unknown> {
  const file = resolve(path);
  if (IS_COMPILED) {
    const built = builtCounterpart(file);
    if (built !== null) return settledOrIdle(import(pathToFileURL(built).href));
    if (/\.m?ts$/.test(file)) await enableTypeScript();
    // A JavaScript app imports the runtime as a TypeScript one does (src/runtime/index.ts):
    // from the sources it ran, from the build it was "Unknown file extension .ts". Node
    // loads the app itself, as before (under tsx an ES module .js outside a "type":
    // "module" package is "Cannot require() ES Module ... in a cycle").
    else enableRedirect();
  }
  // tsx reads a '?' in a path as a query's start and compiled what came before as JavaScript
  // ("cannot be compiled: app/index.ts.js:2:7: Expected ";" but found ":"").
  if (/\.m?ts$/.test(file) && file.includes('?')) {
    throw new InputError(`cannot load TypeScript from a path with a '?' in it (${file}): the TypeScript loader (tsx) takes it for the start of a query; expected a path without one (move the folder), or the module compiled to .js`);
  }
  if (file.endsWith('.ts')) enableEsmTypeScript();
  return settledOrIdle(import(pathToFileURL(file).href));
}

/** `loading`, or an InputError once nothing is left that could settle it (the event loop ran dry). */
function settledOrIdle<T>(loading: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const idle = (): void => reject(new InputError('its module never finished loading: a top-level await in it never settles'));
    process.once('beforeExit', idle);
    loading.then(
      (value) => {
        process.off('beforeExit', idle);
        resolve(value);
      },
      (e: unknown) => {
        process.off('beforeExit', idle);
        reject(e);
      },
    );
  });
}
