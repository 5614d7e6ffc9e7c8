/**
 * Sweep files expand in document order into runs with stable indexes and content
 * keys; bad files and bad runs are refused with one line before anything runs; parts
 * cut a torn tail and refuse a key recorded with two different lines.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutInputs } from '../../src/cli/sweep-inputs.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { canonicalJson } from '../../src/sweep/canonical.ts';
import { expandSweep } from '../../src/sweep/expand.ts';
import { KeyConflict, PartWriter, readParts, readPieces } from '../../src/sweep/parts.ts';
import { checkSweep } from '../../src/sweep/sweep-file.ts';
import { runKey } from '../../src/sweep/run-model.ts';
import { inShard, parseShard } from '../../src/sweep/shard.ts';
import { collectParts, finalPieces, ranges, shardsWithGaps } from '../../src/sweep/merge.ts';

const thousand = Array.from({ length: 1000 }, (_, k) => k + 1);
const expand = async (value: unknown) => expandSweep(checkSweep(value, 'test.json'), 'test.json', checkoutInputs());

describe('sweep expansion', () => {
  it('expands entry, platform, nodes, params (first key outermost), seeds, network in that order', async () => {
    const runs = await expand({
      name: 'order',
      runs: [
        { app: 'apps/cshift', platform: ['cm5', 'paragon'], nodes: [4, 16], params: { shift: [1, 2], messages: 8 }, seeds: { from: 5, count: 2 }, network: ['packet', 'analytic'] },
        { app: 'apps/ping-pong', platform: 'atm', nodes: 4, perturb: [3] },
      ],
    });
    expect(runs).toHaveLength(2 * 2 * 2 * 2 * 2 + 1);
    const label = (k: number) => {
      const r = runs[k].inputs;
      return `${r.platform} ${r.nodes} shift=${String(r.params.shift)} s${r.seed} ${r.network}`;
    };
    expect([0, 1, 2, 3, 4, 8, 16].map(label)).toEqual([
      'cm5 4 shift=1 s5 packet',
      'cm5 4 shift=1 s5 analytic',
      'cm5 4 shift=1 s6 packet',
      'cm5 4 shift=1 s6 analytic',
      'cm5 4 shift=2 s5 packet',
      'cm5 16 shift=1 s5 packet',
      'paragon 4 shift=1 s5 packet',
    ]);
    expect(runs.map((r) => r.i)).toEqual(runs.map((_, k) => k));
    // Defaults are filled and values parsed: the key names every parameter.
    expect(runs[0].inputs.params).toEqual({ shift: 1, messages: 8 });
    expect(runs[32].inputs).toMatchObject({ app: 'apps/ping-pong', params: { rounds: 8 }, seed: 1, network: 'packet', perturb: 3 });
    expect(new Set(runs.map((r) => r.key)).size).toBe(runs.length);
    expect(runs[0].key).toMatch(/^run-[0-9a-f]{64}$/);
    // The keys made in bulk are the keys runKey defines.
    for (const run of runs) expect(run.key).toBe(runKey(run.inputs));
  });

  it("takes a platform's default node count, seed 1, the packet network and no perturbation when an entry gives none", async () => {
    const [run] = await expand({ name: 'x', runs: [{ app: 'apps/cshift', platform: 'paragon' }] });
    const { defaultNodes } = JSON.parse(readFileSync(join(import.meta.dirname, '../../platforms/paragon.json'), 'utf8')) as { defaultNodes: number };
    expect(run.inputs).toMatchObject({ nodes: defaultNodes, seed: 1, network: 'packet', perturb: null });
  });

  it('varies the first parameter key outermost when several keys list values', async () => {
    const runs = await expand({ name: 'p', runs: [{ app: 'apps/cshift', platform: 'cm5', nodes: 4, params: { shift: [1, 2], messages: [8, 16, 32] } }] });
    expect(runs.map((r) => `${String(r.inputs.params.shift)}/${String(r.inputs.params.messages)}`)).toEqual(['1/8', '1/16', '1/32', '2/8', '2/16', '2/32']);
  });

  it('expands a sweep of exactly 1,000,000 runs (the limit is at most, not below)', async () => {
    // An unknown app: refused for that, once the count has passed, before anything expands.
    const error = await expand({ name: 'x', runs: [{ app: 'apps/nope', platform: 'cm5', params: { messages: thousand, shift: thousand } }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/^test\.json: runs\[0\]: app apps\/nope: no such file or folder/);
  });

  it('gives a run the same key whether a value is written as a number or a string, or left to its default', async () => {
    const [a] = await expand({ name: 'a', runs: [{ app: 'apps/cshift', platform: 'cm5', nodes: 4, params: { messages: 64 } }] });
    const [b] = await expand({ name: 'b', runs: [{ app: 'apps/cshift', platform: 'cm5', nodes: 4, params: { messages: '64' } }] });
    const [c] = await expand({ name: 'c', runs: [{ app: 'apps/cshift', platform: 'cm5', nodes: 4, seeds: [1] }] });
    const [d] = await expand({ name: 'd', runs: [{ app: 'apps/cshift', platform: 'cm5', nodes: 4, seeds: [2] }] });
    expect(b.key).toBe(a.key);
    expect(c.key).toBe(a.key);
    expect(d.key).not.toBe(a.key);
  });

  it.each([
    ['a missing name', { runs: [{ app: 'apps/cshift', platform: 'cm5' }] }, /test\.json: not a sweep file at name: missing \(expected string\); a sweep file is \{ name, runs: /],
    // The name goes into the Slurm job name and every message about the results.
    ['a name of 201 characters', { name: 'n'.repeat(201), runs: [{ app: 'apps/cshift', platform: 'cm5' }] }, /test\.json: not a sweep file at name: .*200/],
    ['an unknown key', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', nodez: [4] }] }, /at runs\[0\]: .*nodez/],
    // JSON reads 1e400 as Infinity; the message named only the union's first form, "expected string".
    ['a parameter value JSON reads as Infinity', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', params: { messages: Infinity } }] }, /at runs\[0\]\.params\.messages: expected a string, a finite number, true or false; a sweep file is /],
    ['a parameter value that is an object', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', params: { messages: { n: 1 } } }] }, /at runs\[0\]\.params\.messages: expected a string, a finite number, true or false; a sweep file is /],
    ['a bad network', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', network: 'wifi' }] }, /at runs\[0\]\.network/],
    ['an unknown platform', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cray' }] }, /test\.json: runs\[0\]: --platform cray: unknown platform/],
    ['an unknown app', { name: 'x', runs: [{ app: 'apps/nope', platform: 'cm5' }] }, /test\.json: runs\[0\]: app apps\/nope: no such file or folder \(here or among the simulator's apps\)/],
    ['an unknown parameter', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', params: { shfit: [1] } }] }, /test\.json: runs\[0\]: .*shfit/],
    ['a bad value in the last combination', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', params: { messages: [1, 0] } }] }, /test\.json: runs\[0\]: .*messages/],
    ['a bad machine size', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', nodes: [4, 12] }] }, /test\.json: runs\[0\]: nodes 12: /],
    ['a combination the app refuses', { name: 'x', runs: [{ app: 'apps/examples/race', platform: 'cm5', nodes: 2 }] }, /runs\[0\]: app race on cm5 with 2 nodes.*needs at least 4 nodes/],
    ['the same run twice', { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5', seeds: [1, 2] }, { app: 'apps/cshift', platform: 'cm5', seeds: 2 }] }, /runs\[1\]: run 2 is the same run as run 1/],
    // 1,000 x 1,000 x 1,000: once expanded for four minutes until V8's heap ran out.
    [
      'more than 1,000,000 runs, counted before expanding any',
      { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5' }, { app: 'apps/cshift', platform: 'cm5', params: { messages: thousand, shift: thousand }, seeds: { from: 1, count: 1000 } }] },
      /test\.json: makes 1000000001 runs \(runs\[1\] alone 1000000000\); .* expected at most 1000000: split it into several sweep files$/,
    ],
    // One past the limit: the limit is at most 1,000,000, not "at most 1,000,001".
    [
      '1,000,001 runs',
      { name: 'x', runs: [{ app: 'apps/cshift', platform: 'cm5' }, { app: 'apps/cshift', platform: 'cm5', seeds: { from: 1, count: 1_000_000 } }] },
      /test\.json: makes 1000001 runs \(runs\[1\] alone 1000000\); .* expected at most 1000000: split it into several sweep files$/,
    ],
  ])('refuses %s with one line naming it', async (_what, value, message) => {
    const error = await expand(value).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('assigns runs to shards round-robin and refuses shard specs like 3/2', () => {
    const shard = parseShard('2/3');
    expect([0, 1, 2, 3, 4, 5, 6, 7].filter((i) => inShard(i, shard))).toEqual([1, 4, 7]);
    // The last shard and the whole are shards too.
    expect([0, 1, 2, 3, 4, 5, 6, 7].filter((i) => inShard(i, parseShard('3/3')))).toEqual([2, 5]);
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    for (const bad of ['3/2', '0/2', '1/0', 'a/b', '1/2/3', '', '1/1000000000']) expect(() => parseShard(bad)).toThrow(/expected i\/n with 1 <= i <= n/);
  });

  it('writes missing runs as ranges of consecutive indexes, and the shards with gaps in order', () => {
    expect(ranges([0, 1, 2, 3, 7, 9, 10])).toBe('0-3,7,9-10');
    expect(ranges([1, 3, 5])).toBe('1,3,5');
    expect(ranges([])).toBe('');
    // Runs 3, 4 and 5 of shards of 4 belong to shards 4, 1 and 2.
    expect(shardsWithGaps([3, 4, 5], 4)).toEqual([1, 2, 4]);
  });

  it('writes canonical JSON: keys sorted at every level, undefined members left out', () => {
    expect(canonicalJson({ b: 1, a: undefined, c: [2, { z: 1, y: null }], 'a b': 'x' })).toBe('{"a b":"x","b":1,"c":[2,{"y":null,"z":1}]}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/NaN is not a JSON number/);
  });
});

describe('result parts', () => {
  const header = { sweep: 's', sweepSha256: 'ab', simulator: '0.1.0', runs: 3, format: 1 };
  const line = (i: number, fingerprint: string) =>
    canonicalJson({ i, key: `run-${String(i).repeat(64)}`, inputs: {}, status: 'verified', summary: { fingerprint }, error: null });

  it('cuts a torn tail before appending, so a crash mid-write never glues two lines', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sim-parts-')), 'r.jsonl');
    const w = new PartWriter(`${out}.part-1-of-1`, header);
    w.append(line(0, 'a'));
    w.close();
    appendFileSync(`${out}.part-1-of-1`, line(1, 'b').slice(0, 40));
    // A reader ignores the torn tail (a shard may still be writing it)...
    expect([...readParts(out).byKey.keys()]).toHaveLength(1);
    // ...and a writer cuts it before its own first line.
    const again = new PartWriter(`${out}.part-1-of-1`, header);
    again.append(line(1, 'b'));
    again.close();
    expect(readFileSync(`${out}.part-1-of-1`, 'utf8')).toBe(`${canonicalJson(header)}\n${line(0, 'a')}\n${line(1, 'b')}\n`);
  });

  it('reads a part in pieces that each end at a line end (a part past 1 GiB is read so), and refuses a line longer than a piece', () => {
    const part = join(mkdtempSync(join(tmpdir(), 'sim-parts-')), 'r.jsonl.part-1-of-1');
    writeFileSync(part, 'aaaa\nbb\ncccccc\ndd');
    // At most 8 bytes a piece: a piece ends after its last whole line, and the torn tail comes last.
    expect(readPieces(part, 'the part', 8).map(String)).toEqual(['aaaa\nbb\n', 'cccccc\n', 'dd']);
    writeFileSync(part, 'aaaa\nbbbbbbbbbbbb\n');
    expect(() => readPieces(part, 'the part', 8)).toThrow(`${part}: a line of more than 8 bytes at byte 5; expected result lines (one JSON object of a run per line)`);
  });

  it('accepts a key recorded twice only with byte-identical lines', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sim-parts-')), 'r.jsonl');
    for (const [part, fp] of [['part-1-of-2', 'a'], ['part-2-of-2', 'a']]) {
      const w = new PartWriter(`${out}.${part}`, header);
      w.append(line(0, fp));
      w.close();
    }
    expect(readParts(out).byKey.size).toBe(1);
    const w = new PartWriter(`${out}.part-queue`, header);
    w.append(line(0, 'DIFFERENT'));
    w.close();
    expect(() => readParts(out)).toThrow(KeyConflict);
    expect(() => readParts(out)).toThrow(/recorded twice with different results.*\n.*"fingerprint":"a".*\n.*"fingerprint":"DIFFERENT"/);
  });

  it('reads index, key and status right when messages and parameters look like line syntax', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sim-parts-')), 'r.jsonl');
    const tricky = `x","i":7,"inputs":{},"key":"run-${'f'.repeat(64)}","status":"verified","summary":{} },"key":"run-${'e'.repeat(64)}\\`;
    const lines = [
      canonicalJson({ i: 2, key: `run-${'a'.repeat(64)}`, inputs: { params: { i: 9, key: `run-${'b'.repeat(64)}` }, simulator: '0.1.0' }, status: 'failed', summary: null, error: { kind: 'run', message: tricky } }),
      canonicalJson({ i: 0, key: `run-${'c'.repeat(64)}`, inputs: { params: { key: 'x' }, simulator: '0.1.0' }, status: 'unverified', summary: { fingerprint: 'ff' }, error: null }),
      // Valid but not canonical (keys unsorted, spaces): read in full.
      JSON.stringify({ key: `run-${'d'.repeat(64)}`, i: 1, status: 'verified', inputs: {}, summary: {}, error: null }, null, 0).replace(',', ', '),
    ];
    writeFileSync(`${out}.part-1-of-1`, `${canonicalJson(header)}\n${lines.join('\n')}\n`);
    const got = [...readParts(out).byKey.values()].map((l) => [l.i, l.key.slice(4, 6), l.status, l.text === lines[[2, 0, 1].indexOf(l.i)]]);
    expect(got).toEqual([
      [2, 'aa', 'failed', true],
      [0, 'cc', 'unverified', true],
      [1, 'dd', 'verified', true],
    ]);
  });

  it('refuses a part of another results format, one whose header gives no runs, and a line whose index is past the last run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-parts-'));
    const part = (name: string, head: object, lines: string[] = []) => {
      const out = join(dir, name);
      writeFileSync(`${out}.part-1-of-1`, `${canonicalJson(head)}\n${lines.map((l) => `${l}\n`).join('')}`);
      return out;
    };
    expect(() => readParts(part('format', { ...header, format: 2 }))).toThrow(/part-1-of-1:1: results format 2, this simulator reads format 1$/);
    expect(() => readParts(part('none', { ...header, runs: 0 }))).toThrow(/part-1-of-1:1: the header gives 0 runs; expected 1 to 1000000, the most a sweep makes$/);
    // Runs 0 to 2 of 3: a line for run 3 is no run of this sweep (read fast or in full).
    expect(readParts(part('last', header, [line(2, 'a')])).byKey.size).toBe(1);
    expect(() => readParts(part('past', header, [line(3, 'a')]))).toThrow(/part-1-of-1:2: expected "i", a run index from 0 to 2$/);
  });

  it('refuses, when merging, a run recorded under two keys and a line without inputs, summary or error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-parts-'));
    const twoKeys = join(dir, 'two.jsonl');
    const other = canonicalJson({ i: 0, key: `run-${'e'.repeat(64)}`, inputs: {}, status: 'verified', summary: { fingerprint: 'a' }, error: null });
    writeFileSync(`${twoKeys}.part-1-of-1`, `${canonicalJson(header)}\n${line(0, 'a')}\n${other}\n`);
    expect(() => collectParts(twoKeys)).toThrow(`run 0 is recorded under two keys (run-${'0'.repeat(64)} and run-${'e'.repeat(64)}); the parts mix different sweeps`);
    const bare = join(dir, 'bare.jsonl');
    const noInputs = `{"error":null,"i":1,"key":"run-${'1'.repeat(64)}","status":"verified","summary":{"fingerprint":"${'f'.repeat(40)}"}}`;
    writeFileSync(`${bare}.part-1-of-1`, `${canonicalJson(header)}\n${line(0, 'a')}\n${noInputs}\n${line(2, 'c')}\n`);
    expect(() => [...finalPieces(collectParts(bare), bare)]).toThrow(`${bare}.part-1-of-1:3: expected "inputs", "summary" and "error"`);
  });

  it('refuses parts of another sweep', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sim-parts-')), 'r.jsonl');
    new PartWriter(`${out}.part-1-of-1`, header).close();
    writeFileSync(`${out}.part-1-of-2`, `${canonicalJson({ ...header, sweepSha256: 'cd' })}\n`);
    expect(() => readParts(out)).toThrow(/belongs to sweep "s" \(sha256 cd/);
  });
});
