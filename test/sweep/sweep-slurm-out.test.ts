/**
 * `sim sweep slurm` checks its --out as every array task's `sim sweep` will: a script
 * whose tasks can only fail is refused when it is made, not after sbatch has queued it.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const sweepText = (name: string) => `${JSON.stringify({ name, runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: [1, 2] } }] })}\n`;

describe.concurrent('sim sweep slurm --out', () => {
  it.each([
    ['the sweep file itself', 's.json', 'sim: --out s.json: the same file as sweep s.json; expected a different file'],
    ['a folder', 'w', 'sim: --out w: is a folder; expected a file name'],
    ['a results part', 'r.jsonl.part-1-of-2', "sim: --out r.jsonl.part-1-of-2: the name of a sweep's results part, which only the sweep writes; expected another file name"],
    ['a file that is no results file', 'notes.txt', "sim: --out notes.txt: exists and is not a sweep's results file; expected a new name or a results file of this sweep"],
  ])('%s: printed a script, exit 0, whose every task failed on it; now one line, exit 2', async (_what, out, line) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-slurm-out-'));
    writeFileSync(join(dir, 's.json'), sweepText('s'));
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    mkdirSync(join(dir, 'w'));
    const r = await sim(['sweep', 'slurm', 's.json', '--out', out, '--tasks', '2'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
    // What a task would have run, for the record: the same refusal.
    expect((await sim(['sweep', 's.json', '--out', out, '--shard', '1/2'], dir)).stderr).toBe(`${line}\n`);
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(sweepText('s'));
  });

  it("another sweep's results: refused as sim sweep refuses them; this sweep's own results make a script", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-slurm-out-'));
    writeFileSync(join(dir, 'a.json'), sweepText('a'));
    writeFileSync(join(dir, 'b.json'), sweepText('b'));
    expect((await sim(['sweep', 'a.json', '--out', 'r.jsonl'], dir)).code).toBe(0);
    const other = await sim(['sweep', 'slurm', 'b.json', '--out', 'r.jsonl', '--tasks', '2'], dir);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^sim: --out r\.jsonl: holds the results of sweep "a" \(sha256 [0-9a-f]{12}, simulator [^,]+, 2 runs\), not "b"; use another --out or remove it\n$/);
    const own = await sim(['sweep', 'slurm', 'a.json', '--out', 'r.jsonl', '--tasks', '2'], dir);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/sweep a\.json --out r\.jsonl \\\n {2}--shard "\$\{SLURM_ARRAY_TASK_ID\}\/2"/);
  });
});
