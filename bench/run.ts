/**
 * `npm run bench [suite ...]`: runs the benchmark suites and prints their figures.
 * Suites: kernel (PHOLD vs native C++), network (thesis Fig. 7-5, a 1024-node shift),
 * apps (example apps at 64 nodes). Default: all.
 */
import { appsBench } from './apps.ts';
import { kernelBench } from './kernel.ts';
import { networkBench } from './network.ts';

const SUITES: Record<string, () => Promise<void>> = { kernel: kernelBench, network: networkBench, apps: appsBench };

const requested = process.argv.slice(2);
const unknown = requested.filter((s) => !(s in SUITES));
if (unknown.length > 0) {
  console.error(`bench: unknown suite ${unknown.join(', ')} (expected: ${Object.keys(SUITES).join(', ')})`);
  process.exit(2);
}
for (const name of requested.length > 0 ? requested : Object.keys(SUITES)) await SUITES[name]();
