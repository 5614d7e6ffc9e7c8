/**
 * `sim sweep` end to end (the real command in child processes): one, two workers and
 * three shards merged give byte-identical results files; a sweep killed mid-run
 * resumes without redoing recorded runs, even after a torn last line; merge lists the
 * gaps and catches results that differ; bad input is one line, exit 2, nothing written.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, rootImport, sim } from '../support/sim-cli.ts';
import { simHere } from '../support/sim-here.ts';

const SMALL = 'test/fixtures/sweeps/small.json';
const SLOW = 'test/fixtures/sweeps/slow.json';
let dir: string;
let reference: string;

const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');
const keysOf = (file: string) => (existsSync(file) ? lines(file).slice(1).map((l) => (JSON.parse(l) as { key: string }).key) : []);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-sweep-'));
  const r = await sim(['sweep', SMALL, '--out', join(dir, 'one.jsonl'), '--workers', '1']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  reference = readFileSync(join(dir, 'one.jsonl'), 'utf8');
});

describe('sim sweep', () => {
  it('writes a header and one canonical line per run in sweep order, with a verification failure and failed runs as data', () => {
    const [header, ...runs] = reference.trimEnd().split('\n');
    expect(JSON.parse(header)).toMatchObject({ sweep: 'small', runs: 24, format: 1, simulator: expect.any(String), sweepSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(runs).toHaveLength(24);
    const parsed = runs.map((l) => JSON.parse(l) as { i: number; status: string; summary: Record<string, unknown> | null; error: { kind: string } | null });
    expect(parsed.map((l) => l.i)).toEqual(runs.map((_, k) => k));
    const counts = (s: string) => parsed.filter((l) => l.status === s).length;
    expect([counts('verified'), counts('unverified'), counts('failed')]).toEqual([21, 1, 2]);
    expect(parsed.find((l) => l.status === 'failed')?.error?.kind).toBe('run');
    expect(reference).not.toMatch(/wallMs|eventsPerSec/);
    // Canonical: keys sorted at every level.
    expect(runs[0].startsWith('{"error":null,"i":0,"inputs":{"app":"apps/ping-pong","appSha256":')).toBe(true);
  });

  it('gives the same bytes with two workers and from three shards merged', async () => {
    const two = await sim(['sweep', SMALL, '--out', join(dir, 'two.jsonl'), '--workers', '2']);
    expect(two.code).toBe(0);
    expect(readFileSync(join(dir, 'two.jsonl'), 'utf8')).toBe(reference);
    const out = join(dir, 'sharded.jsonl');
    for (const shard of ['1/3', '3/3']) expect((await sim(['sweep', SMALL, '--out', out, '--shard', shard])).code).toBe(0);
    const gaps = await simHere(['sweep', 'merge', out, '--missing']);
    expect(gaps.code).toBe(1);
    expect(gaps.stdout).toContain('8 missing; not written');
    expect(gaps.stdout).toContain('missing runs: 1,4,7,10,13,16,19,22\nshards of 3 with gaps: --array=2\n');
    expect(existsSync(out)).toBe(false);
    expect((await sim(['sweep', SMALL, '--out', out, '--shard', '2/3', '--workers', '2'])).code).toBe(0);
    const merged = await simHere(['sweep', 'merge', out]);
    expect(merged.stdout).toBe(`sim sweep merge: wrote ${out}: 24 runs: 21 verified, 1 unverified, 2 failed\n`);
    expect(readFileSync(out, 'utf8')).toBe(reference);
  });

  it('runs nothing again when every run is recorded, and reports the status', async () => {
    const again = await simHere(['sweep', SMALL, '--out', join(dir, 'one.jsonl'), '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ runs: 24, ran: 0, verified: 21, unverified: 1, failed: 2, missing: 0 });
    const timing = lines(join(dir, 'one.jsonl.part-1-of-1.timing.jsonl'));
    expect(timing).toHaveLength(25);
    expect(JSON.parse(timing[1])).toMatchObject({ i: expect.any(Number), wallMs: expect.any(Number), host: expect.any(String), node: process.versions.node });
    const status = await simHere(['sweep', 'status', SMALL, '--out', join(dir, 'one.jsonl')]);
    expect(status.stdout).toBe('sim sweep status: small: 24 runs: 21 verified, 1 unverified, 2 failed\n');
  });

  it('exports CSV with inputs, parameters, summary numbers and metrics as columns', async () => {
    const csv = await simHere(['sweep', 'export', join(dir, 'one.jsonl'), '--format', 'csv', '--columns', 'i,status,platform,params.rounds,simulatedCycles,metrics.roundTrips,error.kind']);
    expect(csv.code).toBe(0);
    const rows = csv.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('i,status,platform,params.rounds,simulatedCycles,metrics.roundTrips,error.kind');
    expect(rows).toHaveLength(25);
    expect(rows[1]).toMatch(/^0,verified,cm5,1,\d+,3,$/);
    expect(rows.filter((r) => r.endsWith(',run'))).toHaveLength(2);
    const all = await simHere(['sweep', 'export', join(dir, 'one.jsonl'), '--format', 'csv']);
    expect(all.stdout.split('\n')[0]).toMatch(/^i,key,status,platform,app,nodes,seed,network,perturb,params\.rounds,.*busyCycles\.mean.*,metrics\.roundTrips/);
    const bad = await simHere(['sweep', 'export', join(dir, 'one.jsonl'), '--format', 'csv', '--columns', 'i,cycles']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sim: --columns: no column cycles \(the results have: i, key, status/);
  });

  // merge wrote its parts over whatever the file held, exit 0: a file of the user's, or another sweep's finished results.
  it('merges over no file that is not this sweep\'s results, as sim sweep refuses to', async () => {
    const out = join(dir, 'taken.jsonl');
    writeFileSync(`${out}.part-1-of-1`, readFileSync(join(dir, 'one.jsonl.part-1-of-1')));
    for (const [held, why] of [
      ['precious,data\n', "exists and is not a sweep's results file; expected a new name or a results file of this sweep"],
      [readFileSync(join(dir, 'one.jsonl'), 'utf8').replace(/"sweep":"small"/, '"sweep":"other"'), 'holds the results of sweep "other"'],
    ]) {
      writeFileSync(out, held);
      const r = await simHere(['sweep', 'merge', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`sim sweep merge ${out}: ${why}`);
      expect(readFileSync(out, 'utf8')).toBe(held);
    }
  });

  // A part saved with CRLF endings was read (JSON takes the CR) and its CRs copied into the
  // results: other bytes than every executor's, and beside an LF part a false "recorded twice".
  it('refuses a part with CRLF line endings, naming the line', async () => {
    const out = join(dir, 'crlf.jsonl');
    const part = readFileSync(join(dir, 'one.jsonl.part-1-of-1'), 'utf8');
    writeFileSync(`${out}.part-1-of-1`, part.replace(/\n/g, '\r\n'));
    for (const args of [['sweep', SMALL, '--out', out], ['sweep', 'merge', out]]) {
      const r = await simHere(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`sim: ${out}.part-1-of-1:1: ends with a carriage return (a CRLF line ending); expected the LF lines sim writes (convert the file back, e.g. with dos2unix)\n`);
    }
    expect(existsSync(out)).toBe(false);
    // One CR on a result line alone is named at its line.
    writeFileSync(`${out}.part-1-of-1`, part.split('\n').map((l, k) => (k === 2 ? `${l}\r` : l)).join('\n'));
    expect((await simHere(['sweep', 'merge', out])).stderr).toMatch(/part-1-of-1:3: ends with a carriage return/);
  });

  // JSON.parse's message showed the invisible character: "Unexpected token '\ufeff'".
  it('names a byte-order mark at the start of a sweep file', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, `\ufeff${readFileSync(join(ROOT, SMALL), 'utf8')}`);
    const r = await simHere(['sweep', file, '--out', join(dir, 'bom.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sim: ${file}: starts with a byte-order mark (U+FEFF); expected JSON without one (save the file as UTF-8 without a BOM)\n`);
  });

  it('fails a merge whose parts recorded one run with different bytes, showing both lines', async () => {
    const out = join(dir, 'conflict.jsonl');
    const part = lines(join(dir, 'one.jsonl.part-1-of-1'));
    writeFileSync(`${out}.part-1-of-2`, `${part.join('\n')}\n`);
    writeFileSync(`${out}.part-2-of-2`, `${part[0]}\n${part[3].replace(/"fingerprint":"[0-9a-f]+"/, '"fingerprint":"0000000000000000"')}\n`);
    const r = await simHere(['sweep', 'merge', out]);
    expect(r.code).toBe(1);
    // It was reported as an internal error, with a stack trace after the two lines.
    const err = r.stderr.trimEnd().split('\n');
    expect(err).toHaveLength(3);
    expect(err[0]).toMatch(/^sim: run run-[0-9a-f]{64} was recorded twice with different results/);
    expect(err[1]).toBe(`  ${part[3]}`);
    expect(err[2]).toContain('"fingerprint":"0000000000000000"');
    expect(existsSync(out)).toBe(false);
  });

  it('resumes a sweep killed mid-run without redoing the recorded runs, cutting a torn last line', async () => {
    const out = join(dir, 'killed.jsonl');
    const part = `${out}.part-1-of-1`;
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'sweep', SLOW, '--out', out], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    while (keysOf(part).length < 3) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const before = keysOf(part);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.length).toBeLessThan(16);
    // A crash in the middle of a write leaves half a line.
    const next = lines(join(dir, 'one.jsonl'))[1];
    appendFileSync(part, next.slice(0, 100));
    const timingBefore = keysOf(`${part}.timing.jsonl`).length;
    const r = await sim(['sweep', SLOW, '--out', out, '--workers', '2', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ runs: 16, ran: 16 - before.length, verified: 16 });
    const ranAfter = keysOf(`${part}.timing.jsonl`).slice(timingBefore);
    expect(ranAfter.filter((k) => before.includes(k))).toEqual([]);
    expect(new Set([...before, ...ranAfter]).size).toBe(16);
    expect(keysOf(part)).toHaveLength(16);
    const whole = await sim(['sweep', SLOW, '--out', join(dir, 'unkilled.jsonl'), '--workers', '2']);
    expect(whole.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'unkilled.jsonl'), 'utf8'));
  });

  it.each([
    [['sweep', SMALL, '--out', 'OUT', '--shard', '3/2'], /^sim: --shard 3\/2: expected i\/n with 1 <= i <= n <= 999999999 \(e\.g\. 2\/4\)$/],
    [['sweep', SMALL], /^sim sweep: missing --out <results\.jsonl>$/],
    [['sweep', SMALL, '--out', 'OUT', '--workers', '0'], /^sim: --workers 0: expected an integer from 1 to 256$/],
    [['sweep', 'test/fixtures/sweeps/none.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/none\.json: cannot read the sweep file \(ENOENT\)$/],
    [['sweep', 'test/fixtures/failing-app/index.ts', '--out', 'OUT'], /^sim: test\/fixtures\/failing-app\/index\.ts: not a sweep file at runs: missing \(expected array\); a sweep file is \{ name, runs: /],
    [['sweep', SMALL, '--out', 'OUT', '--queue', 'http://localhost'], /^sim: --queue http:\/\/localhost: expected a Redis URL, redis:\/\/host\[:port\]\[\/db\]/],
    [['sweep', SMALL, '--out', 'OUT', '--queue', 'redis://127.0.0.1:1/0'], /^sim: --queue redis:\/\/127\.0\.0\.1:1\/0: cannot reach Redis \(ECONNREFUSED\)$/],
    // ioredis threw a TypeError with its stack ("internal error", exit 1).
    [['sweep', SMALL, '--out', 'OUT', '--queue', 'redis://127.0.0.1:99999/0'], /^sim: --queue redis:\/\/127\.0\.0\.1:99999\/0: port 99999; expected a port from 1 to 65535$/],
    // Accepted: the runs past the last seed failed one by one as internal errors.
    [['sweep', 'test/fixtures/sweeps/seed-range.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/seed-range\.json: not a sweep file at runs\[0\]\.seeds: the range's last seed \(from \+ count - 1\) is past 4294967295/],
    // "--param layout=auto: expected one of square, vstrips, ...", though sim run takes auto.
    [['sweep', 'test/fixtures/sweeps/auto-param.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/auto-param\.json: runs\[0\]: --param layout=auto: expected one of .* \(auto is resolved from the models by sim run, not in a sweep, whose runs record the values they ran; sim select prints what auto resolves to\)$/],
    [['sweep', 'test/fixtures/sweeps/newline-name.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/newline-name\.json: not a sweep file at name: expected a name without control characters \(a newline, a tab, an escape\), line separators or direction overrides/],
    // JSON.parse kept the last "seeds": one run of seed 3, and the seeds [1, 2] were silently dropped.
    [['sweep', 'test/fixtures/sweeps/duplicate-key.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/duplicate-key\.json: key "runs\.0\.seeds" is given twice \(lines 5 and 6\); expected each key once$/],
    // Each refusal ("app apps/ping-pong<newline>x: no such file", "--param pat<newline>tern=...") came out on two lines.
    [['sweep', 'test/fixtures/sweeps/newline-app.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/newline-app\.json: not a sweep file at runs\[0\]\.app: expected one line of text, without control characters/],
    [['sweep', 'test/fixtures/sweeps/newline-param.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/newline-param\.json: not a sweep file at runs\[0\]\.params\["pat\\ntern"\]: expected one line of text, without control characters/],
    // Dropped (zod's records leave __proto__ out), and the runs ran without it, exit 0.
    [['sweep', 'test/fixtures/sweeps/proto-param.json', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/proto-param\.json: not a sweep file at runs\[0\]\.params: a parameter named __proto__; expected the app's parameter names$/],
    // An internal error with a stack; and a Promise was checked as the sweep ("at name: missing").
    [['sweep', 'test/fixtures/sweeps/getter-throws.ts', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/getter-throws\.ts: cannot load the sweep module \(reading its default export threw Error: getter boom\)$/],
    [['sweep', 'test/fixtures/sweeps/promise-export.ts', '--out', 'OUT'], /^sim: test\/fixtures\/sweeps\/promise-export\.ts: its default export is a Promise; expected the sweep object itself/],
    // Both were "every run missing", exit 0, where sim sweep refuses them.
    [['sweep', 'status', SMALL, '--out', '/nonexistent-sim-folder/r.jsonl'], /^sim: --out \/nonexistent-sim-folder\/r\.jsonl: no such folder \/nonexistent-sim-folder; expected the folder of the sweep's results$/],
    [['sweep', 'status', SMALL, '--out', 'README.md'], /^sim: --out README\.md: exists and is not a sweep's results file; expected a new name or a results file of this sweep$/],
    [['worker'], /^sim worker: missing --queue redis:\/\/host:port\/db/],
    [['sweep', 'slurm', SMALL, '--out', 'OUT', '--tasks', '50'], /^sim: --tasks 50: more array tasks than the sweep has runs \(24\)/],
    [['sweep', 'slurm', SMALL, '--out', 'OUT', '--tasks', '4', '--time', 'an hour'], /^sim: --time an hour: expected a Slurm time limit/],
    [['sweep', 'export', 'OUT', '--format', 'parquet'], /^sim sweep export: --format parquet: expected --format csv$/],
    [['sweep', 'merge', 'OUT'], /^sim: .*OUT: no results yet \(no .*OUT\.part-\* files\)$/],
  ])('refuses %j with one line, exit 2, and writes nothing', async (args, message) => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-sweep-bad-'));
    const r = await simHere(args.map((a) => (a === 'OUT' ? join(outDir, 'OUT') : a)));
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(readdirSync(outDir)).toEqual([]);
  });

  it.each([
    ['the build', {}],
    ['the sources', { SIM_FROM_SOURCES: '1' }],
  ])('loads a sweep written as a TypeScript module, running from %s', async (_, env: Record<string, string>) => {
    const r = await sim(['sweep', 'test/fixtures/sweeps/module.ts', '--out', join(dir, 'module.jsonl'), '--dry-run', '--json'], ROOT, env);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ sweep: 'module', runs: 2, toRun: 2 });
  });

  it('refuses a sweep module that does not compile, naming where (esbuild\'s first line alone was "Transform failed with 1 error:")', async () => {
    const r = await sim(['sweep', 'test/fixtures/broken-syntax.ts', '--out', join(mkdtempSync(join(tmpdir(), 'sim-sweep-bad-')), 'r.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: test/fixtures/broken-syntax.ts: cannot load the sweep module (test/fixtures/broken-syntax.ts:2:43: Expected identifier but found "(")\n');
  });

  // It was the simulator's "internal error" with Node's ERR_WORKER_OUT_OF_MEMORY stack.
  it('says which run ran its worker thread out of heap, in one line, exit 1, what finished kept', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-sweep-oom-'));
    writeFileSync(
      join(outDir, 'hog.ts'),
      `import { defineApp } from ${rootImport('src/runtime/index.ts')};
export default defineApp({ name: 'hog', description: 'allocates without end on node 0 when asked', params: { hog: { type: 'bool', default: false, doc: 'allocate without end' } }, *main(rt, p) { yield* rt.barrier(); const kept: number[][] = []; if (rt.self === 0 && p.hog) for (;;) kept.push(new Array(20000).fill(rt.self)); return 0; }, verify: () => ({ ok: true, detail: 'ran' }) });
`,
    );
    writeFileSync(join(outDir, 'hog.json'), JSON.stringify({ name: 'hog', runs: [{ app: 'hog.ts', platform: 'cm5', nodes: [4], params: { hog: [false, true] } }] }));
    const r = await sim(['sweep', join(outDir, 'hog.json'), '--out', join(outDir, 'r.jsonl'), '--workers', '2'], outDir, { NODE_OPTIONS: '--max-old-space-size=256' });
    expect(r.stderr).toMatch(/^sim: run 1 of the sweep \(hog\.ts on cm5, 4 nodes, seed 1\) ran its worker thread out of JavaScript heap, which ended it .*and run again\n$/);
    expect(r.code).toBe(1);
    expect(existsSync(join(outDir, 'r.jsonl.part-1-of-1'))).toBe(true);
  }, 60_000);

  it("reports an app's check that throws as the app's failure, naming the sweep entry (it was a simulator bug with a stack)", async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-sweep-check-'));
    const r = await simHere(['sweep', 'test/fixtures/sweeps/check-throws.json', '--out', join(outDir, 'r.jsonl')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: run failed: test\/fixtures\/sweeps\/check-throws\.json: runs\[0\]: app app-errors: check threw Error: check exploded\n  at explode \(test\/fixtures\/app-errors\/index\.ts:\d+:\d+\)\n  at check /);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(readdirSync(outDir)).toEqual([]);
  });

  it("refuses to write a second sweep's results over the first's, even once the old parts are gone", async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-sweep-owner-'));
    const out = join(outDir, 'r.jsonl');
    expect((await sim(['sweep', 'test/fixtures/sweeps/module.ts', '--out', out])).code).toBe(0);
    const first = readFileSync(out, 'utf8');
    for (const f of readdirSync(outDir)) if (f.includes('.part-')) rmSync(join(outDir, f));
    const r = await simHere(['sweep', SMALL, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sim: --out ${out}: holds the results of sweep "module" (sha256 ${JSON.parse(first.split('\n')[0]).sweepSha256.slice(0, 12)}, simulator ${JSON.parse(first.split('\n')[0]).simulator}, 2 runs), not "small"; use another --out or remove it\n`);
    expect(readFileSync(out, 'utf8')).toBe(first);
    expect(readdirSync(outDir)).toEqual(['r.jsonl']);
    writeFileSync(out, 'my notes\n');
    const other = await simHere(['sweep', SMALL, '--out', out]);
    expect(other.stderr).toBe(`sim: --out ${out}: exists and is not a sweep's results file; expected a new name or a results file of this sweep\n`);
    expect(readFileSync(out, 'utf8')).toBe('my notes\n');
  });

  it('refuses the results of another version of the same sweep naming both versions (it said: of sweep "mine" (...), not "mine")', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'sim-sweep-version-'));
    const file = join(outDir, 'mine.json');
    const sweep = (seeds: number[]) => writeFileSync(file, JSON.stringify({ name: 'mine', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 2, params: { rounds: 1 }, seeds }] }));
    sweep([1]);
    const out = join(outDir, 'r.jsonl');
    expect((await simHere(['sweep', file, '--out', out])).code).toBe(0);
    sweep([1, 2]);
    const r = await simHere(['sweep', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^sim: --out ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: holds the results of another version of sweep "mine" \\(sha256 [0-9a-f]{12}, simulator \\S+, 1 runs; this one: sha256 [0-9a-f]{12}, simulator \\S+, 2 runs\\); use another --out or remove it\\n$`));
  });

  it("refuses an export -o that names a sweep's part, which held the only record of its runs", async () => {
    const r = await simHere(['sweep', 'export', join(dir, 'one.jsonl'), '--format', 'csv', '-o', join(dir, 'one.jsonl.part-1-of-1')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sim: -o ${join(dir, 'one.jsonl.part-1-of-1')}: the name of a sweep's results part, which only the sweep writes; expected another file name\n`);
    expect(lines(join(dir, 'one.jsonl.part-1-of-1'))[0]).toMatch(/^\{"format"/);
    // So is its timing sidecar.
    const timing = join(dir, 'one.jsonl.part-1-of-1.timing.jsonl');
    const kept = readFileSync(timing, 'utf8');
    const t = await simHere(['sweep', 'export', join(dir, 'one.jsonl'), '--format', 'csv', '-o', timing]);
    expect(t.code).toBe(2);
    expect(t.stderr).toBe(`sim: -o ${timing}: the name of a sweep's results part, which only the sweep writes; expected another file name\n`);
    expect(readFileSync(timing, 'utf8')).toBe(kept);
  });

  it('refuses a malformed results part with its file and line', async () => {
    const out = join(dir, 'malformed.jsonl');
    const part = lines(join(dir, 'one.jsonl.part-1-of-1'));
    writeFileSync(`${out}.part-1-of-1`, `${part[0]}\n${part[1]}\n{"i":1}\n`);
    const r = await simHere(['sweep', SMALL, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sim: ${out}.part-1-of-1:3: expected "key", run- and 64 hex digits\n`);
    const m = await simHere(['sweep', 'merge', out]);
    expect(m.code).toBe(2);
    // A line at another run's index is named by its part and line (the message named the results file, not yet written).
    writeFileSync(`${out}.part-1-of-1`, `${part[0]}\n${part[1].replace('"i":0,', '"i":1,')}\n`);
    const moved = await simHere(['sweep', SMALL, '--out', out]);
    expect(moved.stderr).toMatch(new RegExp(`^sim: ${out}\\.part-1-of-1:2: the line for run 1 has key run-[0-9a-f]{64}, but the sweep's run 1 is run-`));
  });
});
