/**
 * `sim sweep --dry-run` says what the sweep would do, so it refuses the --out the sweep
 * would refuse: a file that holds no results, or another sweep's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const sweepText = (name: string) => `${JSON.stringify({ name, runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: [1, 2] } }] })}\n`;

describe('sim sweep --dry-run and an --out the sweep refuses', () => {
  it('said "would run 2", exit 0, where the sweep itself is refused; now the same line as the sweep, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-dry-run-out-'));
    writeFileSync(join(dir, 'a.json'), sweepText('a'));
    writeFileSync(join(dir, 'b.json'), sweepText('b'));
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    const notes = "sim: --out notes.txt: exists and is not a sweep's results file; expected a new name or a results file of this sweep\n";
    const dry = await sim(['sweep', 'a.json', '--out', 'notes.txt', '--dry-run'], dir);
    expect(dry.code).toBe(2);
    expect(dry.stdout).toBe('');
    expect(dry.stderr).toBe(notes);
    expect((await sim(['sweep', 'a.json', '--out', 'notes.txt'], dir)).stderr).toBe(notes);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');

    // a's results, complete: b's dry run is refused as b's sweep is.
    expect((await sim(['sweep', 'a.json', '--out', 'r.jsonl'], dir)).code).toBe(0);
    const other = await sim(['sweep', 'b.json', '--out', 'r.jsonl', '--dry-run', '--json'], dir);
    expect(other.code).toBe(2);
    expect(other.stdout).toBe('');
    expect(other.stderr).toMatch(/^sim: --out r\.jsonl: holds the results of sweep "a" .*, not "b"; use another --out or remove it\n$/);
    const own = await sim(['sweep', 'a.json', '--out', 'r.jsonl', '--dry-run', '--json'], dir);
    expect(JSON.parse(own.stdout)).toMatchObject({ sweep: 'a', runs: 2, recorded: 2, toRun: 0 });
  });
});
