/**
 * A sweep's --out is its results file, read back by every rerun, with its parts beside
 * it: a FIFO there (or a device) is refused with one line. `sim sweep s.json --out fifo`
 * (and --dry-run, and `sim sweep slurm`) opened the FIFO to read its header and waited
 * for a writer for ever.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, type CliResult } from '../support/sim-cli.ts';

/** `sim args` in `cwd`, killed after 20 s: before the fix it never ended. */
const simOrStuck = (args: string[], cwd: string): Promise<CliResult> =>
  new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd, timeout: 20_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });

describe('sim sweep --out onto a FIFO or a device', () => {
  it('is one line and exit 2 for the sweep, its dry run and its Slurm script (waited for ever on a FIFO)', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fifo-out-'));
    writeFileSync(join(dir, 's.json'), JSON.stringify({ name: 's', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4 }] }));
    execFileSync('mkfifo', [join(dir, 'r.jsonl')]);
    const line = (out: string) => `sim: --out ${out}: not a regular file; expected a file name (a sweep's results file, read back by every rerun, with its parts beside it)\n`;
    for (const args of [['sweep', 's.json', '--out', 'r.jsonl'], ['sweep', 's.json', '--out', 'r.jsonl', '--dry-run'], ['sweep', 'slurm', 's.json', '--out', 'r.jsonl', '--tasks', '2']]) {
      const r = await simOrStuck(args, dir);
      expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 2, stdout: '', stderr: line('r.jsonl') });
    }
    // A device is no results file either (it said "exists and is not a sweep's results file").
    expect((await simOrStuck(['sweep', 's.json', '--out', '/dev/null'], dir)).stderr).toBe(line('/dev/null'));
    expect(readdirSync(dir).sort()).toEqual(['r.jsonl', 's.json']);
  });
});
