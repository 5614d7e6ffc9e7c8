#!/usr/bin/env node
// The `sim` command. It runs the JavaScript build in dist/ (made by `npm run build`,
// which `npm install` runs) when that build matches the sources; otherwise, in a
// checkout whose sources changed since, it runs the TypeScript sources through tsx
// (slower to start, same results). SIM_FROM_SOURCES=1 asks for the sources always.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildCurrent } from '../scripts/build-state.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let main;
if (process.env.SIM_FROM_SOURCES !== '1' && isBuildCurrent(root)) {
  ({ main } = await import('../dist/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
