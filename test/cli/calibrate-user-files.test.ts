/**
 * The calibration workflow with the files a user writes and names: a spec file, the
 * samples sim calibrate writes from it, and sim fit reading them back (thesis 3.3-3.6).
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

const SPEC = '{{ i 0 6 ++ @ Barrier() @ ClearMemory(length) @ @ length:1<<i @ }}\n';

describe.concurrent('sim calibrate and sim fit with the files a user names', () => {
  // The header's "# spec <file>" line took the name as it was: its second line was read as a
  // sample of ClearMemory before its structure line, and sim fit refused the file just written.
  it('samples a spec file whose name has a newline into a file sim fit reads, naming the spec on one line', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-names-'));
    const spec = 'x\nClearMemory 5 5.spec';
    writeFileSync(join(dir, spec), SPEC);
    const cal = await sim(['calibrate', '--platform', 'cm5', spec, '-o', 'x.samples', '--nodes', '4', '--vcount', '2'], dir);
    expect(cal.stderr).toBe('');
    expect(cal.code).toBe(0);
    // Outside the project, by its absolute path.
    expect(readFileSync(join(dir, 'x.samples'), 'utf8')).toContain(`\n# spec ${realpathSync(dir)}/x\\u000aClearMemory 5 5.spec sha256 `);
    const fit = await sim(['fit', 'x.samples', '-o', 'x.json'], dir);
    expect(fit.stderr).toBe('');
    expect(fit.stdout).toMatch(/^cm5 ClearMemory: /);
    expect(fit.code).toBe(0);
    // And a mistake in such a spec is one line.
    writeFileSync(join(dir, 'y\nz.spec'), '{{ i 1 @ }}\n');
    const bad = await sim(['calibrate', '--platform', 'cm5', 'y\nz.spec', '-o', 'y.samples', '--nodes', '4'], dir);
    expect(bad.stderr).toBe('sim: y\\u000az.spec:1:3: expected 6 components separated by "@" (loops @ setup @ task @ cleanup @ inputs @ terms), found 2\n');
    expect(bad.code).toBe(2);
  });

  // hybrid.spec's terms call the platform's Strata models, which a platform of a new name has none of:
  // the message said "unknown variable BlockTransfer", as if the spec were wrong.
  it('says a Strata model the spec calls is a function the platform lacks, and where such models come from', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-strata-'));
    const platform = JSON.parse(readFileSync(join(ROOT, 'platforms/cm5.json'), 'utf8')) as { name: string };
    platform.name = 'mycm';
    writeFileSync(join(dir, 'mycm.json'), JSON.stringify(platform, null, 2));
    const r = await sim(['calibrate', '--platform', './mycm.json', 'apps/calibration/hybrid.spec', '-o', 'h.samples', '--nodes', '16'], dir);
    expect(r.stderr).toMatch(/^sim: apps\/calibration\/hybrid\.spec:\d+: model StencilRowComm: input factored: unknown function "BlockTransfer" \(known: log2, ceil, floor, exp, min, max, hops, stencilChain; a Strata model of one variable is one where platforms\/models\/<platform>\.json, fitted on this platform file, holds it\) in the expression "[^"\n]*"\n$/);
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, 'h.samples'))).toBe(false);
  });

  it('names a samples file with a newline in its name on one line, in sim fit and in --fit', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fit-names-'));
    writeFileSync(join(dir, 'bad\nx.samples'), '# platform cm5\n# model Foo a\nFoo 1 1\n');
    const fit = await sim(['fit', 'bad\nx.samples', '-o', 'm.json'], dir);
    expect(fit.stderr).toBe('sim: bad\\u000ax.samples: model Foo on cm5: 1 building sample for 2 unknowns (the constant and a); expected at least 3, so the fit has a degree of freedom to judge its terms by\n');
    expect(fit.code).toBe(2);
    const missing = await sim(['fit', 'no\nsuch.samples', '-o', 'm.json'], dir);
    expect(missing.stderr).toBe('sim: no\\u000asuch.samples: cannot read the samples (ENOENT)\n');
    // A spec of one point samples, and its fit fails: the message names the samples kept.
    writeFileSync(join(dir, 'one.spec'), '{{ i 1 1 ++ @ @ ClearMemory(i) @ @ length:i @ }}\n');
    const cal = await sim(['calibrate', '--platform', 'cm5', 'one.spec', '-o', 'o\nk.samples', '--nodes', '4', '--fit', 'models'], dir);
    expect(cal.stderr).toMatch(/^sim: o\\u000ak\.samples: model ClearMemory on cm5: 1 building sample for 2 unknowns .*; the samples are kept in o\\u000ak\.samples \(no models written\)[^\n]*\n$/);
    expect(cal.code).toBe(2);
    expect(existsSync(join(dir, 'o\nk.samples'))).toBe(true);
  });
});
