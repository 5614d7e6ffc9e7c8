// The perf bench's warm diagnostic (bench/warm-child.mjs): one sim command line run twice
// in one process. The second run must be the same run: nothing a run leaves behind in
// the process (module state, caches) may change what the next one simulates.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CHILD = join(ROOT, 'bench', 'warm-child.mjs');

function summaries(args: string[]): { status: number | null; runs: Record<string, unknown>[]; stderr: string } {
  const done = spawnSync(process.execPath, [CHILD, ...args], { cwd: ROOT, encoding: 'utf8' });
  const runs = done.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: done.status, runs, stderr: done.stderr };
}

describe('bench/warm-child.mjs', () => {
  it('makes the same run twice in one process: same fingerprint, events and cycles', () => {
    const { status, runs } = summaries(['--platform', 'cm5', 'apps/patterns', '--nodes', '16', '--param', 'pattern=cshift', '--param', 'blockBytes=256', '--param', 'rounds=2']);
    expect(status).toBe(0);
    expect(runs).toHaveLength(2);
    for (const key of ['fingerprint', 'events', 'simulatedCycles', 'verified']) expect(runs[1][key]).toEqual(runs[0][key]);
    expect(runs[0].verified).toBe(true);
    expect(typeof runs[0].wallMs).toBe('number');
  });

  it('stops after a run that fails, with its exit code and no second summary', () => {
    const { status, runs, stderr } = summaries(['--platform', 'cm5', 'apps/patterns', '--nodes', '16', '--param', 'blockBytes=6']);
    expect(status).toBe(2);
    expect(runs).toHaveLength(0);
    expect(stderr).toMatch(/blockBytes 6/);
  });
});
