/** Test helper: run the real `sim` command in a child process. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
const SIM = join(ROOT, 'bin/sim.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sim args` in `cwd`; `env` adds to the environment (SIM_FROM_SOURCES=1 skips the build). */
export function sim(args: string[], cwd = ROOT, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SIM, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}
