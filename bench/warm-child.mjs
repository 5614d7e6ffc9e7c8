// Runs one `sim` command line twice in this process, as `bin/sim.mjs` would run it
// (the JavaScript build when current, else the sources through tsx), and prints the
// two runs' `--json` summaries. The second run meets code V8 has already optimized
// and a heap already grown: the difference between the two is what a fresh process
// pays before the simulator runs at speed (the perf bench's warm diagnostic).
// Usage: node bench/warm-child.mjs <sim arguments...>
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCliMain } from '../scripts/build-state.mjs';

const main = await loadCliMain(join(dirname(fileURLToPath(import.meta.url)), '..'));
const args = [...process.argv.slice(2), '--json'];
for (let run = 0; run < 2; run++) {
  const code = await main(args);
  if (code !== 0) {
    process.exitCode = code;
    break;
  }
}
