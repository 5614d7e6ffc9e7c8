import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

const SPEC = 'apps/calibration/strata.spec';

describe.concurrent('sim calibrate', () => {
  // Six calibrations of 84 units each (one from the sources): about 60 s on a loaded 2-core machine.
  it('writes the same samples with 1 and 2 workers, and the shards concatenate to the same file', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    const common = ['calibrate', '--platform', 'all', SPEC, '--nodes', '8', '--vcount', '3'];
    const one = await sim([...common, '-o', join(dir, 'one.samples')]);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    const two = await sim([...common, '-o', join(dir, 'two.samples'), '--workers', '2']);
    expect(two.code).toBe(0);
    // The workers start from the build above and from the sources here (load-sibling.mjs).
    const twoFromSources = await sim([...common, '-o', join(dir, 'two-src.samples'), '--workers', '2'], undefined, { SIM_FROM_SOURCES: '1' });
    expect(twoFromSources.code).toBe(0);
    const whole = readFileSync(join(dir, 'one.samples'));
    expect(readFileSync(join(dir, 'two.samples')).equals(whole)).toBe(true);
    expect(readFileSync(join(dir, 'two-src.samples')).equals(whole)).toBe(true);
    const parts = [];
    for (const shard of ['1/3', '2/3', '3/3']) {
      const file = join(dir, `shard-${shard.replace('/', 'of')}.samples`);
      expect((await sim([...common, '-o', file, '--shard', shard])).code).toBe(0);
      parts.push(readFileSync(file));
    }
    expect(Buffer.concat(parts).equals(whole)).toBe(true);
    const text = whole.toString();
    expect(text).toMatch(/^# proteus-strata calibration samples, version 2\n# simulator \d+\.\d+\.\d+\n# spec apps\/calibration\/strata\.spec sha256 [0-9a-f]{64}\n# seed 1 nodes 8 vcount 3\n/);
    // Fig. 3-7's lines: building samples, then @ verification samples, per model and platform.
    expect(text).toMatch(/^# model CombineVector length logP lengthLogP\nCombineVector \d+ 8 3 24\n/m);
    expect(text.match(/^@CombineVector /gm)).toHaveLength(4 * 3);
  });

  it.each([
    ['a malformed spec', '{{ i 1 10 ++ @ @ ClearMemory(i) @ @ length:i }}', /bad\.spec:1:3: expected 6 components/],
    ['an unknown task', '{{ i 1 10 ++ @ @ Teleport(i) @ @ length:i @ }}', /model Teleport: unknown task operation Teleport \(known: Barrier, ClearMemory/],
    // Object's own members passed for operations: "toString takes undefined argument(s): undefined".
    ['a task named like an object member', '{{ i 1 2 ++ @ @ toString() @ @ @ }}', /bad\.spec:1: model toString: unknown task operation toString \(known: Barrier, ClearMemory/],
    ['a setup named like an object member', '{{ i 1 2 ++ @ constructor() @ Barrier() @ @ @ }}', /bad\.spec:1: model Barrier: unknown setup operation constructor \(known: Barrier, ClearMemory/],
    ['an unknown variable', '{{ i 1 10 ++ @ @ ClearMemory(i) @ @ length:k @ }}', /model ClearMemory: input length: unknown variable "k"/],
    // Which of the specs: the message named the model only.
    ['an unknown variable in the second spec', '{{ i 1 4 ++ @ @ ClearMemory(i) @ @ @ t:i }}\n\n{{ i 1 4 ++ @ @ Barrier() @ @ @ u:j }}', /bad\.spec:3: model Barrier: term u: unknown variable "j"/],
    ['an empty loop', '{{ i 10 1 ++ @ @ ClearMemory(i) @ @ length:i @ }}', /model ClearMemory on cm5 with 4 nodes: loop i: the loop from 10 to 1 with \+\+ is empty/],
    // Edges cases 110-119 and 215: found when the spec is planned, before anything runs.
    ['an argument dividing by zero', '{{ i 0 3 ++ @ @ ClearMemory(64/i) @ @ length:i @ }}', /model ClearMemory on cm5 with 4 nodes: ClearMemory bytes Infinity: expected an integer from 0 to 16777216, at sample i=0\n$/],
    ['a negative byte count', '{{ i 0 3 ++ @ @ ClearMemory(i-5) @ @ length:i @ }}', /ClearMemory bytes -5: expected an integer from 0 to 16777216, at sample i=0\n$/],
    ['a term dividing by zero', '{{ i 0 3 ++ @ @ ClearMemory(i) @ @ length:i @ inv:1/i }}', /model ClearMemory on cm5 with 4 nodes: term inv is Infinity at sample i=0; expected a finite number/],
    ['a term that is 0/0', '{{ i 0 3 ++ @ @ ClearMemory(i) @ @ length:i @ ratio:i/i }}', /term ratio is NaN at sample i=0/],
    ['a stencil chain of a grid its processors cannot split', '{{ i 1 2 ++ @ Barrier() @ Barrier() @ @ @ c:stencilChain(2,2,4,1) }}', /term c is NaN at sample i=1; .*stencilChain\(\) of a grid its processors cannot split/],
    ['a stencil chain called with two arguments', '{{ i 1 2 ++ @ Barrier() @ Barrier() @ @ @ c:stencilChain(2,2) }}', /term c: stencilChain\(\.\.\.\) takes 4 arguments, got 2/],
    ['a hop count beyond the machine', '{{ n 1 P ++ @ Barrier() @ Roundtrip(n) @ Release() @ hops:hops(n) @ }}', /Roundtrip node 4: expected an integer from 1 to 3, at sample n=4\n$/],
    // Each ran: a fractional count, an empty vector, and a median search past what the data allow (it timed the longest search again, as one step more).
    ['a fractional byte count', '{{ i 1 2 ++ @ @ ClearMemory(i/2) @ @ @ }}', /ClearMemory bytes 0\.5: expected an integer from 0 to 16777216, at sample i=1\n$/],
    ['an empty vector', '{{ i 0 1 ++ @ Barrier() @ CombineVector(i) @ @ length:i @ }}', /CombineVector length 0: expected an integer from 1 to 262144, at sample i=0\n$/],
    ['a median search longer than the values allow (P - ceil(P/2) steps)', '{{ s 0 3 ++ @ Barrier() @ CompositeMedian(s) @ @ steps:s @ }}', /CompositeMedian steps 3: expected an integer from 0 to 2, at sample s=3\n$/],
    ['a block beyond the limit', '{{ i 1 2 ++ @ Barrier() @ BlockTransfer(100000000) @ Barrier() @ @ }}', /BlockTransfer words 100000000: expected an integer from 1 to 65536, at sample i=1\n$/],
    ['an app task with a parameter the app refuses', '{{ w 1 2 ++ @ @ StencilSquare(16*w, 16, 0) @ @ width:16*w @ }}', /model StencilSquare on cm5 with 4 nodes: stencil --param iters=0: expected an integer from 1 to \d+, at sample w=1\n$/],
    // Met only when the sample ran, after the units before it, as "app stencil: layout rect puts 4 processors down 3 rows; ...", naming no spec or sample.
    ['an app task with a grid its layout cannot split', '{{ i 1 2 ++ @ @ Barrier() @ @ @ }}\n{{ h 3 4 ++ @ @ StencilRectRows4(16, h, 1) @ @ height:h @ }}', /bad\.spec: model StencilRectRows4 on cm5 with 4 nodes: stencil: layout rect puts 4 processors down 3 rows; expected at least one row each, at sample h=3\n$/],
    ['a bad setup argument', '{{ i 1 2 ++ @ ClearMemory(-1) @ Barrier() @ @ @ }}', /ClearMemory bytes -1: expected an integer from 0 to 16777216, at sample i=1\n$/],
    // Two loops of 10,000 planned 10^8 samples, silently, until the heap ran out.
    ['a loop nest of too many samples', '{{ i 1 10000 ++, j 1 10000 ++ @ Barrier() @ ClearMemory(8) @ @ @ }}', /model ClearMemory on cm5 with 4 nodes: the loop nest makes 100000000 samples \(10000 x 10000\); expected at most 100000\n$/],
    // Each replaced the other silently: P meant i in the terms and the task.
    ['an input named like a machine constant', '{{ i 1 4 ++ @ @ ClearMemory(P) @ @ P:i @ t:P }}', /model ClearMemory: input P has the name of a machine constant, which it would hide \(P:P would make it a column\); expected another name\n$/],
    ['an input named like a loop variable', '{{ i 1 4 ++ @ @ ClearMemory(i) @ @ i:i*2 @ }}', /model ClearMemory: input i has the name of a loop variable, which it would hide/],
    ['a name every object has', '{{ i 1 4 ++ @ @ ClearMemory(i) @ @ __proto__:i @ }}', /model ClearMemory: the name __proto__ is one every JavaScript object has; expected another name\n$/],
    // Sampled, then refused by sim fit (a fit's time grows as the fourth power of the columns).
    ['more columns than sim fit fits', `{{ i 1 4 ++ @ @ ClearMemory(i) @ @ length:i @ ${Array.from({ length: 70 }, (_, k) => `t${k}:i*${k + 2}`).join(', ')} }}`, /bad\.spec:1: model ClearMemory: 71 inputs and terms, each a column of the samples; expected at most 64, the most sim fit fits\n$/],
    // Never ended: drawing the verification samples over a range past 2^53 did not return.
    ['a loop bound past 2^53', '{{ i 99999999999999999999999999 12 ++ @ Barrier() @ ClearMemory(8) @ @ @ }}', /model ClearMemory on cm5 with 4 nodes: loop i from 1e\+26 to 12: expected bounds of magnitude at most 2\^53 - 1 \(.*\), got 1e\+26\n$/],
    // Verification drew integers over it: "input x is NaN at verification sample i=NaN".
    ['a loop without an integer', '{{ i 0.1 0.9 +=0.2 @ @ ClearMemory(8) @ @ x:i @ }}', /model ClearMemory on cm5 with 4 nodes: loop i from 0\.1 to 0\.9 holds no integer/],
    // Each deadlocked, the report naming no spec, model or machine size.
    ['a Roundtrip without its Release', '{{ n 1 3 ++ @ Barrier() @ Roundtrip(n) @ @ hops:hops(n) @ }}', /model Roundtrip: Roundtrip holds the other nodes until a Release\(\) in its cleanup, and it has none; expected Release\(\) once, in the cleanup of a Roundtrip task\n$/],
    ['a Release with nothing held', '{{ n 1 3 ++ @ Barrier() @ Release() @ @ @ }}', /model Release: Release\(\) lets go of nodes a Roundtrip task holds, and this task holds none/],
    // Their samples were pooled into one model (MRE 41%).
    ['a model specified twice', '{{ i 1 4 ++ @ @ ClearMemory(i) @ @ @ t:i }}\n{{ i 1 4 ++ @ @ ClearMemory(100*i) @ @ @ t:i }}', /bad\.spec: model ClearMemory is specified twice \(specifications 1 and 2; a model is named by its task\); expected each model once\n$/],
  ])('refuses %s with one line, exit 2 and no output', async (_what, spec, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    const file = join(dir, 'bad.spec');
    writeFileSync(file, spec);
    const out = join(dir, 'out.samples');
    const r = await sim(['calibrate', '--platform', 'cm5', file, '-o', out, '--nodes', '4']);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['a loop without a stop', "export default [{ name: 'ClearMemory', loops: [{ id: 'i', start: '1', update: '++' }], setup: [], task: { name: 'ClearMemory', args: ['i'] }, cleanup: [], inputs: [], terms: [] }];", /specification 1: loops\[0\] is not \{ id, start, stop, update \}/],
    ['no setup', "export default [{ name: 'ClearMemory', loops: [{ id: 'i', start: '1', stop: '2', update: '++' }], task: { name: 'ClearMemory', args: ['i'] }, cleanup: [], inputs: [], terms: [] }];", /specification 1: setup is not a list/],
    ['a throw while loading', "throw new Error('no specs today');", /^sim: \S+bad\.mjs: cannot load the spec module \(Error: no specs today, at \S+bad\.mjs:1:\d+\)\n/],
    ['a term that is no identifier', "export default [{ name: 'ClearMemory', loops: [{ id: 'i', start: '1', stop: '2', update: '++' }], setup: [], task: { name: 'ClearMemory', args: ['i'] }, cleanup: [], inputs: [], terms: [{ id: 't t', value: 'i' }] }];", /specification 1: terms\[0\] is not \{ id, value \}/],
    // Both sampled and fitted, exit 0: every value of one loop for each of the other's, and the second length's values under the first's name.
    ['a loop variable given twice', "export default [{ name: 'ClearMemory', loops: [{ id: 'i', start: '1', stop: '3', update: '++' }, { id: 'i', start: '10', stop: '12', update: '++' }], setup: [], task: { name: 'ClearMemory', args: ['i'] }, cleanup: [], inputs: [{ id: 'length', value: 'i' }], terms: [] }];", /specification 1: loop variable "i" is given twice; expected each loop variable once\n$/],
    ['a column named twice', "export default [{ name: 'ClearMemory', loops: [{ id: 'i', start: '1', stop: '3', update: '++' }], setup: [], task: { name: 'ClearMemory', args: ['i'] }, cleanup: [], inputs: [{ id: 'length', value: 'i' }, { id: 'length', value: '2*i' }], terms: [] }];", /specification 1: "length" is named twice among the inputs and terms \(each is a column of the samples\); expected each name once\n$/],
  ])('refuses a spec module with %s (an internal error, or samples sim fit refused)', async (_what, module, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    writeFileSync(join(dir, 'bad.mjs'), module);
    const r = await sim(['calibrate', '--platform', 'cm5', join(dir, 'bad.mjs'), '-o', join(dir, 'out.samples'), '--nodes', '4']);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(dir, 'out.samples'))).toBe(false);
  });

  it('refuses a spec module that does not compile, naming where (esbuild\'s first line alone was "Transform failed with 1 error:")', async () => {
    const r = await sim(['calibrate', '--platform', 'cm5', 'test/fixtures/broken-syntax.ts', '-o', join(mkdtempSync(join(tmpdir(), 'sim-cal-')), 'out.samples')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: test/fixtures/broken-syntax.ts: cannot load the spec module (test/fixtures/broken-syntax.ts:2:43: Expected identifier but found "(")\n');
  });

  it('refuses a shard like 3/2, and a machine size given twice (16,16 sampled every unit twice)', async () => {
    const r = await sim(['calibrate', '--platform', 'cm5', SPEC, '-o', join(tmpdir(), 'x.samples'), '--shard', '3/2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --shard 3/2: expected i/n with 1 <= i <= n <= 999999999 (e.g. 2/4)\n');
    // It was told to have 1 <= i <= n, which it had.
    const big = await sim(['calibrate', '--platform', 'cm5', SPEC, '-o', join(tmpdir(), 'x.samples'), '--shard', '1/1000000000']);
    expect(big.stderr).toBe('sim: --shard 1/1000000000: expected i/n with 1 <= i <= n <= 999999999 (e.g. 2/4)\n');
    const twice = await sim(['calibrate', '--platform', 'cm5', SPEC, '-o', join(tmpdir(), 'x.samples'), '--nodes', '16,32,16']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('sim: --nodes 16,32,16: 16 is given twice; expected each machine size once\n');
  });

  it('names the machine size at which a spec fails, of several (a loop from 8 to P is empty on 4 nodes only)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    const cases = [
      ['{{ i 8 P ++ @ @ ClearMemory(i) @ @ length:i @ }}', 'model ClearMemory on cm5 with 4 nodes: loop i: the loop from 8 to 4 with ++ is empty'],
      ['{{ i 1 P*P*P ++ @ @ ClearMemory(i) @ @ length:i @ }}', 'model ClearMemory on cm5 with 64 nodes: loop i: the loop from 1 to 262144 with ++ has more than 100000 values (or never ends); expected at most 100000'],
    ];
    for (const [text, message] of cases) {
      const file = join(dir, 'sized.spec');
      writeFileSync(file, `${text}\n`);
      const r = await sim(['calibrate', '--platform', 'cm5', file, '-o', join(dir, 'out.samples'), '--nodes', '16,4,64']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`sim: ${file}:1: ${message}\n`);
    }
    // Roundtrip needs a second node: on 1 of 4,1.
    writeFileSync(join(dir, 'rt.spec'), '{{ i 1 2 ++ @ @ Roundtrip(i) @ Release() @ @ }}\n');
    const rt = await sim(['calibrate', '--platform', 'cm5', join(dir, 'rt.spec'), '-o', join(dir, 'out.samples'), '--nodes', '4,1']);
    expect(rt.stderr).toBe(`sim: ${join(dir, 'rt.spec')}:1: model Roundtrip on cm5 with 1 nodes: Roundtrip needs at least 2 nodes\n`);
    expect(existsSync(join(dir, 'out.samples'))).toBe(false);
  });

  it('names an empty entry of a comma list: a trailing comma, a leading one, two in a row (--nodes 4, was "--nodes : expected an integer")', async () => {
    const sizes = 'expected machine sizes from 1 to 4096 separated by commas (e.g. 16,32,64)';
    for (const [nodes, where] of [['4,', 'ends with a comma'], [',4', 'starts with a comma'], ['4,,8', 'has two commas in a row (entry 2 is empty)']]) {
      const r = await sim(['calibrate', '--platform', 'cm5', SPEC, '-o', join(tmpdir(), 'x.samples'), '--nodes', nodes]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`sim: --nodes ${nodes}: ${where}; ${sizes}\n`);
    }
    // sim study and sim sweep export take comma lists too.
    const study = await sim(['study', 'stencil-gain', '--platform', 'atm', '--nodes', '16,', '--out', join(tmpdir(), 'no-study')]);
    expect(study.code).toBe(2);
    expect(study.stderr).toBe('sim: --nodes 16,: ends with a comma; expected machine sizes separated by commas (e.g. 16,32,64)\n');
    const columns = await sim(['sweep', 'export', join(tmpdir(), 'none.jsonl'), '--format', 'csv', '--columns', 'i,,status']);
    expect(columns.code).toBe(2);
    expect(columns.stderr).toBe('sim: --columns i,,status: has two commas in a row (entry 2 is empty); expected column names separated by commas\n');
  });

  it('takes --vcount 0, sampling no verification samples, and refuses -1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    const r = await sim(['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '0', '-o', 's.samples'], dir);
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, 's.samples'), 'utf8');
    expect(text).toMatch(/^# seed 1 nodes 4 vcount 0$/m);
    expect(text.split('\n').filter((l) => l.startsWith('ClearMemory '))).toHaveLength(2);
    expect(text).not.toMatch(/^@/m);
    const negative = await sim(['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '-1', '-o', 'n.samples'], dir);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toBe('sim: --vcount -1: expected an integer from 0 to 100000\n');
  });

  it('reports a run that fails in a worker as a failed run (exit 1), not an internal error, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    const file = join(dir, 'rt.spec');
    writeFileSync(file, '{{ n 1 2 ++ @ Barrier() @ Roundtrip(n) @ Release() @ hops:hops(n) @ }}\n');
    // A platform whose time slices cost more than their period: its runs fail at the first slice with packets in flight.
    const cm5 = JSON.parse(readFileSync(join(ROOT, 'platforms/cm5.json'), 'utf8'));
    writeFileSync(join(dir, 'slow.json'), JSON.stringify({ ...cm5, timeSlice: { periodCycles: 10_000, cyclesPerPacketPerNode: 1_000_000 } }));
    const out = join(dir, 'out.samples');
    const r = await sim(['calibrate', '--platform', join(dir, 'slow.json'), file, '-o', out, '--nodes', '16', '--workers', '2']);
    expect(r.code).toBe(1);
    // Which unit failed is named (a deadlock here named no spec, model or machine size).
    expect(r.stderr).toMatch(/^sim: run failed: .*rt\.spec: model Roundtrip on cm5 with 16 nodes: at cycle \d+ a time slice costs \d+ cycles/);
    expect(r.stderr).not.toContain('internal error');
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['a file as the models directory', ['--fit', SPEC], /^sim: --fit apps\/calibration\/strata\.spec: expected a directory for the models/],
    ['--fit with one shard', ['--fit', tmpdir(), '--shard', '1/2'], /^sim: --fit .*: fit the merged shards instead \(sim fit\), not one shard/],
    // It sampled, wrote the samples as that name, then could not make the folder (EEXIST).
    ['--fit naming the -o file', ['--fit', 'OUT'], /^sim: --fit .*x\.samples: the same file as -o .*x\.samples; expected a different file\n$/],
    // Found when the models were written, after the samples and m/cm5.json (exit 2, half written).
    ['a folder where --fit writes the module', ['--fit', 'M'], /^sim: --fit .*m\/cm5\.ts: is a folder; expected a file name\n$/],
  ])('refuses %s with one line and exit 2', async (_what, extra, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-cal-'));
    const out = join(dir, 'x.samples');
    mkdirSync(join(dir, 'm', 'cm5.ts'), { recursive: true });
    const r = await sim(['calibrate', '--platform', 'cm5', SPEC, '-o', out, '--nodes', '16', ...extra.map((a) => (a === 'OUT' ? out : a === 'M' ? join(dir, 'm') : a))]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, 'm', 'cm5.json'))).toBe(false);
  });
});
