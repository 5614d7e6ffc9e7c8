/**
 * The package as another project sees it (issue 23 item 7): `npm pack`, then
 * `npm install <tarball>` in a scratch project in the OS temp dir, then plain `node`
 * (no tsx) importing the package runs the stencil on Alewife with the fingerprint
 * `sim` prints, reads a trace the installed `sim` wrote, and fits samples; CommonJS
 * requires it where Node can require ES modules (README); and TypeScript type-checks
 * a program against the shipped declarations.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isBuildCurrent } from '../../scripts/build-state.mjs';
import { ROOT, sim } from '../support/sim-cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'sim-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// No debug logs: each npm call left one in ~/.npm/_logs of whoever ran npm test (the cache is used on purpose, below).
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_logs_max: '0' };

/**
 * npm's cache folder (~/.npm), or, where it cannot be made or written (HOME read-only:
 * `npm pack` died with "EACCES ... mkdir '<HOME>/.npm'"), one in the scratch folder, from
 * which the install then fetches the package's dependencies anew.
 */
function npmCache(): string {
  const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env: npmEnv }).trim();
  try {
    mkdirSync(cache, { recursive: true });
    accessSync(cache, constants.W_OK);
    return cache;
  } catch {
    return join(scratch, 'npm-cache');
  }
}
const cache = npmCache();

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--cache', cache], { cwd, encoding: 'utf8', env: npmEnv });

const SCRIPT = `
import { fitModel, loadRun, loadTrace, runApp, shippedApp, shippedAppNames } from 'proteus-strata';
import stencil from 'proteus-strata/apps/stencil';
const byName = runApp(await loadRun({ platform: 'alewife', app: shippedApp('stencil') }));
const byImport = runApp(await loadRun({ platform: 'alewife', app: stencil }));
const trace = loadTrace('ping.trace');
const fit = fitModel(['n'], [1, 2, 3, 4].map((n) => ({ x: [n], y: 5 + 2 * n })), false);
console.log(JSON.stringify({
  fingerprint: byName.fingerprint, again: byImport.fingerprint, verified: byName.verified,
  apps: shippedAppNames(), traceNodes: trace.header.nodes, coefficients: fit.coefficients.map((c) => Math.round(c * 1e6) / 1e6),
}));
`;

const TYPED = `
import { loadRun, runApp, type RunSummary, type Platform, loadPlatform } from 'proteus-strata';
const platform: Platform = await loadPlatform('cm5');
const summary: RunSummary = runApp(await loadRun({ platform, app: 'x', nodes: 4 }));
const cycles: number = summary.simulatedCycles;
// @ts-expect-error: the declarations are real, so a wrong type is an error
const wrong: string = summary.simulatedCycles;
// What a RunConfig's fields take, and the failures a run raises, are named by the entry too.
import { DeadlockError, RunLimitError, type LogSink, type NetworkMode, type OutputSink, type TraceSink } from 'proteus-strata';
const network: NetworkMode = 'analytic';
const output: OutputSink = (stream, text) => void [stream, text];
const log: LogSink = (entry) => void entry;
const trace: TraceSink | undefined = undefined;
const failures = [DeadlockError, RunLimitError];
// The types behind a RunConfig's limits, observer and inspect, a summary's params and spreads, and the readers' options.
import { defineApp, type EventObserver, type GraphOptions, type Machine, type Op, type ParamValue, type ReadOptions, type RunLimits, type Spread } from 'proteus-strata';
const limits: RunLimits = { maxEvents: 10 };
const observer: EventObserver | null = null;
const inspect = (machine: Machine): number => machine.nodes.length;
const params: Record<string, ParamValue> = summary.params;
const spread: Spread = summary.busyCycles;
const graph: GraphOptions = {};
const read: ReadOptions = {};
// An app's main annotated with the runtime's Op, as README's example is.
const mine = defineApp({ name: 'mine', description: 'typed', params: {}, *main(rt): Op<number> { yield* rt.barrier(); return rt.self; }, verify: () => ({ ok: true, detail: '' }) });
export { cycles, wrong, network, output, log, trace, failures, limits, observer, inspect, params, spread, graph, read, mine };
`;

describe('the packed package', () => {
  it('installs into a scratch project, where plain node imports it and gets sim\'s stencil fingerprint', { timeout: 600_000 }, async () => {
    // The build is in dist/ already (npm test builds first); --ignore-scripts keeps
    // pack from rebuilding it under the other tests' feet.
    expect(isBuildCurrent(ROOT), 'dist/ is not a build of these sources: npm run build first (npm test does)').toBe(true);
    npm(['pack', '--ignore-scripts', '--pack-destination', scratch], ROOT);
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'))!;
    const listing = execFileSync('tar', ['-tzf', join(scratch, tarball)], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/dist/src/api/index.js');
    expect(listing).toContain('package/dist/src/api/index.d.ts');
    expect(listing).toContain('package/dist/apps/stencil/index.js');
    expect(listing.filter((f) => f.startsWith('package/test/') || f.startsWith('package/bench/'))).toEqual([]);

    const project = join(scratch, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
    npm(['install', '--prefer-offline', join(scratch, tarball)], project);

    // The installed sim runs its own build and writes a trace the library reads back.
    execFileSync(join(project, 'node_modules/.bin/sim'), ['--platform', 'cm5', '--nodes', '4', 'node_modules/proteus-strata/apps/ping-pong', '--param', 'rounds=1', '--trace', 'ping.trace'], { cwd: project });
    writeFileSync(join(project, 'run.mjs'), SCRIPT);
    const out = JSON.parse(execFileSync(process.execPath, ['run.mjs'], { cwd: project, encoding: 'utf8' }));
    const cli = await sim(['--platform', 'alewife', 'apps/stencil', '--json']);
    expect(cli.code).toBe(0);
    expect(out.fingerprint).toBe(JSON.parse(cli.stdout).fingerprint);
    expect(out.again).toBe(out.fingerprint);
    expect(out.verified).toBe(true);
    expect(out.apps).toContain('stencil');
    expect(out.traceNodes).toBe(4);
    expect(out.coefficients).toEqual([5, 2]);

    // CommonJS: require works where Node can require ES modules (nothing in the entry awaits at its top level), else Node's own error says why.
    writeFileSync(join(project, 'run.cjs'), "const { runApp, shippedAppNames } = require('proteus-strata'); console.log(typeof runApp, shippedAppNames().includes('stencil'));\n");
    const canRequireEsm = (process.features as { require_module?: boolean }).require_module === true;
    if (canRequireEsm) expect(execFileSync(process.execPath, ['run.cjs'], { cwd: project, encoding: 'utf8' })).toBe('function true\n');
    else expect(() => execFileSync(process.execPath, ['run.cjs'], { cwd: project, stdio: 'pipe' })).toThrow(/ERR_REQUIRE_ESM/);

    // The declarations type-check a program (the project's own TypeScript compiler), and
    // type-check themselves under the newest library too (skipLibCheck off): with ESNext's,
    // whose Generator has the iterator helpers, the runtime's state machines that declared
    // `implements Generator` were refused (TS2420, "missing map, filter, take, drop").
    writeFileSync(join(project, 'typed.ts'), TYPED);
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    for (const lib of ['es2022', 'esnext']) {
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { target: 'es2022', lib: [lib], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
          files: ['typed.ts'],
        }),
      );
      execFileSync(process.execPath, [tsc, '-p', join(project, 'tsconfig.json')], { cwd: project, encoding: 'utf8' });
    }
  });
});
