/**
 * An output never destroys an input the command reads, however the two are named: the
 * same file reached through a symbolic link is the same file.
 */
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

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

    const sweep = `${JSON.stringify({ name: 's', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: 1 } }] })}\n`;
    writeFileSync(join(dir, 's.json'), sweep);
    symlinkSync('s.json', join(dir, 'r.jsonl'));
    const s = await sim(['sweep', 's.json', '--out', 'r.jsonl'], dir);
    expect(s.code).toBe(2);
    expect(s.stderr).toBe('sim: --out r.jsonl: the same file as sweep s.json; expected a different file\n');
    expect(readFileSync(join(dir, 's.json'), 'utf8')).toBe(sweep);
    expect(readdirSync(dir).sort()).toEqual(['e.json', 'r.jsonl', 's.json', 't.trace']);
  });
});
