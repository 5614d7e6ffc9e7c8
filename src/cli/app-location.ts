/**
 * Where in a user's app an exception came from: the frames of its stack that lie
 * outside the simulator (its own sources and build, its dependencies, Node's
 * internals), as `file:line:column` relative to the working directory, so that a
 * failure in an app's main, handler, setup, check, globals or verify names the app's
 * own line. Also finds the `file:line:column` of a compile error in an app module.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeThrown } from '../kernel/errors.ts';
import { PROJECT_ROOT } from './project.ts';

/** How many of the app's frames a report shows. */
const MAX_FRAMES = 4;

/** A folder with its links followed (Node names a module by its real path), or as it is if it is not there. */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * The simulator's own folders; node_modules also as its real path (a checkout whose
 * node_modules is a link showed tsx's frames as the app's), and bin/ and scripts/,
 * where every run starts.
 */
const SIMULATOR = [
  ...new Set(['src', join('dist', 'src'), 'bin', 'scripts', 'node_modules'].flatMap((d) => [join(PROJECT_ROOT, d), real(join(PROJECT_ROOT, d))]).map((d) => d + sep)),
];

/** The build's folder: a shipped app run from it is reported at its source (sourceInBuild). */
const BUILD = [...new Set([join(PROJECT_ROOT, 'dist'), real(join(PROJECT_ROOT, 'dist'))])].map((d) => d + sep);

/**
 * A frame in the build's JavaScript as the line of the TypeScript it was compiled from,
 * through the source map beside it (tsconfig.build.json): a shipped app's failure named
 * dist/apps/examples/race/index.js:24:16 for apps/examples/race/index.ts:29:10. The frame
 * as it is when there is no map or the map has no entry for it.
 */
function sourceInBuild(frame: { file: string; at: string; fn: string }): { file: string; at: string; fn: string } {
  if (!BUILD.some((dir) => frame.file.startsWith(dir))) return frame;
  const mapFile = `${frame.file}.map`;
  if (!existsSync(mapFile)) return frame;
  try {
    const [line, column] = frame.at.split(':').map(Number);
    const entry = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))).findEntry(line - 1, column - 1);
    if (!('originalSource' in entry)) return frame;
    return { file: resolve(dirname(mapFile), entry.originalSource), at: `${entry.originalLine + 1}:${entry.originalColumn + 1}`, fn: frame.fn };
  } catch {
    return frame; // a map that does not parse: the build's own line is still a place
  }
}

/** `file:line:column` of a stack frame's location, or null for frames without one. */
function frameLocation(line: string): { file: string; at: string; fn: string } | null {
  const m = /^\s*at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line);
  if (m === null) return null;
  let file = m[2];
  if (file.startsWith('file://')) file = fileURLToPath(file);
  if (!isAbsolute(file)) return null; // node:internal, native, eval
  return { file, at: `${m[3]}:${m[4]}`, fn: m[1] ?? '' };
}

function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/** The innermost error of a chain of causes. */
function rootCause(e: unknown): unknown {
  let x = e;
  for (let depth = 0; depth < 8 && x instanceof Error && x.cause !== undefined; depth++) x = x.cause;
  return x;
}

/**
 * The app's frames of what escaped it, innermost first: "at main (apps/x/index.ts:12:5)".
 * Those of the innermost cause, or of the error itself: the runtime's refusal of an
 * argument (a message to node 99, compute(-5), StrataFail) is raised within the app's
 * call, so its stack names the app's line (it was reported without one). Empty when
 * the stack has none (a deadlock, a limit: the simulator's own).
 */
export function appFrames(error: unknown): string[] {
  const cause = rootCause(error);
  if (!(cause instanceof Error) || typeof cause.stack !== 'string') return [];
  const frames: string[] = [];
  for (const line of cause.stack.split('\n').slice(1)) {
    const located = frameLocation(line);
    if (located === null || SIMULATOR.some((dir) => located.file.startsWith(dir))) continue;
    const f = sourceInBuild(located);
    const fn = f.fn.replace(/^(async |new )/, '').replace(/^Object\./, '');
    frames.push(`at ${fn === '' ? '' : `${fn} (`}${shown(f.file)}:${f.at}${fn === '' ? '' : ')'}`);
    if (frames.length === MAX_FRAMES) break;
  }
  return frames;
}

/**
 * The `file:line:column: message` of an error loading a module: esbuild's (through tsx)
 * "Transform failed" names it on a later line; V8's SyntaxError in a .js module on the
 * first line of its stack. Null when neither says.
 */
export function compileErrorLocation(e: unknown): string | null {
  if (!(e instanceof Error)) return null;
  const esbuild = /^(\S.*?:\d+:\d+): ERROR: (.*)$/m.exec(e.message);
  if (esbuild !== null) return `${shownPath(esbuild[1])}: ${esbuild[2]}`;
  if (e instanceof SyntaxError && typeof e.stack === 'string') {
    const first = /^(.+?):(\d+)\n/.exec(e.stack);
    if (first !== null) {
      const file = first[1].startsWith('file://') ? fileURLToPath(first[1]) : first[1];
      if (isAbsolute(file)) return `${shown(file)}:${first[2]}: ${e.message}`;
    }
  }
  return null;
}

/**
 * What went wrong importing a module, as one line: where it does not compile
 * (`compile`), or what it threw while loading and the first of its own frames.
 * esbuild's first line alone was "Transform failed with 1 error:", naming nothing.
 */
export function moduleLoadProblem(e: unknown): { compile: boolean; text: string } {
  const located = compileErrorLocation(e);
  if (located !== null) return { compile: true, text: located };
  const message = describeThrown(e).split('\n')[0];
  const where = appFrames(e instanceof Error ? new Error('', { cause: e }) : e)[0];
  return { compile: false, text: `${message}${where === undefined ? '' : `, ${where}`}` };
}

/** A `file:line:col` whose file may be absolute, made relative to the working directory. */
function shownPath(located: string): string {
  const m = /^(.*?)(:\d+:\d+)$/.exec(located);
  if (m === null) return located;
  return isAbsolute(m[1]) ? `${shown(m[1])}${m[2]}` : located;
}
