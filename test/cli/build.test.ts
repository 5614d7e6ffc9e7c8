/**
 * The JavaScript build in dist/ and its fallback: sim runs the build only while it
 * matches the sources, and a TypeScript module from outside the build shares the
 * build's runtime. (`npm test` builds first, so the other CLI tests run the build.)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isBuildCurrent, sourceState } from '../../scripts/build-state.mjs';
import { ROOT, sim, type CliResult } from '../support/sim-cli.ts';

describe('the build record', () => {
  const root = mkdtempSync(join(tmpdir(), 'sim-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string): void => {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  const record = (): void => write('dist/build.json', JSON.stringify({ sources: sourceState(root) }));

  it('is current until a source changes, appears or goes, and missing without dist/build.json', () => {
    for (const f of ['tsconfig.json', 'tsconfig.build.json', 'src/a.ts', 'apps/x/index.ts']) write(f, `// ${f}\n`);
    expect(isBuildCurrent(root)).toBe(false);
    record();
    expect(isBuildCurrent(root)).toBe(true);

    utimesSync(join(root, 'src/a.ts'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(isBuildCurrent(root)).toBe(false);
    record();
    write('apps/x/extra.ts', '// new\n');
    expect(isBuildCurrent(root)).toBe(false);
    record();
    rmSync(join(root, 'apps/x/extra.ts'));
    expect(isBuildCurrent(root)).toBe(false);
    record();
    write('src/notes.md', 'not a source\n');
    expect(isBuildCurrent(root)).toBe(true);
  });

  it('is taken as it is in an installed package, but not in a checkout somewhere below a node_modules folder', () => {
    const stale = (dir: string): string => {
      for (const f of ['tsconfig.json', 'tsconfig.build.json', 'src/a.ts', 'apps/x/index.ts']) write(join(dir, f), `// ${f}\n`);
      write(join(dir, 'dist/build.json'), JSON.stringify({ sources: {} }));
      return join(root, dir);
    };
    // npm install of the packed tarball: packing resets the sources' times, so the record cannot match.
    expect(isBuildCurrent(stale('installed/node_modules/proteus-strata'))).toBe(true);
    expect(isBuildCurrent(stale('installed/node_modules/@lab/proteus-strata'))).toBe(true);
    // A clone under ~/node_modules/work/ ran its old build after its sources changed.
    expect(isBuildCurrent(stale('home/node_modules/work/proteus'))).toBe(false);
  });
});

describe('the build script in a checkout without its own npm install', () => {
  // Installed into another project (`npm install ./proteus-strata`) before its own
  // npm install, prepare died on "Cannot find module 'typescript/package.json'" and a stack.
  it('says in one line that TypeScript is missing and what to do, exit 1, and leaves dist/ as it was', () => {
    const root = mkdtempSync(join(tmpdir(), 'sim-unbuilt-'));
    for (const f of ['build.mjs', 'build-state.mjs']) cpSync(join(ROOT, 'scripts', f), join(root, 'scripts', f));
    for (const dir of ['src', 'apps', 'dist']) mkdirSync(join(root, dir));
    for (const f of ['tsconfig.json', 'tsconfig.build.json']) cpSync(join(ROOT, f), join(root, f));
    writeFileSync(join(root, 'dist', 'build.json'), '{}\n');
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe(`build: the TypeScript compiler is not installed in ${root} (no node_modules/typescript); expected a checkout set up with \`npm install\` there first, which installs it and builds\n`);
    expect(r.status).toBe(1);
    expect(readFileSync(join(root, 'dist', 'build.json'), 'utf8')).toBe('{}\n');
    rmSync(root, { recursive: true, force: true });
  });
});

describe.concurrent('a TypeScript app outside the build', () => {
  it.each([
    ['the build', {}],
    ['the sources', { SIM_FROM_SOURCES: '1' }],
  ])('run from %s shares its runtime: its StrataFailure is reported as one', async (_, env: Record<string, string>) => {
    const cwd = mkdtempSync(join(tmpdir(), 'sim-app-'));
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(import.meta.dirname, '../fixtures/strata-failure-app')], cwd, env);
    rmSync(cwd, { recursive: true, force: true });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('sim: run failed: the fixture gives up');
  });
});

/** Runs, on 4 CM-5 nodes, a TypeScript app written into a new temp dir outside any package (a barrier; verified when 4 nodes return). */
async function runTinyApp(prefix: string, env: Record<string, string>, killAfterMs = 0): Promise<CliResult> {
  const cwd = mkdtempSync(join(tmpdir(), prefix));
  const runtime = join(import.meta.dirname, '../../src/runtime/index.ts');
  writeFileSync(
    join(cwd, 'app.ts'),
    `import { defineApp } from ${JSON.stringify(runtime)};\n` +
      `export default defineApp({ name: 'tiny', description: 'an app in a temp dir', params: {}, *main(rt) { yield* rt.barrier(); return rt.self; }, verify: ({ results }) => ({ ok: results.length === 4, detail: 'four nodes' }) });\n`,
  );
  const r = await sim(['--platform', 'cm5', '--nodes', '4', 'app.ts'], cwd, env, killAfterMs);
  rmSync(cwd, { recursive: true, force: true });
  return r;
}

describe.concurrent('a TypeScript app outside any "type": "module" package', () => {
  it.each([
    ['the build', {}],
    ['the sources', { SIM_FROM_SOURCES: '1' }],
  ])('loads as an ES module when run from %s', async (_, env: Record<string, string>) => {
    const r = await runTinyApp('sim-loose-app-', env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verified +yes: four nodes$/m);
  });
});

describe.concurrent('with the OS temp dir read-only, where tsx cannot keep its compile cache', () => {
  // sysfs refuses new files, root included. From the sources sim died with "EPERM:
  // operation not permitted, mkdir '/sys/tsx-0'"; from the build the app "cannot be loaded".
  it.each([
    ['the build', {}],
    ['the sources', { SIM_FROM_SOURCES: '1' }],
  ])('sim runs a TypeScript app from %s', async (_, env: Record<string, string>) => {
    const r = await runTinyApp('sim-read-only-tmp-', { ...env, TMPDIR: '/sys' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verified +yes: four nodes$/m);
  });
});

describe.concurrent('with an OS temp dir that does not exist', () => {
  // Under /proc, Node's recursive mkdir of <TMPDIR>/tsx-<uid> never returned: sim spun a core
  // for ever, saying nothing. Elsewhere it made the missing folders, TMPDIR's parents too.
  it.each([
    ['the build', {}],
    ['the sources', { SIM_FROM_SOURCES: '1' }],
  ])('sim runs a TypeScript app from %s without the compile cache, making no folder', async (_, env: Record<string, string>) => {
    const missing = join(mkdtempSync(join(tmpdir(), 'sim-missing-tmp-')), 'not', 'made');
    const [proc, elsewhere] = await Promise.all([
      runTinyApp('sim-proc-tmp-', { ...env, TMPDIR: '/proc/sim-no-such-folder' }, 30_000),
      runTinyApp('sim-missing-tmp-', { ...env, TMPDIR: missing }, 30_000),
    ]);
    for (const r of [proc, elsewhere]) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^verified +yes: four nodes$/m);
    }
    expect(existsSync(join(missing, '..'))).toBe(false);
  }, 60_000);
});

describe("a checkout under a path with a '?', where tsx cannot compile the sources", () => {
  it('without a current build, sim says so in one line, exit 2 (it died compiling the sources, with a stack trace)', async () => {
    const checkout = join(mkdtempSync(join(tmpdir(), 'sim-query-')), 'why?', 'sim');
    for (const f of ['bin', 'scripts', 'src', 'package.json']) cpSync(join(ROOT, f), join(checkout, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    const sources = spawnSync(process.execPath, [join(checkout, 'bin/sim.mjs'), '--version'], { encoding: 'utf8' });
    expect(sources.stderr).toBe(`sim: the build in dist/ is missing or older than the sources, and they cannot run from a path with a '?' in it (${checkout}; tsx takes it for a query); expected npm run build (and SIM_FROM_SOURCES unset), or the checkout moved to a path without one\n`);
    expect(sources.status).toBe(2);
  });
});

describe.concurrent('a shipped platform', () => {
  it('runs the same from the build’s checked copy as parsed from its file', async () => {
    const args = ['apps/ping-pong', '--nodes', '8', '--json'];
    const [byName, byPath] = await Promise.all([sim(['--platform', 'paragon', ...args]), sim(['--platform', './platforms/paragon.json', ...args])]);
    expect([byName.code, byPath.code]).toEqual([0, 0]);
    const a = JSON.parse(byName.stdout) as Record<string, unknown>;
    const b = JSON.parse(byPath.stdout) as Record<string, unknown>;
    for (const key of ['fingerprint', 'platformHash', 'simulatedCycles', 'events', 'metrics']) expect(a[key], key).toEqual(b[key]);
  });

  it('edited after the build is read from its file, not from the build’s checked copy', () => {
    // A copy of the checkout whose build is current, then its cm5.json edited. The build's
    // record is made the copy's sources' own: a copy keeps times only to the microsecond
    // (cpSync's preserveTimestamps), so a record of the originals' finer times would not match.
    const copy = mkdtempSync(join(tmpdir(), 'sim-checkout-'));
    for (const entry of ['bin', 'dist', 'src', 'apps', 'platforms', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const record = join(copy, 'dist', 'build.json');
    writeFileSync(record, JSON.stringify({ ...(JSON.parse(readFileSync(record, 'utf8')) as object), sources: sourceState(copy) }));
    expect(isBuildCurrent(copy)).toBe(true);
    const file = join(copy, 'platforms/cm5.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "Thinking Machines CM-5"', '"title": "An edited CM-5"'));
    const r = spawnSync(process.execPath, [join(copy, 'bin/sim.mjs'), '--platform', 'cm5', 'apps/ping-pong', '--nodes', '4', '--param', 'rounds=1'], { cwd: copy, encoding: 'utf8' });
    rmSync(copy, { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^run +ping-pong on cm5 \(An edited CM-5\), 4 nodes/m);
  });
});
