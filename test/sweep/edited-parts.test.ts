/**
 * A real sweep's results, edited by hand or cut by a crash, as `sim sweep merge`,
 * `export` and a resumed sweep read them: every problem is one line naming the file
 * and what was expected, exit 2, and nothing is written.
 */
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { simHere } from '../support/sim-here.ts';

let dir: string;
/** The part of a real two-run sweep, as lines. */
let part: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-edited-parts-'));
  writeFileSync(join(dir, 'two.json'), JSON.stringify({ name: 'two', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: [1, 2] } }] }));
  const r = await simHere(['sweep', join(dir, 'two.json'), '--out', join(dir, 'two.jsonl')]);
  expect(r.code).toBe(0);
  part = readFileSync(join(dir, 'two.jsonl.part-1-of-1'), 'utf8').trimEnd().split('\n');
});

/** A copy of the part as `name`'s, its header's run count set to `runs`. */
function withRuns(name: string, runs: number): string {
  const out = join(dir, name);
  writeFileSync(`${out}.part-1-of-1`, [part[0].replace('"runs":2,', `"runs":${runs},`), ...part.slice(1)].join('\n') + '\n');
  return out;
}

describe('an edited results part', () => {
  it.each([
    // "internal error: RangeError: Invalid array length" with a stack trace.
    [1e15, 'a run count no array holds'],
    // V8's "Fatal JavaScript invalid size error" and a native stack (signal 5).
    [4e9, 'a run count past what a sweep makes'],
    // "expected "i", a run index from 0 to -2", naming a good line.
    [-1, 'a negative run count'],
  ])('merge refuses a header of %s runs (%s) with one line and exit 2', async (runs) => {
    const out = withRuns(`runs-${runs}.jsonl`, runs);
    const r = await simHere(['sweep', 'merge', out]);
    expect(r.stderr).toBe(`sim: ${out}.part-1-of-1:1: the header gives ${runs} runs; expected 1 to 1000000, the most a sweep makes\n`);
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  it('merge refuses a line that gives its run index twice, which it wrote out of sweep order', async () => {
    const out = join(dir, 'twice.jsonl');
    // Run 1's line, "i":0 added at its end: read fast it is run 1, parsed in full run 0.
    const [run0, run1] = ['"i":0,', '"i":1,'].map((i) => part.find((l) => l.includes(i)) as string);
    writeFileSync(`${out}.part-1-of-1`, [part[0], run0, run1.replace(/\}$/, ',"i":0}')].join('\n') + '\n');
    const r = await simHere(['sweep', 'merge', out]);
    expect(r.stderr).toMatch(new RegExp(`^sim: ${out}\\.part-1-of-1:3: the line reads as run 1 \\(run-[0-9a-f]{12}\\.\\.\\., verified\\) by its first fields but as run 0 \\(run-[0-9a-f]{12}\\.\\.\\., verified\\) in full; expected a result line as sim sweep writes it, each key once\n$`));
    expect(r.code).toBe(2);
    // It wrote the file, which sim sweep export refused: "run 0 where run 1 belongs (not in sweep order)".
    expect(existsSync(out)).toBe(false);
  });

  it("refuses a header whose sweep name has a newline and an escape, which a resumed sweep's refusal printed over three lines", async () => {
    const out = join(dir, 'named.jsonl');
    const header = JSON.parse(part[0]) as Record<string, unknown>;
    writeFileSync(`${out}.part-1-of-1`, [JSON.stringify({ ...header, sweep: 'other\nsweep\u001b[31m' }), ...part.slice(1)].join('\n') + '\n');
    const message = `sim: ${out}.part-1-of-1:1: the header's "sweep" is "other\\nsweep\\u001b[31m"; expected one line of text, without control characters (a newline, a tab, an escape), line separators or direction overrides\n`;
    const resumed = await simHere(['sweep', join(dir, 'two.json'), '--out', out]);
    expect(resumed.stderr).toBe(message);
    expect(resumed.code).toBe(2);
    // Merge wrote it into the results file, exit 0.
    const merged = await simHere(['sweep', 'merge', out]);
    expect(merged.stderr).toBe(message);
    expect(existsSync(out)).toBe(false);
  });

  it("reads only versions from a timing sidecar: a \"node\" with an escape and a newline reached merge's warning as it was", async () => {
    const sidecar = readFileSync(join(dir, 'two.jsonl.part-1-of-1.timing.jsonl'), 'utf8');
    const mergeWithNode = async (name: string, node: string) => {
      const out = join(dir, name);
      writeFileSync(`${out}.part-1-of-1`, `${part.join('\n')}\n`);
      writeFileSync(`${out}.part-1-of-1.timing.jsonl`, sidecar.replace(/"node":"[^"]+"/, `"node":"${node}"`));
      return simHere(['sweep', 'merge', out]);
    };
    const crafted = await mergeWithNode('sidecar-escape.jsonl', '99.\u001b[31mRED\n');
    expect(crafted.stderr).toBe('');
    expect(crafted.code).toBe(0);
    const other = await mergeWithNode('sidecar-major.jsonl', '99.0.0');
    expect(other.stderr).toBe(`sim sweep merge: warning: the runs ran on different Node majors (${process.versions.node}, 99.0.0); results agree only as far as their floats do\n`);
  });

  it('shows the two lines of a run recorded twice with the characters that steer a terminal written out', async () => {
    const out = join(dir, 'twice-steered.jsonl');
    const run0 = part.find((l) => l.includes('"i":0,')) as string;
    // The same run again, its app renamed with a raw escape and a C1 control (U+009B, a terminal's CSI).
    const steered = run0.replace('"app":"ping-pong"', '"app":"ping-pong\u001b[31mRED\u009b2J"');
    writeFileSync(`${out}.part-1-of-1`, `${[...part, steered].join('\n')}\n`);
    const r = await simHere(['sweep', 'merge', out]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('"app":"ping-pong\\u001b[31mRED\\u009b2J"');
    expect(r.stderr).not.toMatch(/[\u001b\u009b]/);
  });

  it.each(['0-of-0', '5-of-2'])("refuses a part named for shard %s, which --shard cannot give (merge --missing printed \"--array=NaN\" for 0-of-0)", async (name) => {
    const out = join(dir, `named-${name}.jsonl`);
    writeFileSync(`${out}.part-${name}`, `${part.slice(0, 2).join('\n')}\n`);
    const [i, n] = name.split('-of-');
    const r = await simHere(['sweep', 'merge', out, '--missing']);
    expect(r.stderr).toBe(`sim: ${out}.part-${name}: a results part named for shard ${i} of ${n}; expected part-<i>-of-<n> with 1 <= i <= n <= 999999999, as --shard i/n names them (rename or remove it)\n`);
    expect(r.code).toBe(2);
  });

  it('merges a part of more than 2^29 bytes, more than one string holds (it was "internal error: Cannot create a string longer than 0x1fffffe8 characters")', async () => {
    const out = join(dir, 'large.jsonl');
    const run0 = part.find((l) => l.includes('"i":0,')) as string;
    // Run 0's real line, as the line of run i under key i: 600 MB of distinct runs.
    const lineOf = (i: number) => run0.replace('"i":0,', `"i":${i},`).replace(/"key":"run-[0-9a-f]{64}"/, `"key":"run-${i.toString(16).padStart(64, '0')}"`);
    const runs = Math.ceil(600e6 / (run0.length + 8));
    const header = JSON.stringify({ ...(JSON.parse(part[0]) as object), runs });
    const fd = openSync(`${out}.part-1-of-1`, 'w');
    writeSync(fd, `${header}\n`);
    for (let i = 0; i < runs; i += 10_000) writeSync(fd, Array.from({ length: Math.min(10_000, runs - i) }, (_, k) => `${lineOf(i + k)}\n`).join(''));
    closeSync(fd);
    try {
      const r = await simHere(['sweep', 'merge', out]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`sim sweep merge: wrote ${out}: ${runs} runs: ${runs} verified, 0 unverified, 0 failed\n`);
      expect(statSync(out).size).toBe(statSync(`${out}.part-1-of-1`).size);
      // Run 0 once more under another key: the refusal names the part and line (finding
      // them decoded the part as one string, and stopped with the same internal error).
      rmSync(out);
      appendFileSync(`${out}.part-1-of-1`, `${run0}\n`);
      const twice = await simHere(['sweep', 'merge', out]);
      expect(twice.stderr).toMatch(new RegExp(`^sim: ${out}\\.part-1-of-1:${runs + 2}: run 0 is recorded under two keys \\(run-0{64} and run-[0-9a-f]{64}\\); the parts mix different sweeps\n$`));
      expect(twice.code).toBe(2);
    } finally {
      rmSync(`${out}.part-1-of-1`, { force: true });
      rmSync(out, { force: true });
    }
  }, 240_000);
});
