// `npm run build` (also run by `prepare` at install and pack, and by `npm test`):
// compiles src/ and apps/ to JavaScript with type declarations in dist/
// (tsconfig.build.json; the declarations' relative imports then name .js files, so a
// program importing the package — package.json "exports" — type-checks against them),
// copies the worker entry points (src/**/*.mjs) beside them, parses and checks each
// shipped platform file into dist/platforms/ (a run of an unchanged one then skips
// loading the schema library: src/cli/load-inputs.ts), then records what it was
// made from in dist/build.json. The record is written
// last and from the state read before compiling, so a source edited during the
// build leaves the build stale rather than wrongly current.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceState } from './build-state.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const before = sourceState(root);
// lib/tsc.js, the module its bin/tsc imports: Node before 20.10 refuses to load the
// extensionless bin/tsc in TypeScript's "type": "module" package (ERR_UNKNOWN_FILE_EXTENSION).
let tsc;
try {
  tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'lib', 'tsc.js');
} catch {
  // A checkout installed into another project (`npm install ./proteus-strata`) before its own
  // `npm install` died here on "Cannot find module 'typescript/package.json'" and a stack.
  process.stderr.write(`build: the TypeScript compiler is not installed in ${root} (no node_modules/typescript); expected a checkout set up with \`npm install\` there first, which installs it and builds\n`);
  process.exit(1);
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch {
  process.stderr.write('build: the TypeScript compiler failed (see above); dist/ is not current, so sim runs the sources\n');
  process.exit(1);
}
// The declarations keep the sources' `./x.ts` imports (tsc rewrites them only in the
// JavaScript); a program that imports the package resolves `./x.js` to `./x.d.ts`.
for (const dir of ['src', 'apps']) {
  for (const entry of readdirSync(join(root, 'dist', dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.(m?)ts(['"])/g, (_, head, path, m, quote) => `${head}${path}.${m}js${quote}`);
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}
// The worker-thread entry points (*.mjs under src/) are plain JavaScript: copied as they are.
for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.mjs')) continue;
  const rel = relative(root, join(entry.parentPath ?? entry.path, entry.name));
  copyFileSync(join(root, rel), join(root, 'dist', rel));
}
const { parsePlatform } = await import(pathToFileURL(join(root, 'dist', 'src', 'platform', 'load-platform.js')).href);
mkdirSync(join(root, 'dist', 'platforms'));
for (const file of readdirSync(join(root, 'platforms')).filter((f) => f.endsWith('.json'))) {
  const source = `platforms/${file}`;
  let platform;
  try {
    platform = parsePlatform(readFileSync(join(root, source), 'utf8'), source);
  } catch {
    continue; // a run of it reports what is wrong
  }
  writeFileSync(join(root, 'dist', 'platforms', file), JSON.stringify(platform));
}
writeFileSync(join(root, 'dist', 'build.json'), `${JSON.stringify({ sources: before }, null, 1)}\n`);
