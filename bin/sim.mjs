#!/usr/bin/env node
// The `sim` command. It runs the JavaScript build in dist/ (made by `npm run build`,
// which `npm install` runs) when that build matches the sources; otherwise, in a
// checkout whose sources changed since, it runs the TypeScript sources through tsx
// (slower to start, same results). SIM_FROM_SOURCES=1 asks for the sources always.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCliMain } from '../scripts/build-state.mjs';

// A reader that stops early (`sim params apps/stencil | head -3`) closes the pipe: the
// command still finishes what it writes to files and exits with its own status, its
// further output dropped, instead of dying on Node's unhandled EPIPE with a stack trace.
// Standard output that cannot take what is written (a full disk: `sim sweep export
// r.jsonl --format csv > r.csv`, or /dev/full) died the same way, a Node stack trace and
// status 1, the output cut short: the command finishes, then says so in one line, status 2.
let lost = null;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE' && stream === process.stdout) lost ??= e;
  });
}

// Every command names files relative to the working directory. One deleted under a shell
// that stayed in it ended a run in "internal error (a bug in the simulator): ENOENT ...
// uv_cwd" with a stack, and loading TypeScript (a user's app, the sources) in esbuild's
// uncaught exception: one line, status 2, before anything loads.
try {
  process.cwd();
} catch (e) {
  process.stderr.write(`sim: the working directory is gone (${e.code ?? e.message}: it was deleted or moved after the shell entered it); expected one that exists: cd to it and run again\n`);
  process.exit(2);
}

const main = await loadCliMain(join(dirname(fileURLToPath(import.meta.url)), '..'));
const status = await main(process.argv.slice(2));
// A failed write is reported on a later tick: let it come.
await new Promise((resolve) => setImmediate(resolve));
if (lost === null) process.exitCode = status;
else {
  process.stderr.write(`sim: cannot write to standard output (${lost.code ?? lost.message}); what it was to show is incomplete\n`);
  process.exitCode = 2;
}
