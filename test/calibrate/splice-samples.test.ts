/**
 * scripts/splice-samples.mjs (README, "Calibrating a module"): the units of a calibration
 * over some lines of a spec put into the samples of the whole spec give the file a
 * calibration of the whole spec writes.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

const splice = (args: string[], cwd: string): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'scripts/splice-samples.mjs'), ...args], { cwd }, (error, _stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr });
    });
  });

describe('splice-samples', () => {
  // A unit of a spec calling Strata models has a "# submodels" line before its "# model" line:
  // every samples file of apps/calibration/hybrid.spec was refused as "a unit without its # model line".
  it('splices the units of a spec whose terms call Strata models into the whole file, as a whole calibration writes it', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-splice-'));
    const calls = '{{ i 1 4 ++ @ Barrier() @ ClearMemory(i) @ @ length:i @ bt:BlockTransfer(64*i) }}\n';
    writeFileSync(join(dir, 'whole.spec'), `${calls}{{ i 1 3 ++ @ Barrier() @ Barrier() @ @ @ }}\n`);
    writeFileSync(join(dir, 'part.spec'), calls);
    for (const spec of ['whole', 'part']) {
      const r = await sim(['calibrate', '--platform', 'cm5', `${spec}.spec`, '-o', `${spec}.samples`, '--nodes', '4', '--vcount', '2'], dir);
      expect(r.code).toBe(0);
    }
    const whole = readFileSync(join(dir, 'whole.samples'), 'utf8');
    expect(whole).toMatch(/^# platform cm5 \w+ nodes 4\n# submodels BlockTransfer from platforms\/models\/cm5\.json sha256 \w+\n# model ClearMemory length bt\n/m);
    copyFileSync(join(dir, 'whole.samples'), join(dir, 'spliced.samples'));
    const r = await splice(['whole.spec', 'spliced.samples', 'part.samples'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'spliced.samples'), 'utf8')).toBe(whole);
  });

  // The spec's models were found by a pattern of "{{" at the start of a line: the units of an
  // indented spec, or of one after another on its line, were dropped from the result without a word.
  it('keeps the units of every spec of the file, however the specs are laid out', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-splice-'));
    const first = '{{ i 1 4 ++ @ Barrier() @ ClearMemory(i) @ @ length:i @ }}';
    writeFileSync(join(dir, 'whole.spec'), `# three models\n${first}\n  {{ i 1 3 ++ @ Barrier()\n  @ Barrier() @ @ @ }}{{ i 1 3 ++ @ @ SendRPC() @ @ @ }}\n`);
    writeFileSync(join(dir, 'part.spec'), `${first}\n`);
    for (const spec of ['whole', 'part']) expect((await sim(['calibrate', '--platform', 'cm5', `${spec}.spec`, '-o', `${spec}.samples`, '--nodes', '4', '--vcount', '1'], dir)).code).toBe(0);
    const whole = readFileSync(join(dir, 'whole.samples'), 'utf8');
    expect(whole.match(/^# model \w+/gm)).toEqual(['# model ClearMemory', '# model Barrier', '# model SendRPC']);
    copyFileSync(join(dir, 'whole.samples'), join(dir, 'spliced.samples'));
    const r = await splice(['whole.spec', 'spliced.samples', 'part.samples'], dir);
    expect(r.stderr).toBe('');
    expect(readFileSync(join(dir, 'spliced.samples'), 'utf8')).toBe(whole);
  });

  // The end lines were dropped and one written for the result: a partial file cut short came out
  // as a whole one, which sim fit took, though it refuses the partial file as truncated.
  it('refuses a partial file cut short, and leaves the samples as they were', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-splice-'));
    writeFileSync(join(dir, 'whole.spec'), '{{ i 1 4 ++ @ Barrier() @ ClearMemory(i) @ @ length:i @ }}\n{{ i 1 3 ++ @ Barrier() @ Barrier() @ @ @ }}\n');
    writeFileSync(join(dir, 'part.spec'), '{{ i 1 4 ++ @ Barrier() @ ClearMemory(i) @ @ length:i @ }}\n');
    for (const spec of ['whole', 'part']) expect((await sim(['calibrate', '--platform', 'cm5', `${spec}.spec`, '-o', `${spec}.samples`, '--nodes', '4', '--vcount', '1'], dir)).code).toBe(0);
    const part = readFileSync(join(dir, 'part.samples'), 'utf8').split('\n');
    writeFileSync(join(dir, 'cut.samples'), `${part.slice(0, -3).join('\n')}\n`);
    expect((await sim(['fit', 'cut.samples', '-o', 'cut.json'], dir)).stderr).toMatch(/^sim: cut\.samples: truncated: /);
    const before = readFileSync(join(dir, 'whole.samples'), 'utf8');
    const r = await splice(['whole.spec', 'whole.samples', 'cut.samples'], dir);
    expect(r.stderr).toBe('splice-samples: cut.samples: truncated: it does not end with the end line ("# end: U units, S samples") sim calibrate writes last; the file was cut short (or is one shard: concatenate them all)\n');
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, 'whole.samples'), 'utf8')).toBe(before);
  });

  it('says in one line that a file it names cannot be read (it was a stack trace)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-splice-'));
    writeFileSync(join(dir, 'a.samples'), '# platform cm5\n# model Foo a\nFoo 1 1\n');
    const spec = await splice(['no.spec', 'a.samples', 'a.samples'], dir);
    expect(spec.stderr).toBe('splice-samples: no.spec: cannot read the spec (ENOENT)\n');
    expect(spec.code).toBe(2);
    writeFileSync(join(dir, 'a.spec'), '{{ i 1 4 ++ @ @ Foo(i) @ @ a:i @ }}\n');
    const part = await splice(['a.spec', 'a.samples', 'no.samples'], dir);
    expect(part.stderr).toBe('splice-samples: no.samples: cannot read the samples (ENOENT)\n');
    expect(part.code).toBe(2);
  });

  // Left out without a word: the samples were written unchanged and the splice reported done.
  it('refuses a partial unit it has no place for: of another platform, or of a model the spec lacks', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-splice-'));
    writeFileSync(join(dir, 'whole.spec'), '{{ i 1 4 ++ @ Barrier() @ ClearMemory(i) @ @ length:i @ }}\n');
    writeFileSync(join(dir, 'other.spec'), '{{ i 1 3 ++ @ Barrier() @ Barrier() @ @ @ }}\n');
    const calibrate = (spec: string, platform: string, out: string) => sim(['calibrate', '--platform', platform, spec, '-o', out, '--nodes', '4', '--vcount', '1'], dir);
    expect((await calibrate('whole.spec', 'cm5', 'whole.samples')).code).toBe(0);
    expect((await calibrate('whole.spec', 'paragon', 'paragon.samples')).code).toBe(0);
    expect((await calibrate('other.spec', 'cm5', 'other.samples')).code).toBe(0);
    const before = readFileSync(join(dir, 'whole.samples'), 'utf8');
    const paragon = await splice(['whole.spec', 'whole.samples', 'paragon.samples'], dir);
    expect(paragon.stderr).toMatch(/^splice-samples: paragon\.samples: its unit of ClearMemory was sampled on "platform paragon \w+ nodes 4", which whole\.samples has no units of \(another platform file, platform or machine size\); expected units of whole\.samples's platforms\n$/);
    expect(paragon.code).toBe(2);
    const other = await splice(['whole.spec', 'whole.samples', 'other.samples'], dir);
    expect(other.stderr).toBe('splice-samples: other.samples: its unit of Barrier is of no model of whole.spec; expected models of the spec\n');
    expect(other.code).toBe(2);
    expect(readFileSync(join(dir, 'whole.samples'), 'utf8')).toBe(before);
  });
});
