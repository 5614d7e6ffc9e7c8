/**
 * Vitest global set-up: the whole test run gets one scratch directory as its TMPDIR,
 * removed when the run ends. Tests make their directories with mkdtemp under
 * `tmpdir()`, and the `sim` processes, workers and servers they start inherit the
 * variable, so `npm test` leaves nothing behind in the system's temporary directory
 * however a test ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'sim-test-run-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
