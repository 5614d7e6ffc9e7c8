/**
 * A reader that goes away early (`sim apps | head -1`) closes sim's stdout: sim drops
 * the rest of its output and ends with its own status. It died with Node's unhandled
 * EPIPE error and a stack trace on stderr.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';

/** Runs `sim args` with its stdout's reader closed before it writes; its exit code and stderr. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.concurrent('a closed stdout', () => {
  it.each([
    ['sim apps', ['apps']],
    ['a run', ['--platform', 'cm5', '--nodes', '16', 'apps/cshift']],
  ])('%s ends with its own status and nothing on stderr', async (_what, args) => {
    const r = await withClosedStdout(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
