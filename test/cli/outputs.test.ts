import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, createReadStream, lstatSync, openSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, rootImport, sim } from '../support/sim-cli.ts';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'sim-outputs-'));
}

/** A folder no one can create files in, root included (sysfs refuses new files). */
const READ_ONLY = '/sys';

/** Issue 23, cases 191-193 and 196: output paths are checked before the work, not after it. */
describe.concurrent('output files are checked before any work', () => {
  it.each([
    ['--record into a missing folder', ['--record', 'nodir/x.json'], /^sim: --record nodir\/x\.json: no such folder .*nodir; expected an existing folder$/],
    ['--record naming a folder', ['--record', 'w'], /^sim: --record w: is a folder; expected a file name$/],
    ['--record in a read-only folder', ['--record', `${READ_ONLY}/x.json`], /^sim: --record \/sys\/x\.json: cannot create files in \/sys \(E[A-Z]+\); expected a writable folder$/],
    ['--trace into a missing folder', ['--trace', 'nodir/t.trace'], /^sim: --trace nodir\/t\.trace: no such folder/],
    ['--log naming a folder', ['--log', 'w'], /^sim: --log w: is a folder; expected a file name$/],
    // A name ending in a slash names a folder: it wrote the log to a file named out, the trace to t.trace.
    ['--log naming a folder not made yet', ['--log', 'out/'], /^sim: --log out\/: ends with a slash, which names a folder; expected a file name$/],
    ['--trace ending in a slash', ['--trace', 't.trace/'], /^sim: --trace t\.trace\/: ends with a slash, which names a folder; expected a file name$/],
    // The run went ahead, then the trace failed with ENOENT: both shared the temporary file beside the target.
    ['--trace and --log naming one file', ['--trace', 'x.out', '--log', './x.out'], /^sim: --log \.\/x\.out: the same file as --trace x\.out; expected a different file$/],
  ])('%s: one line, exit 2, no summary, nothing written', async (_what, extra, message) => {
    const dir = scratch();
    mkdirSync(join(dir, 'w'));
    const r = await sim(['--platform', 'cm5', '--nodes', '16', join(ROOT, 'apps/cshift'), ...extra], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(readdirSync(dir)).toEqual(['w']);
  });

  it('refuses an output over the input it is made from, leaving the input as it was', async () => {
    const dir = scratch();
    const sweep = `${JSON.stringify({ name: 's', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: 1 } }] })}\n`;
    writeFileSync(join(dir, 's.json'), sweep);
    // It wrote the sweep's results over the sweep file.
    const r = await sim(['sweep', 's.json', '--out', 's.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --out s.json: the same file as sweep s.json; expected a different file\n');
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(sweep);
    expect(readdirSync(dir)).toEqual(['s.json']);
    const e = await sim(['sweep', 'export', 's.json', '--format', 'csv', '-o', 's.json'], dir);
    expect(e.stderr).toBe('sim: -o s.json: the same file as results s.json; expected a different file\n');
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(sweep);
  });

  it('sim graph and sim export refuse an unwritable -o before reading the trace', async () => {
    for (const args of [['graph', 'none.trace', '-o', 'nodir/g.svg'], ['export', '--format', 'perfetto', 'none.trace', '-o', 'nodir/g.json']]) {
      const r = await sim(args, scratch());
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^sim: -o nodir\/g\.(svg|json): no such folder/);
    }
  });

  it('sim calibrate --fit into a read-only folder is refused before sampling; no samples file is left', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    const r = await sim(['calibrate', '--platform', 'cm5', '--nodes', '16', 's.spec', '-o', 'out.samples', '--fit', `${READ_ONLY}/m`], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^sim: --fit \/sys\/m: cannot create files in \/sys \(E[A-Z]+\); expected a writable folder\n$/);
    expect(readdirSync(dir)).toEqual(['s.spec']);
  });

  it('sim calibrate refuses an -o that --fit would write over, and sim fit an input its module or residuals would', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    // The models replaced the samples, exit 0.
    const c = await sim(['calibrate', '--platform', 'cm5', '--nodes', '16', 's.spec', '-o', 'fd/cm5.json', '--fit', 'fd'], dir);
    expect(c.code).toBe(2);
    expect(c.stderr).toBe('sim: --fit fd/cm5.json: the same file as -o fd/cm5.json; expected a different file\n');
    expect(readdirSync(dir)).toEqual(['s.spec']);
    writeFileSync(join(dir, 'q.residuals'), 'samples\n');
    const f = await sim(['fit', 'q.residuals', '-o', 'q.json'], dir);
    expect(f.code).toBe(2);
    expect(f.stderr).toBe('sim: -o (its residuals) q.residuals: the same file as samples q.residuals; expected a different file\n');
    expect(readFileSync(join(dir, 'q.residuals'), 'utf8')).toBe('samples\n');
    const txt = await sim(['fit', 'q.residuals', '-o', 'm.txt'], dir);
    expect(txt.stderr).toBe('sim fit: -o m.txt: expected a name ending in .json (the models; the .ts module and .residuals go beside it)\n');
  });

  it('sim calibrate --fit keeps the samples when the fit fails, and says where they are', async () => {
    const dir = scratch();
    // Two building samples for three unknowns: the samples are fine, their fit is not.
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:i @ sq:length*length }}\n');
    const r = await sim(['calibrate', '--platform', 'cm5', '--nodes', '16', 's.spec', '-o', 'c.samples', '--fit', 'fd'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('sim calibrate: wrote c.samples: 1 model on cm5\n');
    expect(r.stderr).toMatch(/^sim: c\.samples: model ClearMemory on cm5: 2 building samples for 3 unknowns .*; the samples are kept in c\.samples \(no models written\): fix the spec and run again, or fit them with sim fit c\.samples --relative -o <models\.json>\n$/);
    expect(readdirSync(dir).sort()).toEqual(['c.samples', 's.spec']);
    expect(readFileSync(join(dir, 'c.samples'), 'utf8')).toMatch(/^# end: 1 unit, \d+ samples$/m);
  });

  it('sim calibrate --fit of samples of 0 cycles advises the absolute fit that takes them (it advised --relative, the fit just refused)', async () => {
    const dir = scratch();
    // A CM-5 whose ClearMemory costs nothing: every sample is 0 cycles.
    const free = readFileSync(join(ROOT, 'platforms/cm5.json'), 'utf8').replace(/"clearMemoryStartCycles": [\d.]+/, '"clearMemoryStartCycles": 0').replace(/"clearMemoryCyclesPerByte": [\d.]+/, '"clearMemoryCyclesPerByte": 0');
    writeFileSync(join(dir, 'free.json'), free);
    writeFileSync(join(dir, 's.spec'), '{{ i 1 8 ++ @ @ ClearMemory(length) @ @ length:i @ }}\n');
    const r = await sim(['calibrate', '--platform', './free.json', '--nodes', '16', 's.spec', '-o', 'c.samples', '--fit', 'fd'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sim: c\.samples: model ClearMemory on cm5: 8 building samples of 0 cycles, which --relative cannot weight .*; the samples are kept in c\.samples \(no models written\): fix the spec and run again, or fit them with sim fit c\.samples -o <models\.json>\n$/);
    // And that advice works.
    const fit = await sim(['fit', 'c.samples', '-o', 'm.json'], dir);
    expect(fit.code).toBe(0);
    expect(fit.stdout).toContain('cm5 ClearMemory: 0*length');
  });

  it("refuses an output that is the app's module or a source file in its folder, leaving them as they were", async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'app'));
    const source = `export { default } from ${rootImport('apps/cshift/index.ts')};\n`;
    writeFileSync(join(dir, 'app/index.ts'), source);
    // --log app/index.ts replaced the app's source with the run's log, exit 0.
    const r = await sim(['--platform', 'cm5', '--nodes', '4', 'app', '--log', 'app/index.ts'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("sim: --log app/index.ts: the module of app app; expected a file that is not the app's code\n");
    const t = await sim(['--platform', 'cm5', '--nodes', '4', 'app/index.ts', '--trace', 'app/helper.js'], dir);
    expect(t.stderr).toBe("sim: --trace app/helper.js: a source file in the folder of app app/index.ts; expected a file that is not the app's code\n");
    expect(readFileSync(join(dir, 'app/index.ts'), 'utf8')).toBe(source);
    expect(readdirSync(join(dir, 'app'))).toEqual(['index.ts']);
    expect((await sim(['--platform', 'cm5', '--nodes', '4', 'app', '--log', 'app/run.log'], dir)).code).toBe(0);
  });

  it("sim sweep's --out may not name a part, which it would write over", async () => {
    const dir = scratch();
    writeFileSync(join(dir, 's.json'), `${JSON.stringify({ name: 's', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: 1 } }] })}\n`);
    const r = await sim(['sweep', 's.json', '--out', 'r.jsonl.part-2-of-2'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("sim: --out r.jsonl.part-2-of-2: the name of a sweep's results part, which only the sweep writes; expected another file name\n");
    expect(readdirSync(dir)).toEqual(['s.json']);
  });

  it('writes through a symbolic link whose target does not exist yet, keeping the link; refuses a loop of links', async () => {
    const dir = scratch();
    symlinkSync('real.log', join(dir, 'link.log'));
    expect((await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--log', 'link.log'], dir)).code).toBe(0);
    expect(lstatSync(join(dir, 'link.log')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.log'), 'utf8')).toMatch(/^cycle 0 node 0: startBarrier$/m);
    symlinkSync('b.log', join(dir, 'a.log'));
    symlinkSync('a.log', join(dir, 'b.log'));
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--log', 'a.log'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --log a.log: more than 40 symbolic links in a row (a loop?); expected a file name\n');
  });

  it('writes through a chain of symbolic links to a file not made yet, keeping every link (the limit is a loop, not a chain)', async () => {
    const dir = scratch();
    symlinkSync('two.log', join(dir, 'one.log'));
    symlinkSync('three.log', join(dir, 'two.log'));
    symlinkSync('real.log', join(dir, 'three.log'));
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--log', 'one.log'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const link of ['one.log', 'two.log', 'three.log']) expect(lstatSync(join(dir, link)).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.log'), 'utf8')).toMatch(/^cycle 0 node 0: startBarrier$/m);
  });

  it('bad input found once the run has opened its files (a main that is no generator) leaves none of them, not even a temporary file', async () => {
    const dir = scratch();
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'test/fixtures/main-not-generator.ts'), '--log', 'l.log', '--trace', 't.trace', '--record', 'r.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sim: app not-generator: main must be a function\* .*\n$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes through a symbolic link and into a device or FIFO, never renaming over them (as root it replaced /dev/null with a file)', async () => {
    const dir = scratch();
    const trace = join(dir, 'good.trace');
    expect((await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--trace', trace, '--log', '/dev/null'], dir)).code).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    writeFileSync(join(dir, 'real.json'), 'old\n');
    symlinkSync('real.json', join(dir, 'link.json'));
    expect((await sim(['export', '--format', 'perfetto', trace, '-o', 'link.json'], dir)).code).toBe(0);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toMatch(/^\{"traceEvents":/);
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    const reader = new Promise<string>((resolve) => {
      let text = '';
      createReadStream(join(dir, 'pipe.json'), 'utf8').on('data', (d) => (text += d)).on('end', () => resolve(text));
    });
    expect((await sim(['export', '--format', 'perfetto', trace, '-o', 'pipe.json'], dir)).code).toBe(0);
    expect(await reader).toBe(readFileSync(join(dir, 'real.json'), 'utf8'));
    expect(lstatSync(join(dir, 'pipe.json')).isFIFO()).toBe(true);
    // A trace's header is completed at the end, which a device or pipe cannot take: refused before the run.
    const t = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--trace', '/dev/null'], dir);
    expect(t.code).toBe(2);
    expect(t.stderr).toBe('sim: --trace /dev/null: not a regular file; expected a file name (its header is completed when the run ends, which a device or pipe cannot take)\n');
  });

  it('writes into a FIFO named in a folder that takes no new files: /proc/self/fd/1, its standard output', async () => {
    // Refused as "cannot create files in /proc/self/fd (ENOENT)": the check looked for a
    // folder taking a temporary file, which a FIFO or device is not written through. (To
    // any user but root, --log /dev/null and -o /dev/stdout were refused so, for /dev.)
    const dir = scratch();
    const trace = join(dir, 't.trace');
    expect((await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--trace', trace], dir)).code).toBe(0);
    expect((await sim(['export', '--format', 'perfetto', trace, '-o', 'file.json'], dir)).code).toBe(0);
    // Its standard output is a FIFO (the test's own pipes are sockets, which /proc/self/fd/1 cannot open).
    const fifo = join(dir, 'stdout.fifo');
    execFileSync('mkfifo', [fifo]);
    const end = openSync(fifo, constants.O_RDWR); // opens at once, and lets the reader open
    const read = new Promise<string>((resolve) => {
      let text = '';
      createReadStream(fifo, 'utf8').on('data', (d) => (text += d)).on('end', () => resolve(text));
    });
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'export', '--format', 'perfetto', trace, '-o', '/proc/self/fd/1'], { cwd: dir, stdio: ['ignore', end, 'pipe'] });
    closeSync(end);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    // The export alone on its standard output; what sim says of it on stderr (after the JSON, it made the JSON unreadable).
    expect(stderr).toMatch(/^sim export: wrote \/proc\/self\/fd\/1 \(perfetto; .*\)\n$/);
    expect(code).toBe(0);
    expect(await read).toBe(readFileSync(join(dir, 'file.json'), 'utf8'));
    expect(readdirSync(dir).sort()).toEqual(['file.json', 'stdout.fifo', 't.trace']);
  });

  it('-o /dev/stdout under `> file`, `| head` and for a graph: the drawing or export alone on stdout, what sim says on stderr', async () => {
    const dir = scratch();
    const trace = join(dir, 't.trace');
    expect((await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--trace', trace], dir)).code).toBe(0);
    expect((await sim(['export', '--format', 'perfetto', trace, '-o', 'file.json'], dir)).code).toBe(0);
    expect((await sim(['graph', trace, '-o', 'file.svg'], dir)).code).toBe(0);
    /** sim with its stdout redirected to `name` in dir (as `> name`); its exit code and stderr. */
    const redirected = async (args: string[], name: string): Promise<{ code: number | null; stderr: string }> => {
      const fd = openSync(join(dir, name), 'w');
      const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd: dir, stdio: ['ignore', fd, 'pipe'] });
      closeSync(fd);
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      return { code: await new Promise<number | null>((resolve) => child.on('close', resolve)), stderr };
    };
    // /dev/stdout is then a regular file by stat: the export was refused for its name, "expected a file name ending in .json".
    const e = await redirected(['export', '--format', 'perfetto', trace, '-o', '/dev/stdout'], 'out.txt');
    expect(e.stderr).toMatch(/^sim export: wrote \/dev\/stdout /);
    expect(e.code).toBe(0);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe(readFileSync(join(dir, 'file.json'), 'utf8'));
    // A graph's -o took only .svg and .html names: /dev/stdout and /dev/null were refused.
    const g = await redirected(['graph', trace, '-o', '/dev/stdout'], 'graph.txt');
    expect(g.stderr).toBe('sim graph: wrote /dev/stdout\n');
    expect(g.code).toBe(0);
    expect(readFileSync(join(dir, 'graph.txt'), 'utf8')).toBe(readFileSync(join(dir, 'file.svg'), 'utf8'));
    expect((await sim(['graph', trace, '-o', '/dev/null'], dir)).code).toBe(0);
    // A reader that closes early drops the rest: it was "cannot write the file (EPIPE)", exit 2. A shell's
    // pipe (the test's own are sockets, which /dev/stdout cannot open), and an export of 0.9 MB, more than it holds.
    const big = join(dir, 'stencil.trace');
    expect((await sim(['--platform', 'alewife', join(ROOT, 'apps/stencil'), '--trace', big], dir)).code).toBe(0);
    const head = execFileSync('bash', ['-c', `"$0" "$1" export --format perfetto "$2" -o /dev/stdout 2>&1 | head -c 14; echo " \${PIPESTATUS[0]}"`, process.execPath, join(ROOT, 'bin/sim.mjs'), big], { cwd: dir, encoding: 'utf8' });
    expect(head).toBe('{"traceEvents" 0\n');
    expect(readdirSync(dir).sort()).toEqual(['file.json', 'file.svg', 'graph.txt', 'out.txt', 'stencil.trace', 't.trace']);
  });

  it('a failed run in a read-only folder still exits 1; the repro it cannot write is a warning', async () => {
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'test/fixtures/failing-app')], READ_ONLY);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^verified +NO/m);
    expect(r.stderr).toMatch(/^sim: warning: no repro file: repro file sim-repro-failing-cm5-n4-s1\.json: cannot write the file \(E[A-Z]+\)/);
  });

  it('files are written whole through a temporary file: a rewritten trace replaces the old one, no temporary is left', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 't.trace'), 'old');
    const r = await sim(['--platform', 'cm5', '--nodes', '16', join(ROOT, 'apps/cshift'), '--trace', 't.trace', '--log', 'l.log', '--record', 'r.json'], dir);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 't.trace'), 'utf8')).toMatch(/^PSTRACE1\n/);
    expect(readdirSync(dir).sort()).toEqual(['l.log', 'r.json', 't.trace']);
    // Repro files name the app relative to the project, so they move between checkouts.
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).app.path).toBe('apps/cshift/index.ts');
  });

  it('a repro names a project app given through a link to the checkout as the project\'s (it was the link\'s absolute path)', async () => {
    const dir = scratch();
    symlinkSync(ROOT, join(dir, 'sim-checkout'), 'dir');
    const r = await sim(['--platform', 'cm5', '--nodes', '16', 'sim-checkout/apps/cshift', '--record', 'r.json'], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).app.path).toBe('apps/cshift/index.ts');
    expect((await sim(['replay', 'r.json'], dir)).stdout).toMatch(/^sim replay: reproduced the recorded run/);
  });
});
