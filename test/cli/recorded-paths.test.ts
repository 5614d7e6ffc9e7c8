/**
 * The same inputs named another way record the same bytes: a samples file's spec and a
 * repro's platform were written as typed (`apps/calibration/strata.spec` against its
 * absolute path, `cm5` against `platforms/cm5.json` or its absolute path), so the same
 * calibration or run wrote different files from another directory, and the models
 * fitted from them carried another samples hash. Both are now recorded as the app
 * always was: from the project's root inside it, absolute outside. And a repro's
 * parameters were in the order given; they are in the order of their names.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

describe.concurrent('inputs named another way', () => {
  it('give a calibration the same samples file', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-recorded-spec-'));
    const calibrate = (spec: string, out: string, cwd: string) => sim(['calibrate', '--platform', 'cm5', spec, '-o', join(dir, out), '--nodes', '4', '--vcount', '2'], cwd);
    const runs = await Promise.all([
      calibrate('apps/calibration/strata.spec', 'relative.samples', ROOT),
      calibrate(join(ROOT, 'apps/calibration/strata.spec'), 'absolute.samples', dir),
      calibrate('strata.spec', 'beside.samples', join(ROOT, 'apps/calibration')),
    ]);
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
    const relative = readFileSync(join(dir, 'relative.samples'), 'utf8');
    expect(relative).toMatch(/^# spec apps\/calibration\/strata\.spec sha256 /m);
    expect(readFileSync(join(dir, 'absolute.samples'), 'utf8')).toBe(relative);
    expect(readFileSync(join(dir, 'beside.samples'), 'utf8')).toBe(relative);
  });

  it('give a run the same repro file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-recorded-platform-'));
    const record = (platform: string, out: string, cwd: string) => sim(['--platform', platform, join(ROOT, 'apps/cshift'), '--nodes', '4', '--record', join(dir, out), '--json'], cwd);
    const runs = await Promise.all([record('cm5', 'name.json', ROOT), record('platforms/cm5.json', 'path.json', ROOT), record(join(ROOT, 'platforms/cm5.json'), 'absolute.json', dir)]);
    for (const r of runs) expect(r.code).toBe(0);
    const byName = readFileSync(join(dir, 'name.json'), 'utf8');
    expect(JSON.parse(byName).platform.source).toBe('platforms/cm5.json');
    expect(readFileSync(join(dir, 'path.json'), 'utf8')).toBe(byName);
    expect(readFileSync(join(dir, 'absolute.json'), 'utf8')).toBe(byName);
  });

  // Outside the project a link was recorded as named (resolve, not realpath), and
  // messages named a platform file by its recorded path, which did not work from where
  // the user was (a suggested "sim calibrate --platform mydir/dear.json" from mydir).
  it('give a run outside the project the same repro through a link, and messages the path as given', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'sim-recorded-link-')));
    mkdirSync(join(dir, 'real'));
    copyFileSync(join(ROOT, 'platforms/cm5.json'), join(dir, 'real', 'mine.json'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const record = (platform: string, out: string) => sim(['--platform', platform, join(ROOT, 'apps/cshift'), '--nodes', '4', '--record', join(dir, out), '--json'], dir);
    const runs = await Promise.all([record('real/mine.json', 'real.json'), record('link/mine.json', 'link.json')]);
    for (const r of runs) expect(r.code).toBe(0);
    const real = readFileSync(join(dir, 'real.json'), 'utf8');
    expect(JSON.parse(real).platform.source).toBe(join(dir, 'real', 'mine.json'));
    expect(readFileSync(join(dir, 'link.json'), 'utf8')).toBe(real);
    writeFileSync(join(dir, 'real', 'bad.json'), '{ "name": ');
    const bad = await sim(['--platform', 'link/bad.json', 'apps/cshift'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sim: link\/bad\.json: not valid JSON/);
  });

  it('give a run its parameters in one order, however they were given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-recorded-params-'));
    const record = (params: string[], out: string) => sim(['--platform', 'cm5', 'apps/stencil', '--nodes', '16', ...params.flatMap((p) => ['--param', p]), '--record', join(dir, out), '--json']);
    const runs = await Promise.all([record(['width=64', 'height=48', 'iters=2'], 'a.json'), record(['iters=2', 'height=48', 'width=64'], 'b.json')]);
    for (const r of runs) expect(r.code).toBe(0);
    const a = readFileSync(join(dir, 'a.json'), 'utf8');
    expect(JSON.parse(a).params).toEqual(['height=48', 'iters=2', 'width=64']);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(a);
  });
});
