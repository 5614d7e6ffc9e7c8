// Registers tsx's module hooks in this thread (module hooks are per thread), with its
// compile cache off where the cache cannot be kept. tsx keeps it under the OS temp
// dir (<tmpdir>/tsx-<uid>) and throws at its first write when it cannot make that
// folder: with TMPDIR read-only, `sim` run from the sources died with "EPERM:
// operation not permitted, mkdir '/sys/tsx-0'" and a TypeScript app outside the build
// "cannot be loaded"; a TMPDIR that does not exist goes without it too. The simulator
// itself keeps nothing there. Plain JavaScript:
// scripts/build-state.mjs and the worker entry points run it before anything can
// compile TypeScript (project.ts imports it by URL).
import { mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export async function registerTsx() {
  if (process.env.TSX_DISABLE_CACHE === undefined) {
    try {
      // Not { recursive: true }: it made a TMPDIR that did not exist (and its parents), and
      // under /proc (TMPDIR=/proc/x) Node's recursive mkdir never returned, sim spinning a core.
      mkdirSync(join(tmpdir(), `tsx-${process.geteuid?.() ?? userInfo().username}`));
    } catch (e) {
      // Set before tsx loads, and inherited by the worker threads and processes started after.
      if (e?.code !== 'EEXIST') process.env.TSX_DISABLE_CACHE = '1';
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
}
