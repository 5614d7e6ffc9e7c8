/** Test helper: run `sim` in this process (fast; for commands that start no threads or children, or whose sweeps run in the main thread). */
import { main } from '../../src/cli/main.ts';
import type { CliResult } from './sim-cli.ts';

export async function simHere(args: string[]): Promise<CliResult> {
  const result = { code: 0, stdout: '', stderr: '' };
  result.code = await main(args, {
    out: (t) => (result.stdout += `${t}\n`),
    err: (t) => (result.stderr += `${t}\n`),
    write: (stream, t) => (stream === 'stdout' ? (result.stdout += t) : (result.stderr += t)),
  });
  return result;
}
