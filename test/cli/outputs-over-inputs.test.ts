/**
 * An output never destroys an input the command reads, however the two are named: the
 * same file reached through a symbolic link is the same file, and a platform named by
 * name is its file in platforms/.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_ROOT, ROOT, sim } from '../support/sim-cli.ts';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'sim-over-inputs-'));
}

describe.concurrent('an output over an input is refused, the input left as it was', () => {
  it('an -o or --out that is a symbolic link to the input: the export renamed itself over the trace, the results over the sweep', async () => {
    const dir = scratch();
    expect((await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/ping-pong'), '--param', 'rounds=1', '--trace', 't.trace'], dir)).code).toBe(0);
    const trace = readFileSync(join(dir, 't.trace'));
    symlinkSync('t.trace', join(dir, 'e.json'));
    const e = await sim(['export', '--format', 'perfetto', 't.trace', '-o', 'e.json'], dir);
    expect(e.code).toBe(2);
    expect(e.stdout).toBe('');
    expect(e.stderr).toBe('sim: -o e.json: the same file as trace t.trace; expected a different file\n');
    expect(readFileSync(join(dir, 't.trace'))).toEqual(trace);
    symlinkSync('t.trace', join(dir, 'g.svg'));
    const g = await sim(['graph', 't.trace', '-o', 'g.svg'], dir);
    expect(g.code).toBe(2);
    expect(g.stderr).toBe('sim: -o g.svg: the same file as trace t.trace; expected a different file\n');
    expect(readFileSync(join(dir, 't.trace'))).toEqual(trace);

    const sweep = `${JSON.stringify({ name: 's', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: 1 } }] })}\n`;
    writeFileSync(join(dir, 's.json'), sweep);
    symlinkSync('s.json', join(dir, 'r.jsonl'));
    const s = await sim(['sweep', 's.json', '--out', 'r.jsonl'], dir);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe('sim: --out r.jsonl: the same file as sweep s.json; expected a different file\n');
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(sweep);
    expect(readdirSync(dir).sort()).toEqual(['e.json', 'g.svg', 'r.jsonl', 's.json', 't.trace']);
  });

  it('an output over the shipped platform file a bare --platform name reads: --log emptied it, --fit wrote the models over it', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    const file = join(ROOT, 'platforms/cm5.json');
    const text = readFileSync(file, 'utf8');
    const strays = ['cm5.ts', 'fig-6-6.txt'].map((f) => join(ROOT, 'platforms', f));
    // The platform a bare name reads, as sim names it (its own checkout's file).
    const refusal = `the same file as --platform ${join(REAL_ROOT, 'platforms/cm5.json')}; expected a different file`;
    try {
      const run = await sim(['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--param', 'rounds=1', '--log', file], dir);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`sim: --log ${file}: ${refusal}\n`);
      const out = await sim(['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '1', '-o', file], dir);
      expect(out.stderr).toBe(`sim: -o ${file}: ${refusal}\n`);
      const fit = await sim(['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '1', '-o', 's.samples', '--fit', join(ROOT, 'platforms')], dir);
      expect(fit.code).toBe(2);
      expect(fit.stderr).toBe(`sim: --fit ${file}: ${refusal}\n`);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(strays.filter((f) => existsSync(f))).toEqual([]);
      expect(readdirSync(dir)).toEqual(['s.spec']);
    } finally {
      // Should the refusal ever fail, the checkout's platform is put back for the other tests.
      if (readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
      for (const f of strays) rmSync(f, { force: true });
    }
  });

  it('sim calibrate --fit names its models by the name inside a platform file given as a path: -o there was overwritten by them', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    // A copy of the CM-5 under another file name: its models are fd/cm5.json, by the name it holds.
    writeFileSync(join(dir, 'mine.json'), readFileSync(join(ROOT, 'platforms/cm5.json')));
    mkdirSync(join(dir, 'fd'));
    const r = await sim(['calibrate', '--platform', './mine.json', 's.spec', '--nodes', '4', '--vcount', '1', '-o', 'fd/cm5.json', '--fit', 'fd'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('sim: --fit fd/cm5.json: the same file as -o fd/cm5.json; expected a different file\n');
    expect(readdirSync(dir).sort()).toEqual(['fd', 'mine.json', 's.spec']);
    expect(readdirSync(join(dir, 'fd'))).toEqual([]);
  });

  it('the models a run resolves auto from, and those a spec evaluates, are inputs: --log wrote over them', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'models'));
    const models = readFileSync(join(ROOT, 'platforms/models/apps/n16/cm5.json'));
    writeFileSync(join(dir, 'models/cm5.json'), models);
    const stencil = ['--platform', 'cm5', '--nodes', '16', 'apps/stencil', '--param', 'width=32', '--param', 'height=32', '--param', 'iters=1'];
    const run = await sim([...stencil, '--param', 'layout=auto', '--models', 'models', '--log', 'models/cm5.json'], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('sim: --log models/cm5.json: the same file as the models models/cm5.json; expected a different file\n');
    expect(readFileSync(join(dir, 'models/cm5.json'))).toEqual(models);
    // A spec whose term calls a Strata model reads platforms/models/<platform>.json.
    writeFileSync(join(dir, 'b.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ bt:BlockTransfer(length) }}\n');
    const strata = join(ROOT, 'platforms/models/cm5.json');
    const text = readFileSync(strata, 'utf8');
    try {
      const cal = await sim(['calibrate', '--platform', 'cm5', 'b.spec', '--nodes', '4', '--vcount', '1', '-o', strata], dir);
      expect(cal.code).toBe(2);
      expect(cal.stderr).toBe(`sim: -o ${strata}: the same file as the Strata models ${join(REAL_ROOT, 'platforms/models/cm5.json')}; expected a different file\n`);
      expect(readFileSync(strata, 'utf8')).toBe(text);
    } finally {
      if (readFileSync(strata, 'utf8') !== text) writeFileSync(strata, text);
    }
    expect(readdirSync(dir).sort()).toEqual(['b.spec', 'models']);
  });

  it("a failed run's automatic repro is never written over its --log: a warning, the log kept, exit 1", async () => {
    const dir = scratch();
    const name = 'sim-repro-race-cm5-n4-s1-p2.json';
    // apps/examples/race fails under --perturb 2; its repro would be <name>, the log's name too.
    const r = await sim(['--platform', 'cm5', '--nodes', '4', 'apps/examples/race', '--perturb', '2', '--log', name], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`sim: warning: no repro file: the repro of the failed run ${name}: the same file as --log ${name}; expected a different file\n`);
    expect(r.stderr).not.toMatch(/replay this run with|cannot write/);
    expect(readFileSync(join(dir, name), 'utf8')).toMatch(/^cycle 0 node 0: startBarrier$/m);
    expect(readdirSync(dir)).toEqual([name]);
  });
});

