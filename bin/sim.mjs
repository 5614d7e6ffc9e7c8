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
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

const main = await loadCliMain(join(dirname(fileURLToPath(import.meta.url)), '..'));
process.exitCode = await main(process.argv.slice(2));
