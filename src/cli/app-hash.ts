/**
 * The content hash of an app, as repro files record it and sweep run keys name it: what
 * tells a replay that the app changed since the recording, and a sweep that a recorded
 * result is stale. SHA-256 over the app's modules: its entry and the modules beside it
 * (as before), and every module any of them imports by a relative path, transitively,
 * wherever it lies. apps/sample-sort imports ../radix-sort/radix.ts: an edit there
 * changed no hash, so a replay diverged without the note that the app had changed, and a
 * sweep resumed after it took its recorded results as current. The simulator's own
 * modules (the runtime an app imports) are not the app's: the simulator version names them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { PROJECT_ROOT } from './project.ts';

const MODULE = /\.(m?ts|cts|tsx|m?js|cjs)$/;

/** A path with its links followed, or as it is if it is not there. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The simulator's own folders, whose modules an app imports but does not own, by their
 * real paths: an app imports the runtime through whatever path reaches it, and through
 * a link to the checkout the whole simulator was hashed as the app's (another hash for
 * the same app, so its replay said it had changed).
 */
const SIMULATOR = [join(PROJECT_ROOT, 'src'), join(PROJECT_ROOT, 'dist', 'src')].map((d) => real(d) + sep);

/** Relative specifiers of a module's static imports, re-exports and literal dynamic imports. */
function relativeImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bfrom\s*['"](\.{1,2}\/[^'"\n]+)['"]|\bimport\s*\(?\s*['"](\.{1,2}\/[^'"\n]+)['"]/g)) out.push(m[1] ?? m[2]);
  return out;
}

/** What a specifier may name besides itself, as the TypeScript loader resolves it: `./x` is ./x.ts, `./lib` ./lib/index.ts, `./x.js` ./x.ts. */
const EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.json'];

/** The file an import names (its real path), or null if none. */
function importedFile(from: string, specifier: string): string | null {
  const path = resolve(dirname(from), specifier);
  const candidates = [path, path.replace(/\.js$/, '.ts'), path.replace(/\.mjs$/, '.mts'), path.replace(/\.cjs$/, '.cts'), ...EXTENSIONS.map((e) => path + e), ...EXTENSIONS.map((e) => join(path, `index${e}`))];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return real(candidate);
  }
  return null;
}

/** SHA-256 over the app's modules (see above), each by its path from the entry's folder, in that path's order. */
export function appContentHash(entryFile: string): string {
  // Named from the entry's real folder: the same app reached through a link is the same files.
  const dir = dirname(real(entryFile));
  const seen = new Set<string>();
  const queue = readdirSync(dir)
    .filter((f) => MODULE.test(f) && statSync(join(dir, f)).isFile())
    .map((f) => real(join(dir, f)));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || SIMULATOR.some((s) => file.startsWith(s))) continue;
    seen.add(file);
    // A data file (JSON) is hashed, not read for imports.
    if (!MODULE.test(file)) continue;
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const next = importedFile(file, specifier);
      if (next !== null && !seen.has(next)) queue.push(next);
    }
  }
  // Forward slashes: the same names, so the same hash, on every system.
  const named = [...seen].map((f) => ({ f, name: relative(dir, f).split(sep).join('/') })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hash = createHash('sha256');
  for (const { f, name } of named) hash.update(name).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}
