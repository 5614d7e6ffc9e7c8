/** Test helper: run the real `sim` command in a child process. */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = join(import.meta.dirname, '../..');
/**
 * The checkout as a `sim` process names its own files (Node follows links to modules):
 * ROOT itself, except under scripts/vitest.mjs's link for a path with a '#' or '?'.
 */
export const REAL_ROOT = realpathSync(ROOT);
const SIM = join(ROOT, 'bin/sim.mjs');

/**
 * A checkout file (`src/runtime/index.ts`) as a quoted module specifier for a module
 * the test writes outside the checkout: a file URL in a JSON string, so a checkout
 * whose path has quotes, spaces, `#` or `%` imports as itself (`'${path}'` pasted
 * into the source stopped compiling at a checkout under /tmp/x 'q'/).
 */
export const rootImport = (rel: string): string => JSON.stringify(pathToFileURL(join(ROOT, rel)).href);

/** An app's source written for apps/<name>/ with its `'../../src/...'` imports made absolute (rootImport), for a copy elsewhere. */
export const withRootImports = (code: string): string => code.replace(/(['"])\.\.\/\.\.\/(src\/[^'"]+)\1/g, (_, _quote: string, rel: string) => rootImport(rel));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sim args` in `cwd`; `env` adds to the environment (SIM_FROM_SOURCES=1 skips the build).
 * `killAfterMs` SIGKILLs a `sim` that has not ended by then (one that hangs, for a test of a hang).
 */
export function sim(args: string[], cwd = ROOT, env: Record<string, string> = {}, killAfterMs = 0): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SIM, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: killAfterMs, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}
