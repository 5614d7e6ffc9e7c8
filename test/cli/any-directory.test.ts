/**
 * The shipped apps run from any working directory, as the shipped platforms do: `sim
 * apps` lists them as apps/<name>, and studies write sweeps that name them so. Found
 * when `sim study extra-rows` run outside the checkout stopped at its first run with
 * "app apps/stencil: no such file or folder".
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

const fingerprintOf = (stdout: string) => /^fingerprint\s+(\S+)$/m.exec(stdout)?.[1];

describe.concurrent('a shipped app named apps/<name> runs from any directory', () => {
  it('runs the shipped app with the same fingerprint as in the checkout, and lists it as sim apps does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-elsewhere-'));
    const args = ['--platform', 'cm5', '--nodes', '16', 'apps/cshift'];
    const [elsewhere, home, listed] = await Promise.all([sim(args, dir), sim(args, ROOT), sim(['apps'], dir)]);
    expect(elsewhere.stderr).toBe('');
    expect(elsewhere.code).toBe(0);
    expect(fingerprintOf(elsewhere.stdout)).toBeDefined();
    expect(fingerprintOf(elsewhere.stdout)).toBe(fingerprintOf(home.stdout));
    expect(listed.stdout).toMatch(/^apps\/cshift\s/m);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('calibrates from a shipped spec named apps/calibration/<spec>, giving the shipped samples byte for byte', async () => {
    // "apps/calibration/hybrid.spec: cannot read the spec file (ENOENT)" outside the checkout.
    const dir = mkdtempSync(join(tmpdir(), 'sim-elsewhere-'));
    const r = await sim(['calibrate', '--platform', 'cm5', 'apps/calibration/hybrid.spec', '--nodes', '16', '--vcount', '10', '-o', 'h.samples'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'h.samples'), 'utf8')).toBe(readFileSync(join(ROOT, 'platforms/models/hybrid/n16/cm5.samples'), 'utf8'));
  });

  it('prefers an app of that path in the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-elsewhere-'));
    mkdirSync(join(dir, 'apps/cshift'), { recursive: true });
    writeFileSync(join(dir, 'apps/cshift/index.ts'), 'export default 42;\n');
    const r = await sim(['--platform', 'cm5', '--nodes', '8', 'apps/cshift'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sim: app apps\/cshift: is not an app \(/);
  });

  it('runs a study from another directory, its runs naming the shipped apps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-elsewhere-'));
    const r = await sim(['study', 'extra-rows', '--platform', 'cm5', '--trials', '0', '--shard', '1/96', '--out', 'x'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/ran 1;/);
  });

  it('sim select takes an app folder from another directory as a run does (it said "unknown module apps/stencil")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-elsewhere-'));
    const args = ['select', '--platform', 'atm', 'apps/stencil', '--param', 'width=512', '--param', 'height=64', '--param', 'iters=2', '--json'];
    const [elsewhere, home] = await Promise.all([sim(args, dir), sim(args, ROOT)]);
    expect(elsewhere.stderr).toBe('');
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stdout).toBe(home.stdout);
  });

  it('still says so when the app is in neither place', async () => {
    const r = await sim(['--platform', 'cm5', 'apps/nothing'], mkdtempSync(join(tmpdir(), 'sim-elsewhere-')));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("sim: app apps/nothing: no such file or folder (here or among the simulator's apps)\n");
  });

  it.each([
    ['a shipped app from the build', 'apps/cshift', {}],
    ['a TypeScript app of its own', 'test/fixtures/throwing-app', {}],
    ['the sources', 'apps/cshift', { SIM_FROM_SOURCES: '1' }],
  ])('in a working directory deleted under it, says so in one line, exit 2: %s', (_, app: string, env: Record<string, string>) => {
    // It was "internal error (a bug in the simulator): ENOENT ... uv_cwd" with a stack, or
    // esbuild's uncaught exception loading TypeScript.
    const dir = join(mkdtempSync(join(tmpdir(), 'sim-gone-')), 'gone');
    mkdirSync(dir);
    const script = 'cd "$1" && rmdir "$1" && exec "$2" "$3" --platform cm5 --nodes 4 "$4"';
    const r = spawnSync('sh', ['-c', script, 'sh', dir, process.execPath, join(ROOT, 'bin/sim.mjs'), join(ROOT, app)], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
    expect(r.stderr).toBe('sim: the working directory is gone (ENOENT: it was deleted or moved after the shell entered it); expected one that exists: cd to it and run again\n');
    expect(r.status).toBe(2);
  });
});
