/**
 * A standard output that takes no more (a full disk: `sim sweep export r.jsonl --format
 * csv > r.csv`; here /dev/full) is one line on stderr and status 2, the command's files
 * written as they would be. It died with Node's ENOSPC error, a stack trace and status 1.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';

/** Runs `sim args` in `cwd` with its stdout on /dev/full; its exit code and stderr. */
function toFullDisk(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd, stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const LINE = 'sim: cannot write to standard output (ENOSPC); what it was to show is incomplete\n';

describe.concurrent('a standard output on a full disk', () => {
  it.each([
    ['sim apps', ['apps']],
    ['a run with --json', ['--platform', 'cm5', '--nodes', '4', 'apps/cshift', '--json']],
  ])('%s: one line, status 2', async (_what, args) => {
    const r = await toFullDisk(args, ROOT);
    expect(r.stderr).toBe(LINE);
    expect(r.code).toBe(2);
  });

  it("a run's files are written all the same; bad input keeps its own line and status", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-full-stdout-'));
    const r = await toFullDisk(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--log', 'run.log'], dir);
    expect(r.stderr).toBe(LINE);
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, 'run.log'), 'utf8')).toMatch(/^cycle 0 node 0: startBarrier$/m);
    const bad = await toFullDisk(['--platform', 'cm5', '--nodes', '5', 'apps/cshift'], ROOT);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sim: --nodes 5: [^\n]*\n$/);
  });
});
