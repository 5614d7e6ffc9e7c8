// Runs one `sim` command line twice in this process, as `bin/sim.mjs` would run it
// (the JavaScript build when current, else the sources through tsx), and prints the
// two runs' `--json` summaries. The second run meets code V8 has already optimized
// and a heap already grown: the difference between the two is what a fresh process
// pays before the simulator runs at speed (the perf bench's warm diagnostic).
// Usage: node bench/warm-child.mjs <sim arguments...>
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
const args = [...process.argv.slice(2), '--json'];
for (let run = 0; run < 2; run++) {
  const code = await main(args);
  if (code !== 0) {
    process.exitCode = code;
    break;
  }
}
