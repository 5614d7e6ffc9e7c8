// What the JavaScript build in dist/ was made from, whether it still matches the
// sources, and so which of the two the `sim` command runs. The build records every
// TypeScript source's size and modification time in dist/build.json; bin/sim.mjs
// runs the build only when they all still match (make's rule), and otherwise runs
// the sources through tsx.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folders compiled into dist/ (tsconfig.build.json's "include"). */
export const SOURCE_DIRS = ['src', 'apps'];
/** Files whose change changes the build although they are not sources. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json'];
const SOURCE_FILE = /\.(m?ts|mjs)$/;

/** Every build input under `root` (TypeScript sources and the .mjs files the build copies) as { relative path: [size, mtimeMs] }, in sorted order. */
export function sourceState(root) {
  // Paths are put together as strings: node:path's join and relative cost more than the
  // stats themselves, and bin/sim.mjs runs this before every command.
  const files = [...BUILD_INPUTS];
  for (const dir of SOURCE_DIRS) {
    const base = join(root, dir);
    for (const entry of readdirSync(base, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !SOURCE_FILE.test(entry.name)) continue;
      // relative(root, join(parent, name)), where parent is base or a folder below it
      const parent = entry.parentPath ?? entry.path;
      files.push(parent.length === base.length ? `${dir}${sep}${entry.name}` : `${dir}${sep}${parent.slice(base.length + 1)}${sep}${entry.name}`);
    }
  }
  files.sort();
  const prefix = root.endsWith(sep) ? root : root + sep;
  const state = {};
  for (const f of files) {
    const st = statSync(prefix + f);
    state[f] = [st.size, st.mtimeMs];
  }
  return state;
}

/**
 * Whether `root` is a package npm installed: node_modules/<name> or node_modules/@scope/<name>.
 * A checkout that merely lies somewhere below a folder named node_modules is not (any
 * node_modules in the path made one run its stale build after its sources changed).
 */
function isInstalledPackage(root) {
  const parts = root.split(/[\\/]/).filter((p) => p !== '');
  const above = parts.at(-2);
  return above === 'node_modules' || (above?.startsWith('@') === true && parts.at(-3) === 'node_modules');
}

/**
 * Whether dist/ holds a build of exactly the sources now under `root`. An installed
 * package (under node_modules/, from `npm install` of the packed tarball) runs the
 * build it was packed with: packing resets every file's modification time, and no one
 * edits an installed package's sources.
 */
export function isBuildCurrent(root) {
  if (isInstalledPackage(root)) return existsSync(join(root, 'dist', 'build.json'));
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(join(root, 'dist', 'build.json'), 'utf8')).sources;
  } catch {
    return false;
  }
  const now = sourceState(root);
  const keys = Object.keys(now);
  if (keys.length !== Object.keys(recorded).length) return false;
  return keys.every((k) => recorded[k] !== undefined && recorded[k][0] === now[k][0] && recorded[k][1] === now[k][1]);
}

/**
 * The CLI's `main` (src/cli/main.ts) as `sim` runs it: from the build when it is
 * current, else from the sources through tsx (slower to start, same results);
 * SIM_FROM_SOURCES=1 asks for the sources always.
 */
export async function loadCliMain(root) {
  if (process.env.SIM_FROM_SOURCES !== '1' && isBuildCurrent(root)) {
    return (await import(pathToFileURL(join(root, 'dist', 'src', 'cli', 'main.js')).href)).main;
  }
  // tsx reads a '?' in a path as a query's start: the sources failed to compile there, with
  // a stack trace. One line instead (the build runs from such a path).
  if (realpathSync(root).includes('?')) {
    return async () => {
      const why = process.env.SIM_FROM_SOURCES === '1' ? 'SIM_FROM_SOURCES=1 asks for the TypeScript sources' : 'the build in dist/ is missing or older than the sources';
      process.stderr.write(`sim: ${why}, and they cannot run from a path with a '?' in it (${realpathSync(root)}; tsx takes it for a query); expected npm run build (and SIM_FROM_SOURCES unset), or the checkout moved to a path without one\n`);
      return 2;
    };
  }
  const { registerTsx } = await import('../src/cli/register-tsx.mjs');
  await registerTsx();
  return (await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href)).main;
}
